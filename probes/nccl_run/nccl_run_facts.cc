#include "probes/nccl_run/nccl_run_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/resource_limits/death_records.h"

namespace gpuconform::nccl_run {

const std::vector<resource_limits::ClassifiedDeath>& ReadNcclRunDeaths(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "nccl-run-deaths", NcclAllreduceProbe().id, [](const std::string& text) {
    return resource_limits::ClassifyRecordedDeaths(resource_limits::ParseDeathLines(text), "the NCCL worker");
  });
}

const Result<NcclCollectiveResults>& ReadNcclCollectives(const ClusterRaw& raw) {
  return raw.facts.Get<Result<NcclCollectiveResults>>("nccl-collectives", "", [&]() -> Result<NcclCollectiveResults> {
    return facts::ParseOutput(raw.ClusterOutput(NcclCollectivesProbe().id), ParseNcclCollectives);
  });
}

const Result<std::vector<NodeInit>>& ReadNcclInit(const ClusterRaw& raw) {
  return raw.facts.Get<Result<std::vector<NodeInit>>>("nccl-init", "", [&]() -> Result<std::vector<NodeInit>> {
    const RawOutput out = raw.ClusterOutput(NcclInitProbe().id);
    return ParseNcclInit(out.text, out.origin.empty() ? "cluster/" + NcclInitProbe().file : out.origin);
  });
}

}  // namespace gpuconform::nccl_run
