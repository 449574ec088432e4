// Typed reader of a node's InfiniBand port counters (ib-counters.txt, IbCountersProbe), parsed
// once per run. Pure: the run's raw outputs in; an error names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/ib_counters/ib_counters_parse.h"

namespace gpuconform::ib_counters {

const Result<CounterReport>& ReadIbCounters(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::ib_counters
