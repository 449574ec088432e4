// Compile-time proof that the hand-written NCCL and CUDA runtime declarations that
// gpuconform's NCCL run loads with dlopen (suites/nccl_run/nccl_library.h) match the real
// nccl.h and cuda_runtime_api.h: same enum values, same sizes, same parameter shapes. Built
// only where those headers are installed; a mismatch fails the build, not a GPU node at run time.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include "probes/nccl_run/nccl_library.h"

namespace gpuconform::nccl_run {
namespace {

// Two function pointer types agree in return size, arity and every parameter's size (the
// real ones use enum and typedef'd types where ours use int and void*).
template <class Real, class Ours>
struct SameShape;
template <class RealReturn, class... RealParams, class OurReturn, class... OurParams>
struct SameShape<RealReturn (*)(RealParams...), OurReturn (*)(OurParams...)> {
  static constexpr bool value = sizeof(RealReturn) == sizeof(OurReturn) && sizeof...(RealParams) == sizeof...(OurParams) &&
                                ((sizeof(RealParams) == sizeof(OurParams)) && ...);
};
#define GPUCONFORM_SAME_SHAPE(real, ours) \
  static_assert(SameShape<decltype(real), decltype(ours)>::value, #real " does not match " #ours)

static_assert(sizeof(ncclUniqueId) == sizeof(NcclUniqueId));
static_assert(sizeof(ncclResult_t) == sizeof(NcclResult) && sizeof(cudaError_t) == sizeof(CudaError));
static_assert(ncclSuccess == kNcclSuccess && cudaSuccess == kCudaSuccess);
static_assert(ncclFloat32 == kNcclFloat32 && ncclSum == kNcclSum);
static_assert(cudaMemcpyHostToDevice == kCudaMemcpyHostToDevice);
static_assert(cudaMemcpyDeviceToHost == kCudaMemcpyDeviceToHost);
static_assert(cudaStreamNonBlocking == kCudaStreamNonBlocking);

GPUCONFORM_SAME_SHAPE(&ncclGetVersion, Nccl{}.get_version);
GPUCONFORM_SAME_SHAPE(&ncclGetUniqueId, Nccl{}.get_unique_id);
GPUCONFORM_SAME_SHAPE(&ncclCommInitRank, Nccl{}.comm_init_rank);
GPUCONFORM_SAME_SHAPE(&ncclCommDestroy, Nccl{}.comm_destroy);
GPUCONFORM_SAME_SHAPE(&ncclGroupStart, Nccl{}.group_start);
GPUCONFORM_SAME_SHAPE(&ncclGroupEnd, Nccl{}.group_end);
GPUCONFORM_SAME_SHAPE(&ncclAllReduce, Nccl{}.all_reduce);
GPUCONFORM_SAME_SHAPE(&ncclGetErrorString, Nccl{}.error_string);
GPUCONFORM_SAME_SHAPE(&ncclGetLastError, Nccl{}.last_error);
GPUCONFORM_SAME_SHAPE(&ncclAllGather, Nccl{}.all_gather);
GPUCONFORM_SAME_SHAPE(&ncclReduceScatter, Nccl{}.reduce_scatter);
GPUCONFORM_SAME_SHAPE(&ncclSend, Nccl{}.send);
GPUCONFORM_SAME_SHAPE(&ncclRecv, Nccl{}.recv);
GPUCONFORM_SAME_SHAPE(&cudaRuntimeGetVersion, CudaRuntime{}.runtime_version);
GPUCONFORM_SAME_SHAPE(&cudaDriverGetVersion, CudaRuntime{}.driver_version);
GPUCONFORM_SAME_SHAPE(&cudaGetDeviceCount, CudaRuntime{}.device_count);
GPUCONFORM_SAME_SHAPE(&cudaSetDevice, CudaRuntime{}.set_device);
GPUCONFORM_SAME_SHAPE(&cudaDeviceGetPCIBusId, CudaRuntime{}.bus_id);
GPUCONFORM_SAME_SHAPE(&cudaMemGetInfo, CudaRuntime{}.mem_get_info);
// cudaMalloc has C++ template overloads; the C symbol is this one.
GPUCONFORM_SAME_SHAPE(static_cast<cudaError_t (*)(void**, size_t)>(&cudaMalloc), CudaRuntime{}.malloc);
GPUCONFORM_SAME_SHAPE(&cudaFree, CudaRuntime{}.free);
GPUCONFORM_SAME_SHAPE(&cudaMemcpy, CudaRuntime{}.memcpy);
GPUCONFORM_SAME_SHAPE(&cudaStreamCreateWithFlags, CudaRuntime{}.stream_create);
GPUCONFORM_SAME_SHAPE(&cudaStreamSynchronize, CudaRuntime{}.stream_synchronize);
GPUCONFORM_SAME_SHAPE(&cudaStreamDestroy, CudaRuntime{}.stream_destroy);
GPUCONFORM_SAME_SHAPE(&cudaGetErrorString, CudaRuntime{}.error_string);

}  // namespace
}  // namespace gpuconform::nccl_run

int main() { return 0; }
