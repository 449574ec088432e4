// Typed reader of one perftest run on a node (perftest_probes.h: ib_write_bw-<hca>-<port>.txt or
// ib_write_lat-<hca>-<port>.txt), parsed once per run. Pure: the run's raw outputs in; an error
// names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "harness/util/result.h"
#include "probes/perftest/perftest_parse.h"

namespace gpuconform::perftest {

// `spec` is IbWriteBwProbe(hca, port) or IbWriteLatProbe(hca, port).
const Result<PerftestReport>& ReadPerftest(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec);

}  // namespace gpuconform::perftest
