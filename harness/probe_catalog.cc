#include "harness/probe_catalog.h"

namespace gpuconform::probes {

namespace {

ProbeSpec Command(std::string id, std::string file, std::vector<std::string> argv, int timeout_ms = 15000) {
  ProbeSpec spec;
  spec.id = std::move(id);
  spec.file = std::move(file);
  spec.method = ProbeMethod::kCommand;
  spec.argv = std::move(argv);
  spec.timeout_ms = timeout_ms;
  return spec;
}

ProbeSpec Builtin(std::string id, std::string file) {
  ProbeSpec spec;
  spec.id = std::move(id);
  spec.file = std::move(file);
  spec.method = ProbeMethod::kBuiltin;
  return spec;
}

}  // namespace

ProbeSpec KernelRelease() { return Command("uname-r", "uname-r.txt", {"uname", "-r"}); }
// nvidia-smi can take tens of seconds on a node with a wedged GPU; that is what the
// deadline is for.
ProbeSpec NvidiaSmiQueryXml() { return Command("nvidia-smi-q", "nvidia-smi-q.xml", {"nvidia-smi", "-q", "-x"}, 60000); }
ProbeSpec SlurmdVersion() { return Command("slurmd-V", "slurmd-V.txt", {"slurmd", "-V"}); }
ProbeSpec MungedVersion() { return Command("munged-version", "munged-version.txt", {"munged", "--version"}); }
ProbeSpec MpiLibraryVersion() { return Builtin("mpi-library-version", "mpi-library-version.txt"); }
ProbeSpec NcclVersion() { return Builtin("nccl-version", "nccl-version.txt"); }
ProbeSpec GpuconformVersion() { return Builtin("gpuconform-version", "gpuconform-version.txt"); }

}  // namespace gpuconform::probes
