// Typed readers of the Munge suite's files: each node's munge-decode.txt, munge-key.digest,
// munge-key-stat.txt and clock.txt, parsed once per run (cached in the run's facts) however
// many checks read them. Pure: the run's raw outputs in. An error names the node and the
// file: the file is absent, could not be obtained (the probe's detail), or does not parse.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/munge/munge_parse.h"

namespace gpuconform::munge {

const Result<DecodeReport>& ReadDecodeReport(const ClusterRaw& raw, const std::string& node);
const Result<KeyDigest>& ReadKeyDigest(const ClusterRaw& raw, const std::string& node);
const Result<KeyStat>& ReadKeyStat(const ClusterRaw& raw, const std::string& node);
// clock.txt: the node's CLOCK_REALTIME in nanoseconds.
const Result<long long>& ReadClockReading(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::munge
