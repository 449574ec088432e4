// The parts of NCCL and of the CUDA runtime that gpuconform's own NCCL run calls, loaded with
// dlopen so one binary runs on nodes with and without them; there is no CUDA toolkit or
// nccl.h on most build machines, so the declarations follow nccl.h (NCCL 2.12-2.2x) and
// cuda_runtime_api.h (CUDA 11-13) by hand.
// Contract: LoadNcclLibraries never throws; it says which library is missing or lacks which
// function, in words an operator can act on. The libraries stay loaded until the process
// exits (the CUDA runtime's exit handlers live inside it).
#pragma once

#include <cstddef>
#include <string>

#include "harness/util/result.h"

namespace gpuconform::nccl_run {

// nccl.h types. ncclResult_t and the enums are int-sized; ncclUniqueId is 128 opaque bytes
// passed by value to ncclCommInitRank.
using NcclResult = int;
using NcclComm = void*;
using CudaError = int;
using CudaStream = void*;
struct NcclUniqueId {
  char internal[128];
};
constexpr NcclResult kNcclSuccess = 0;
constexpr int kNcclFloat32 = 7;  // ncclFloat
constexpr int kNcclSum = 0;
constexpr CudaError kCudaSuccess = 0;
constexpr int kCudaMemcpyHostToDevice = 1;
constexpr int kCudaMemcpyDeviceToHost = 2;
constexpr unsigned kCudaStreamNonBlocking = 1;

struct CudaRuntime {
  CudaError (*runtime_version)(int*) = nullptr;                       // cudaRuntimeGetVersion
  CudaError (*driver_version)(int*) = nullptr;                        // cudaDriverGetVersion
  CudaError (*device_count)(int*) = nullptr;                          // cudaGetDeviceCount
  CudaError (*set_device)(int) = nullptr;                             // cudaSetDevice
  CudaError (*bus_id)(char*, int, int) = nullptr;                     // cudaDeviceGetPCIBusId
  CudaError (*mem_get_info)(std::size_t*, std::size_t*) = nullptr;    // cudaMemGetInfo
  CudaError (*malloc)(void**, std::size_t) = nullptr;                 // cudaMalloc
  CudaError (*free)(void*) = nullptr;                                 // cudaFree
  CudaError (*memcpy)(void*, const void*, std::size_t, int) = nullptr;  // cudaMemcpy
  CudaError (*stream_create)(CudaStream*, unsigned) = nullptr;        // cudaStreamCreateWithFlags
  CudaError (*stream_synchronize)(CudaStream) = nullptr;              // cudaStreamSynchronize
  CudaError (*stream_destroy)(CudaStream) = nullptr;                  // cudaStreamDestroy
  const char* (*error_string)(CudaError) = nullptr;                   // cudaGetErrorString

  // "cudaMalloc: out of memory (cudaError 2)"
  std::string ErrorText(const char* call, CudaError code) const;
};

struct Nccl {
  NcclResult (*get_version)(int*) = nullptr;                                 // ncclGetVersion
  NcclResult (*get_unique_id)(NcclUniqueId*) = nullptr;                      // ncclGetUniqueId
  NcclResult (*comm_init_rank)(NcclComm*, int, NcclUniqueId, int) = nullptr;  // ncclCommInitRank
  NcclResult (*comm_destroy)(NcclComm) = nullptr;                            // ncclCommDestroy
  NcclResult (*group_start)() = nullptr;                                     // ncclGroupStart
  NcclResult (*group_end)() = nullptr;                                       // ncclGroupEnd
  NcclResult (*all_reduce)(const void*, void*, std::size_t, int, int, NcclComm,
                           CudaStream) = nullptr;  // ncclAllReduce
  const char* (*error_string)(NcclResult) = nullptr;  // ncclGetErrorString
  const char* (*last_error)(NcclComm) = nullptr;      // ncclGetLastError (2.13+; may be null)
  // The collectives beyond allreduce (probes/allreduce_sweep/collectives.h); null where this
  // NCCL lacks them (ncclSend and ncclRecv arrived in 2.7), which only that collective reports.
  NcclResult (*all_gather)(const void*, void*, std::size_t, int, NcclComm, CudaStream) = nullptr;  // ncclAllGather
  NcclResult (*reduce_scatter)(const void*, void*, std::size_t, int, int, NcclComm,
                               CudaStream) = nullptr;                                 // ncclReduceScatter
  NcclResult (*send)(const void*, std::size_t, int, int, NcclComm, CudaStream) = nullptr;  // ncclSend
  NcclResult (*recv)(void*, std::size_t, int, int, NcclComm, CudaStream) = nullptr;        // ncclRecv
  std::string library_name;  // "libnccl.so.2", for MissingFor's words

  // Why `collective` ("allreduce", "alltoall", "allgather", "reduce_scatter") cannot run with
  // this NCCL: "libnccl.so.2 lacks ncclSend, ncclRecv (NCCL older than 2.7)"; empty where it can.
  std::string MissingFor(const std::string& collective) const;

  // "ncclCommInitRank: remote process exited or there was a network error (ncclResult 6):
  // <ncclGetLastError's words>"
  std::string ErrorText(const char* call, NcclResult code) const;
};

struct NcclLibraries {
  CudaRuntime cuda;
  Nccl nccl;
  std::string cuda_name;  // "libcudart.so.12"
  std::string nccl_name;  // "libnccl.so.2"
};

// The driver (libcuda.so.1, started with cuInit), the CUDA runtime and NCCL, with every
// function above resolved (ncclGetLastError excepted), from `library_dir` when it is set. The
// error says what is missing or, quoting the driver, why it cannot start: "no NVIDIA driver
// (libcuda.so.1 not found: <dlerror>)", "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no
// CUDA-capable device is detected", "libnccl.so.2 not found (NCCL is not installed, or not on
// LD_LIBRARY_PATH): ...", "libnccl.so.2 lacks ncclCommInitRank".
Result<NcclLibraries> LoadNcclLibraries(const std::string& library_dir);

}  // namespace gpuconform::nccl_run
