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

}  // namespace gpuconform::nccl_run
