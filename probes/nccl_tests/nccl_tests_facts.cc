#include "probes/nccl_tests/nccl_tests_facts.h"

#include "harness/core/raw_lines.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::nccl_tests {

const Result<BandwidthTable>& ReadBandwidthTable(const ClusterRaw& raw, const std::string& probe_id) {
  return raw.facts.Get<Result<BandwidthTable>>("bandwidth-table/" + probe_id, "", [&]() -> Result<BandwidthTable> {
    const RawOutput out = raw.ClusterOutput(probe_id);
    if (!out.ok()) return Error{out.detail};
    // Streamed: an operator's sweep (or a replayed one) is read a chunk at a time.
    auto lines = RawLines(out);
    if (!lines) return Error{lines.error()};
    return ParseNcclTestsOutput(**lines, out.origin);
  });
}

}  // namespace gpuconform::nccl_tests
