#include "probes/cuda_driver/cuda_driver.h"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "harness/util/dynamic_library.h"

namespace gpuconform::cuda_driver {

std::string CudaDriverApi::ErrorText(const char* call, CuResult code) const {
  const char* name = nullptr;
  const char* words = nullptr;
  if (get_error_name == nullptr || get_error_name(code, &name) != kCudaSuccess) name = nullptr;
  if (get_error_string == nullptr || get_error_string(code, &words) != kCudaSuccess) words = nullptr;
  return fmt::format("{} failed: {} ({}): {}", call, name ? name : "CUresult", code,
                     words ? words : "the driver gives no description");
}

CudaDriverStart StartCudaDriver(const std::string& library_dir) {
  // Never unloaded: the CUDA runtime and NCCL use the same driver library after this, and a
  // driver that initialised must not be pulled from under them. One per directory asked for.
  static std::mutex mutex;
  static std::map<std::string, const DynamicLibrary*> loaded;
  const std::lock_guard lock(mutex);
  CudaDriverStart start;
  const DynamicLibrary*& library = loaded[library_dir];
  if (library == nullptr) {
    auto opened = DynamicLibrary::Open({"libcuda.so.1"}, library_dir);
    if (!opened) {
      start.library_missing = true;
      start.error = "no NVIDIA driver (libcuda.so.1 not found: " + opened.error() + ")";
      return start;
    }
    library = new DynamicLibrary(std::move(opened).value());
  }
  CudaDriverApi api;
  api.init = library->Symbol<decltype(api.init)>("cuInit");
  api.driver_get_version = library->Symbol<decltype(api.driver_get_version)>("cuDriverGetVersion");
  api.get_error_name = library->Symbol<decltype(api.get_error_name)>("cuGetErrorName");
  api.get_error_string = library->Symbol<decltype(api.get_error_string)>("cuGetErrorString");
  if (api.init == nullptr) {
    start.error = "libcuda.so.1 loaded but exports no cuInit (not NVIDIA's driver library?)";
    return start;
  }
  if (const CuResult code = api.init(0); code != kCudaSuccess) {
    start.error = api.ErrorText("cuInit(0)", code);
    return start;
  }
  if (api.driver_get_version != nullptr) api.driver_get_version(&start.driver_version);
  return start;
}

}  // namespace gpuconform::cuda_driver
