// The CUDA driver API's first call, shared by the probes that use CUDA (the P2P probe and
// gpuconform's NCCL run). A node can have NVIDIA's user-space libraries and still no usable
// GPU (no kernel module, no /dev/nvidia* in the container, no GPU at all); cuInit is where the
// driver itself says which, and the CUDA runtime's later errors only paraphrase it (a newer
// runtime even says "driver version is insufficient"). So the probes start here.
// Contract: StartCudaDriver never throws. It loads libcuda.so.1 (from `library_dir` when that
// is set, else from the loader's search path), keeps it loaded for the life of the process,
// and calls cuInit(0). On failure it says so in the driver's words, quoting cuGetErrorName and
// cuGetErrorString: "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is
// detected"; a missing library is "no NVIDIA driver (libcuda.so.1 not found: <dlerror>)".
#pragma once

#include <string>

namespace gpuconform::cuda_driver {

// cuda.h's types and the functions called here, declared by hand: there is no cuda.h on most
// build machines (Debian ships it only in the 2.8 GB nvidia-cuda-dev). CUresult is an int enum.
using CuResult = int;
constexpr CuResult kCudaSuccess = 0;  // CUDA_SUCCESS

struct CudaDriverApi {
  CuResult (*init)(unsigned) = nullptr;                            // cuInit
  CuResult (*driver_get_version)(int*) = nullptr;                  // cuDriverGetVersion
  CuResult (*get_error_name)(CuResult, const char**) = nullptr;    // cuGetErrorName
  CuResult (*get_error_string)(CuResult, const char**) = nullptr;  // cuGetErrorString

  // "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected"
  std::string ErrorText(const char* call, CuResult code) const;
};

struct CudaDriverStart {
  bool library_missing = false;  // libcuda.so.1 could not be loaded: no driver on the node
  std::string error;             // empty when cuInit succeeded
  int driver_version = 0;        // cuDriverGetVersion, e.g. 12020 for CUDA 12.2
  bool ok() const { return error.empty(); }
};

CudaDriverStart StartCudaDriver(const std::string& library_dir);

}  // namespace gpuconform::cuda_driver
