// DynamicLibrary: a shared library opened at run time with dlopen and closed when the object
// goes, so GPU and RDMA libraries (NVML, CUDA runtime, NCCL, libibverbs) are used on nodes
// that have them and the binary still starts on nodes that do not. Contract: Open tries the
// names in order and says which one loaded or, when none did, what dlerror said; Symbol
// returns nullptr for a name the library does not export, so a caller can leave out the one
// fact that needs it instead of failing as a whole. A non-empty `directory` loads each name from
// that directory only (GPUCONFORM_GPU_LIBRARY_DIR), instead of the loader's search path.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

class DynamicLibrary {
 public:
  // The first of `names` that dlopen loads, or an error listing each name with dlerror's words.
  static Result<DynamicLibrary> Open(const std::vector<std::string>& names, const std::string& directory = "");

  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  const std::string& name() const { return name_; }  // the name that loaded, e.g. "libcudart.so.12"

  // The exported function `symbol` as type F (a function pointer type), or nullptr.
  template <typename F>
  F Symbol(const char* symbol) const {
    return reinterpret_cast<F>(RawSymbol(symbol));
  }

 private:
  DynamicLibrary(void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  void* RawSymbol(const char* symbol) const;

  void* handle_ = nullptr;
  std::string name_;
};

}  // namespace gpuconform
