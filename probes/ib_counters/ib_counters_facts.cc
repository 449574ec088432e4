#include "probes/ib_counters/ib_counters_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/ib_counters/ib_counters_probe.h"

namespace gpuconform::ib_counters {

const Result<CounterReport>& ReadIbCounters(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<CounterReport>>("ib-counters", node, [&] {
    return facts::ParseNodeOutput(raw, node, IbCountersProbe(), "", ParseIbCounters);
  });
}

}  // namespace gpuconform::ib_counters
