#include "probes/nccl_tests/nccl_tests_facts.h"

#include "harness/fact_reading.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::nccl_tests {

const Result<BandwidthTable>& ReadBandwidthTable(const ClusterRaw& raw, const std::string& probe_id) {
  return raw.facts.Get<Result<BandwidthTable>>("bandwidth-table/" + probe_id, "", [&] {
    return facts::ParseOutput(raw.ClusterOutput(probe_id), ParseNcclTestsOutput);
  });
}

}  // namespace gpuconform::nccl_tests
