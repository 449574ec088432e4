#include "harness/probe_catalog.h"

#include "harness/builtin_probes.h"
#include "harness/live_source.h"

namespace gpuconform::probes {

ProbeSpec KernelRelease() { return CommandProbe("uname-r", ProbeScope::kNode, "uname-r.txt", {"uname", "-r"}); }
// nvidia-smi can take tens of seconds on a node with a wedged GPU; that is what the
// deadline is for.
ProbeSpec NvidiaSmiQueryXml() {
  return TalksToDevices(
      CommandProbe("nvidia-smi-q", ProbeScope::kNode, "nvidia-smi-q.xml", {"nvidia-smi", "-q", "-x"}, 60000),
      kNvidiaDriverLoaded);
}
// The text form carries the same facts as -x, so a live run does not pay for nvidia-smi twice;
// it exists for snapshots made by other tools or by hand, where only `nvidia-smi -q` was kept.
ProbeSpec NvidiaSmiQueryText() {
  return BuiltinProbe("nvidia-smi-q-text", ProbeScope::kNode, "nvidia-smi-q.txt", [](const LiveContext& context) {
    return RawOutput{ProbeStatus::kAbsent, "", context.host + ": nvidia-smi -q",
                     context.host + ": nvidia-smi -q is not run live; nvidia-smi -q -x gives the same facts"};
  });
}
ProbeSpec SlurmdVersion() { return CommandProbe("slurmd-V", ProbeScope::kNode, "slurmd-V.txt", {"slurmd", "-V"}); }
ProbeSpec MungedVersion() { return CommandProbe("munged-version", ProbeScope::kNode, "munged-version.txt", {"munged", "--version"}); }
ProbeSpec MpiLibraryVersion() {
  return BuiltinProbe("mpi-library-version", ProbeScope::kNode, "mpi-library-version.txt", MpiLibraryVersionOutput);
}
ProbeSpec NcclVersion() { return BuiltinProbe("nccl-version", ProbeScope::kNode, "nccl-version.txt", NcclVersionOutput); }
ProbeSpec GpuconformVersion() { return BuiltinProbe("gpuconform-version", ProbeScope::kNode, "gpuconform-version.txt", GpuconformVersionOutput); }
ProbeSpec GpuDevices() { return BuiltinProbe("gpu-devices", ProbeScope::kNode, "gpu-devices.txt", GpuDevicesOutput); }
ProbeSpec NvidiaSmiTopoMatrix() {
  return TalksToDevices(
      CommandProbe("nvidia-smi-topo-m", ProbeScope::kNode, "nvidia-smi-topo-m.txt", {"nvidia-smi", "topo", "-m"}, 60000),
      kNvidiaDriverLoaded);
}
ProbeSpec NcclTopoFile() { return BuiltinProbe("nccl-topo-file", ProbeScope::kNode, "nccl-topo-file.xml", NcclTopoFileOutput); }
ProbeSpec PciDevices() { return BuiltinProbe("pci-devices", ProbeScope::kNode, "pci-devices.txt", PciDevicesOutput); }

}  // namespace gpuconform::probes
