#include "probes/nvidia_smi/nvidia_smi_probes.h"

#include "harness/core/live_source.h"

namespace gpuconform::nvidia_smi {

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

ProbeSpec NvidiaSmiTopoMatrix() {
  return TalksToDevices(
      CommandProbe("nvidia-smi-topo-m", ProbeScope::kNode, "nvidia-smi-topo-m.txt", {"nvidia-smi", "topo", "-m"}, 60000),
      kNvidiaDriverLoaded);
}

const ProbeSpec& NvlinkStatusProbe() {
  static const ProbeSpec kSpec =
      TalksToDevices(CommandProbe("nvidia-smi-nvlink-s", ProbeScope::kNode, "nvidia-smi-nvlink-s.txt",
                                  {"nvidia-smi", "nvlink", "-s"}, 60000),
                     kNvidiaDriverLoaded);
  return kSpec;
}

const ProbeSpec& NvlinkErrorsProbe() {
  static const ProbeSpec kSpec =
      TalksToDevices(CommandProbe("nvidia-smi-nvlink-e", ProbeScope::kNode, "nvidia-smi-nvlink-e.txt",
                                  {"nvidia-smi", "nvlink", "-e"}, 60000),
                     kNvidiaDriverLoaded);
  return kSpec;
}

}  // namespace gpuconform::nvidia_smi
