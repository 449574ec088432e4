#include "probes/nvbandwidth/nvbandwidth_probes.h"

#include "harness/snapshot_only_probe.h"

namespace gpuconform::nvbandwidth {

const ProbeSpec& NvbandwidthJsonProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("nvbandwidth-json", "nvbandwidth.json", "nvbandwidth -j");
  return kSpec;
}

const ProbeSpec& NvbandwidthTextProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("nvbandwidth-text", "nvbandwidth.txt", "nvbandwidth");
  return kSpec;
}

}  // namespace gpuconform::nvbandwidth
