#include "probes/perftest/perftest_facts.h"

#include "harness/core/failing_tool_reading.h"

namespace gpuconform::perftest {

const Result<PerftestReport>& ReadPerftest(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec) {
  return raw.facts.Get<Result<PerftestReport>>(spec.id, node, [&] {
    return facts::ParseNodeOutputWhateverItsExit(raw, node, spec, "perftest is not installed on the node", ParsePerftest);
  });
}

}  // namespace gpuconform::perftest
