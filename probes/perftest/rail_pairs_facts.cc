#include "probes/perftest/rail_pairs_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/perftest/rail_pairs_pass.h"

namespace gpuconform::perftest {

const ProbeSpec& RailPairsProbe() {
  static const ProbeSpec kSpec = [] {
    ProbeSpec spec = CollectiveProbe("perftest-rail-pairs", "perftest-rail-pairs.txt", RunRailPairsPass);
    spec.scope = ProbeScope::kCluster;
    return spec;
  }();
  return kSpec;
}

const Result<RailPairsFile>& ReadRailPairs(const ClusterRaw& raw) {
  return raw.facts.Get<Result<RailPairsFile>>("perftest-rail-pairs", "", [&] {
    return facts::ParseOutput(raw.ClusterOutput(RailPairsProbe().id), ParseRailPairs);
  });
}

}  // namespace gpuconform::perftest
