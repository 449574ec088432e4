// AllreduceBandwidth judgement. Pure: a measured sweep (BandwidthTable, from our MPI backend
// or an nccl-tests log) + profile in, one cluster-wide CheckResult out.
// Bandwidth is judged only at the profile's named sizes for the table's node count, never on
// "Avg bus bandwidth" (which averages latency-bound small sizes). A size the sweep did not
// reach is an <error> (rerun with a larger -e), not a pass. A failure near the management
// NIC's rate says that collectives probably run on it, and how to pin the fabric.
#pragma once

#include <string>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "suites/allreduce/bandwidth_table.h"

namespace gpuconform::allreduce {

inline constexpr char kSuite[] = "AllreduceBandwidth";

// busbw at each of the profile's floors for table.nodes (when the table does not know its
// node count, the profile's only floor, if it has exactly one). Measurements: busbw at
// every size, with threshold and source at the judged ones.
CheckResult CheckBusbwAtFloors(const BandwidthTable& table, const Profile& profile, const std::string& check_name);

// Every row's result was verified and had no wrong elements (nccl-tests #wrong, -c 1).
// Efficiency against the declared fabric (profile.fabric): busbw at the sweep's largest
// size over one node's fabric bandwidth (the ring bound: each node moves 2(N-1)/N x bytes).
// Recorded always; judged against allreduce_efficiency_floor_fraction when the profile sets one.
CheckResult CheckEfficiencyAgainstFabric(const BandwidthTable& table, const Profile& profile,
                                         const std::string& check_name);

CheckResult CheckResultsCorrect(const BandwidthTable& table, const std::string& check_name = "ResultsCorrect");

// "16 GiB", "64 MiB", "8 B"; sizes that are not a whole number of a binary unit in bytes.
std::string HumanSize(long long size_bytes);

}  // namespace gpuconform::allreduce
