#include "harness/builtin_probes.h"

#include <dlfcn.h>
#include <mpi.h>

#include "harness/probe_catalog.h"

namespace gpuconform {

namespace {

RawOutput NcclVersionOutput(const std::string& hostname) {
  RawOutput out;
  out.origin = hostname + ": ncclGetVersion() from libnccl.so.2";
  void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = hostname + ": libnccl.so.2 not found (NCCL is not installed, or not on LD_LIBRARY_PATH)";
    return out;
  }
  using GetVersion = int (*)(int*);
  auto get_version = reinterpret_cast<GetVersion>(dlsym(library, "ncclGetVersion"));
  int code = 0;
  if (get_version == nullptr || get_version(&code) != 0) {
    out.status = ProbeStatus::kFailed;
    out.detail = hostname + ": libnccl.so.2 loaded but ncclGetVersion failed";
  } else {
    // NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9 (major*1000 + ... before).
    const int major = code >= 10000 ? code / 10000 : code / 1000;
    const int minor = code >= 10000 ? (code / 100) % 100 : (code / 100) % 10;
    const int patch = code % 100;
    out.status = ProbeStatus::kOk;
    out.text = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + "\n";
  }
  dlclose(library);
  return out;
}

RawOutput MpiLibraryVersionOutput(const std::string& hostname) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  return {ProbeStatus::kOk, std::string(version, length) + "\n", hostname + ": MPI_Get_library_version()", ""};
}

}  // namespace

void AddBuiltinProbes(LiveSource& live, const std::string& hostname) {
  live.AddBuiltin(probes::NcclVersion().id, [hostname] { return NcclVersionOutput(hostname); });
  live.AddBuiltin(probes::MpiLibraryVersion().id, [hostname] { return MpiLibraryVersionOutput(hostname); });
  live.AddBuiltin(probes::GpuconformVersion().id, [hostname] {
    return RawOutput{ProbeStatus::kOk, std::string(GPUCONFORM_VERSION) + "\n", hostname + ": gpuconform", ""};
  });
}

}  // namespace gpuconform
