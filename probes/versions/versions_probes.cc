#include "probes/versions/versions_probes.h"

#include "harness/util/dynamic_library.h"
#include "harness/util/version.h"

#include <mpi.h>

namespace gpuconform::versions {

RawOutput NcclVersionOutput(const LiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": ncclGetVersion() from libnccl.so.2";
  auto library = DynamicLibrary::Open({"libnccl.so.2"});
  if (!library) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": libnccl.so.2 not found (NCCL is not installed, or not on LD_LIBRARY_PATH)";
    return out;
  }
  using GetVersion = int (*)(int*);
  auto get_version = library->Symbol<GetVersion>("ncclGetVersion");
  int code = 0;
  if (get_version == nullptr || get_version(&code) != 0) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": libnccl.so.2 loaded but ncclGetVersion failed";
    return out;
  }
  // NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9 (major*1000 + ... before).
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? (code / 100) % 100 : (code / 100) % 10;
  const int patch = code % 100;
  out.status = ProbeStatus::kOk;
  out.text = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + "\n";
  return out;
}

RawOutput MpiLibraryVersionOutput(const LiveContext& context) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  return {ProbeStatus::kOk, std::string(version, length) + "\n", context.host + ": MPI_Get_library_version()", ""};
}

RawOutput GpuconformVersionOutput(const LiveContext& context) {
  return {ProbeStatus::kOk, std::string(kVersion) + "\n", context.host + ": gpuconform", ""};
}

ProbeSpec KernelRelease() { return CommandProbe("uname-r", ProbeScope::kNode, "uname-r.txt", {"uname", "-r"}); }
ProbeSpec SlurmdVersion() { return CommandProbe("slurmd-V", ProbeScope::kNode, "slurmd-V.txt", {"slurmd", "-V"}); }
ProbeSpec MungedVersion() {
  return CommandProbe("munged-version", ProbeScope::kNode, "munged-version.txt", {"munged", "--version"});
}
ProbeSpec MpiLibraryVersion() {
  return BuiltinProbe("mpi-library-version", ProbeScope::kNode, "mpi-library-version.txt", MpiLibraryVersionOutput);
}
ProbeSpec NcclVersion() { return BuiltinProbe("nccl-version", ProbeScope::kNode, "nccl-version.txt", NcclVersionOutput); }
ProbeSpec GpuconformVersion() {
  return BuiltinProbe("gpuconform-version", ProbeScope::kNode, "gpuconform-version.txt", GpuconformVersionOutput);
}

}  // namespace gpuconform::versions
