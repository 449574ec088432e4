// The pairing pass's results (cluster/perftest-rail-pairs.txt, rail_pairs_parse.h), parsed once
// per run. Live, the probe is the pairing pass (rail_pairs_pass.h), a collective on every rank.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

const ProbeSpec& RailPairsProbe();  // cluster/perftest-rail-pairs.txt
const Result<RailPairsFile>& ReadRailPairs(const ClusterRaw& raw);

}  // namespace gpuconform::perftest
