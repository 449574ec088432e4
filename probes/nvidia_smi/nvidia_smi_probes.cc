#include "probes/nvidia_smi/nvidia_smi_probes.h"

#include <string>
#include <utility>
#include <vector>

#include "harness/core/live_source.h"

namespace gpuconform::nvidia_smi {

namespace {

// nvidia-smi run on each node with `argv` into `file`, given a minute: it talks to the GPUs,
// so it runs where the NVIDIA driver is loaded.
ProbeSpec NvidiaSmiRun(std::string id, std::string file, std::vector<std::string> argv) {
  return TalksToDevices(CommandProbe(std::move(id), ProbeScope::kNode, std::move(file), std::move(argv), 60000),
                        kNvidiaDriverLoaded);
}

}  // namespace

ProbeSpec NvidiaSmiQueryXml() { return NvidiaSmiRun("nvidia-smi-q", "nvidia-smi-q.xml", {"nvidia-smi", "-q", "-x"}); }

// The text form carries the same facts as -x, so a live run does not pay for nvidia-smi twice;
// it exists for snapshots made by other tools or by hand, where only `nvidia-smi -q` was kept.
ProbeSpec NvidiaSmiQueryText() {
  return BuiltinProbe("nvidia-smi-q-text", ProbeScope::kNode, "nvidia-smi-q.txt", [](const LiveContext& context) {
    return RawOutput{ProbeStatus::kAbsent, "", context.host + ": nvidia-smi -q",
                     context.host + ": nvidia-smi -q is not run live; nvidia-smi -q -x gives the same facts"};
  });
}

ProbeSpec NvidiaSmiTopoMatrix() {
  return NvidiaSmiRun("nvidia-smi-topo-m", "nvidia-smi-topo-m.txt", {"nvidia-smi", "topo", "-m"});
}

const ProbeSpec& NvlinkStatusProbe() {
  static const ProbeSpec kSpec =
      NvidiaSmiRun("nvidia-smi-nvlink-s", "nvidia-smi-nvlink-s.txt", {"nvidia-smi", "nvlink", "-s"});
  return kSpec;
}

const ProbeSpec& NvlinkErrorsProbe() {
  static const ProbeSpec kSpec =
      NvidiaSmiRun("nvidia-smi-nvlink-e", "nvidia-smi-nvlink-e.txt", {"nvidia-smi", "nvlink", "-e"});
  return kSpec;
}

}  // namespace gpuconform::nvidia_smi
