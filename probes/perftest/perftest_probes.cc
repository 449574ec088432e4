#include "probes/perftest/perftest_probes.h"

#include "harness/core/snapshot_only_probe.h"

namespace gpuconform::perftest {

namespace {

ProbeSpec PerftestProbe(const std::string& tool, const std::string& hca, int port) {
  const std::string name = tool + "-" + hca + "-" + std::to_string(port);
  return SnapshotOnlyProbe(name, name + ".txt", tool + " -d " + hca + " -i " + std::to_string(port));
}

}  // namespace

ProbeSpec IbWriteBwProbe(const std::string& hca, int port) { return PerftestProbe("ib_write_bw", hca, port); }

ProbeSpec IbWriteLatProbe(const std::string& hca, int port) { return PerftestProbe("ib_write_lat", hca, port); }

}  // namespace gpuconform::perftest
