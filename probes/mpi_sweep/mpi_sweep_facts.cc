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

const Result<IsolationFacts>& ReadIsolation(const ClusterRaw& raw) {
  return raw.facts.Get<Result<IsolationFacts>>("mpi-isolation", "", [&]() -> Result<IsolationFacts> {
    const RawOutput out = raw.ClusterOutput(MpiIsolationProbe().id);
    if (!out.ok()) return Error{out.detail.empty() ? std::string("no cluster/isolation.txt") : out.detail};
    const std::string origin = out.origin.empty() ? "cluster/isolation.txt" : out.origin;
    auto record = isolation::ParseIsolationRecords(out.text, origin);
    if (!record) return Error{record.error()};
    auto findings = isolation::Replay(*record, origin);
    if (!findings) return Error{findings.error()};
    return IsolationFacts{std::move(record).value(), std::move(findings).value()};
  });
}

}  // namespace gpuconform::mpi_sweep
