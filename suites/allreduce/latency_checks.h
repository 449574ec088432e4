// AllreduceBandwidth's small-message judgement: the time of one allreduce at the latency
// band's sizes (8 B to 64 KiB) against the profile's `allreduce_latency:` ceilings for the
// table's node count. Pure: a sweep already read and the profile in, one cluster-wide
// judgement out. A table with no size of 64 KiB or less (a sweep from before the band, an
// nccl-tests run started at -b 1M) skips saying so; a ceiling's size missing from a table
// that has the band is an <error>, never a pass.
#pragma once

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::allreduce {

CheckResult CheckSmallMessageLatency(const nccl_tests::BandwidthTable& table, const Profile& profile);

}  // namespace gpuconform::allreduce
