#include "probes/nccl_run/nccl_library.h"

#include <fmt/format.h>

#include <vector>

#include "harness/util/dynamic_library.h"
#include "probes/cuda_driver/cuda_driver.h"

namespace gpuconform::nccl_run {

namespace {

// Loads `names` once for the life of the process (never unloaded: see the header).
const DynamicLibrary* KeptLoaded(const std::vector<std::string>& names, const std::string& directory,
                                 std::string& error) {
  auto opened = DynamicLibrary::Open(names, directory);
  if (!opened) {
    error = opened.error();
    return nullptr;
  }
  return new DynamicLibrary(std::move(opened).value());
}

// Resolves `symbol` into `slot`; adds the name to `missing` when the library lacks it.
template <typename F>
void Resolve(const DynamicLibrary& library, const char* symbol, F& slot, std::string& missing) {
  slot = library.Symbol<F>(symbol);
  if (slot == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
}

}  // namespace

std::string CudaRuntime::ErrorText(const char* call, CudaError code) const {
  const char* text = error_string ? error_string(code) : nullptr;
  return fmt::format("{}: {} (cudaError {})", call, text ? text : "unknown error", code);
}

std::string Nccl::ErrorText(const char* call, NcclResult code) const {
  const char* text = error_string ? error_string(code) : nullptr;
  std::string words = fmt::format("{}: {} (ncclResult {})", call, text ? text : "unknown error", code);
  const char* last = last_error ? last_error(nullptr) : nullptr;
  if (last != nullptr && *last != '\0') words += std::string(": ") + last;
  return words;
}

std::string Nccl::MissingFor(const std::string& collective) const {
  std::vector<std::string> missing;
  if (collective == "allgather" && all_gather == nullptr) missing.push_back("ncclAllGather");
  if (collective == "reduce_scatter" && reduce_scatter == nullptr) missing.push_back("ncclReduceScatter");
  if (collective == "alltoall") {
    if (send == nullptr) missing.push_back("ncclSend");
    if (recv == nullptr) missing.push_back("ncclRecv");
  }
  if (missing.empty()) return "";
  std::string words = (library_name.empty() ? std::string("NCCL") : library_name) + " lacks " + missing.front();
  for (std::size_t i = 1; i < missing.size(); ++i) words += ", " + missing[i];
  return words + (collective == "alltoall" ? " (NCCL older than 2.7)" : "");
}

Result<NcclLibraries> LoadNcclLibraries(const std::string& library_dir) {
  // The driver first: where it cannot start, its own words say why, and the runtime's would not.
  const cuda_driver::CudaDriverStart driver = cuda_driver::StartCudaDriver(library_dir);
  if (!driver.ok()) return Error(driver.error);
  std::string error;
  static const DynamicLibrary* const cuda =
      KeptLoaded({"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so"}, library_dir, error);
  if (cuda == nullptr) return Error("no CUDA runtime (libcudart.so.13, .12, .11.0 and libcudart.so not found)");
  static const DynamicLibrary* const nccl = KeptLoaded({"libnccl.so.2", "libnccl.so"}, library_dir, error);
  if (nccl == nullptr) {
    return Error("libnccl.so.2 not found (NCCL is not installed, or not on LD_LIBRARY_PATH)");
  }
  NcclLibraries libraries;
  libraries.cuda_name = cuda->name();
  libraries.nccl_name = nccl->name();
  std::string missing;
  CudaRuntime& c = libraries.cuda;
  Resolve(*cuda, "cudaRuntimeGetVersion", c.runtime_version, missing);
  Resolve(*cuda, "cudaDriverGetVersion", c.driver_version, missing);
  Resolve(*cuda, "cudaGetDeviceCount", c.device_count, missing);
  Resolve(*cuda, "cudaSetDevice", c.set_device, missing);
  Resolve(*cuda, "cudaDeviceGetPCIBusId", c.bus_id, missing);
  Resolve(*cuda, "cudaMemGetInfo", c.mem_get_info, missing);
  Resolve(*cuda, "cudaMalloc", c.malloc, missing);
  Resolve(*cuda, "cudaFree", c.free, missing);
  Resolve(*cuda, "cudaMemcpy", c.memcpy, missing);
  Resolve(*cuda, "cudaStreamCreateWithFlags", c.stream_create, missing);
  Resolve(*cuda, "cudaStreamSynchronize", c.stream_synchronize, missing);
  Resolve(*cuda, "cudaStreamDestroy", c.stream_destroy, missing);
  Resolve(*cuda, "cudaGetErrorString", c.error_string, missing);
  if (!missing.empty()) return Error(cuda->name() + " lacks " + missing);
  Nccl& n = libraries.nccl;
  Resolve(*nccl, "ncclGetVersion", n.get_version, missing);
  Resolve(*nccl, "ncclGetUniqueId", n.get_unique_id, missing);
  Resolve(*nccl, "ncclCommInitRank", n.comm_init_rank, missing);
  Resolve(*nccl, "ncclCommDestroy", n.comm_destroy, missing);
  Resolve(*nccl, "ncclGroupStart", n.group_start, missing);
  Resolve(*nccl, "ncclGroupEnd", n.group_end, missing);
  Resolve(*nccl, "ncclAllReduce", n.all_reduce, missing);
  Resolve(*nccl, "ncclGetErrorString", n.error_string, missing);
  if (!missing.empty()) return Error(nccl->name() + " lacks " + missing + " (NCCL older than 2.12?)");
  n.last_error = nccl->Symbol<decltype(n.last_error)>("ncclGetLastError");
  n.all_gather = nccl->Symbol<decltype(n.all_gather)>("ncclAllGather");
  n.reduce_scatter = nccl->Symbol<decltype(n.reduce_scatter)>("ncclReduceScatter");
  n.send = nccl->Symbol<decltype(n.send)>("ncclSend");
  n.recv = nccl->Symbol<decltype(n.recv)>("ncclRecv");
  n.library_name = nccl->name();
  return libraries;
}

}  // namespace gpuconform::nccl_run
