#include "probes/mpi_sweep/mpi_sweep_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"

namespace gpuconform::mpi_sweep {

const std::vector<PairResult>& ReadPairResults(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "mpi-sweep-pairs", MpiAllreduceProbe().id, ParsePairResults);
}

const std::vector<ExcludedNode>& ReadExcludedNodes(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "mpi-sweep-excluded", MpiAllreduceProbe().id, ParseExcludedLines);
}

const std::vector<resource_limits::ClassifiedDeath>& ReadSweepDeaths(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "mpi-sweep-deaths", MpiAllreduceProbe().id, [](const std::string& text) {
    return ClassifySweepDeaths(ParseDeathLines(text));
  });
}

}  // namespace gpuconform::mpi_sweep
