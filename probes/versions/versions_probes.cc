#include "probes/versions/versions_probes.h"

#include "harness/core/builtin_probes.h"

namespace gpuconform::versions {

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
