#include "harness/probe_catalog.h"

#include "harness/builtin_probes.h"
#include "harness/live_source.h"

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

ProbeSpec Builtin(std::string id, std::string file, std::function<RawOutput(const LiveContext&)> run) {
  ProbeSpec spec;
  spec.id = std::move(id);
  spec.file = std::move(file);
  spec.method = ProbeMethod::kBuiltin;
  spec.builtin = std::move(run);
  return spec;
}

}  // namespace

ProbeSpec KernelRelease() { return Command("uname-r", "uname-r.txt", {"uname", "-r"}); }
// nvidia-smi can take tens of seconds on a node with a wedged GPU; that is what the
// deadline is for.
ProbeSpec NvidiaSmiQueryXml() { return Command("nvidia-smi-q", "nvidia-smi-q.xml", {"nvidia-smi", "-q", "-x"}, 60000); }
ProbeSpec SlurmdVersion() { return Command("slurmd-V", "slurmd-V.txt", {"slurmd", "-V"}); }
ProbeSpec MungedVersion() { return Command("munged-version", "munged-version.txt", {"munged", "--version"}); }
ProbeSpec MpiLibraryVersion() {
  return Builtin("mpi-library-version", "mpi-library-version.txt", MpiLibraryVersionOutput);
}
ProbeSpec NcclVersion() { return Builtin("nccl-version", "nccl-version.txt", NcclVersionOutput); }
ProbeSpec GpuconformVersion() { return Builtin("gpuconform-version", "gpuconform-version.txt", GpuconformVersionOutput); }
ProbeSpec GpuDevices() { return Builtin("gpu-devices", "gpu-devices.txt", GpuDevicesOutput); }
ProbeSpec NvidiaSmiTopoMatrix() {
  return Command("nvidia-smi-topo-m", "nvidia-smi-topo-m.txt", {"nvidia-smi", "topo", "-m"}, 60000);
}

}  // namespace gpuconform::probes
