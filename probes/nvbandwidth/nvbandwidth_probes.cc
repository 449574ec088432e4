#include "probes/nvbandwidth/nvbandwidth_probes.h"

#include "harness/core/snapshot_only_probe.h"
#include "probes/nvbandwidth/nvbandwidth_profile.h"

namespace gpuconform::nvbandwidth {

std::optional<ProbeCommand> NvbandwidthCommand(const Profile* profile) {
  if (profile != nullptr && !profile->Get<NvbandwidthExpectation>()) return std::nullopt;
  const std::string binary = profile == nullptr ? NvbandwidthExpectation{}.binary : profile->Get<NvbandwidthExpectation>()->binary;
  return ProbeCommand{{binary, "-j"}, kNvbandwidthTimeoutMs};
}

const ProbeSpec& NvbandwidthJsonProbe() {
  // It copies on the GPUs: past its deadline with the driver loaded, the GPU is wedged.
  static const ProbeSpec kSpec = Active(TalksToDevices(
      ProfileCommandProbe("nvbandwidth-json", ProbeScope::kNode, "nvbandwidth.json",
                          {{"nvbandwidth", "-j"}, kNvbandwidthTimeoutMs}, NvbandwidthCommand),
      kNvidiaDriverLoaded));
  return kSpec;
}

const ProbeSpec& NvbandwidthTextProbe() {
  static const ProbeSpec kSpec = Active(SnapshotOnlyProbe("nvbandwidth-text", "nvbandwidth.txt", "nvbandwidth"));
  return kSpec;
}

}  // namespace gpuconform::nvbandwidth
