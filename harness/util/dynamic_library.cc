#include "harness/util/dynamic_library.h"

#include <dlfcn.h>

#include <utility>

namespace gpuconform {

Result<DynamicLibrary> DynamicLibrary::Open(const std::vector<std::string>& names, const std::string& directory) {
  std::string tried;
  for (const auto& name : names) {
    // A name with a slash is a path: dlopen then searches nowhere else.
    const std::string path = directory.empty() ? name : directory + "/" + name;
    // RTLD_LOCAL: the driver libraries must not satisfy symbols of anything loaded later.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) return DynamicLibrary(handle, name);
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + std::string(why ? why : path + ": not found");
  }
  return Error{tried};
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), name_(std::move(other.name_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    name_ = std::move(other.name_);
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* DynamicLibrary::RawSymbol(const char* symbol) const {
  return handle_ == nullptr ? nullptr : dlsym(handle_, symbol);
}

}  // namespace gpuconform
