#include "probes/dcgm/dcgm_probes.h"

#include "harness/snapshot_only_probe.h"

namespace gpuconform::dcgm {

const ProbeSpec& DcgmDiagJsonProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("dcgmi-diag-json", "dcgmi-diag.json", "dcgmi diag -j");
  return kSpec;
}

const ProbeSpec& DcgmDiagTextProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("dcgmi-diag-text", "dcgmi-diag.txt", "dcgmi diag");
  return kSpec;
}

const ProbeSpec& DcgmNvlinkStatusProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("dcgmi-nvlink-s", "dcgmi-nvlink-s.txt", "dcgmi nvlink -s");
  return kSpec;
}

}  // namespace gpuconform::dcgm
