// AllreduceBandwidth judgement. Pure: a measured sweep already read (BandwidthTable, from our
// MPI backend or an nccl-tests log: probes/nccl_tests/nccl_tests_facts.h) + profile in, one
// cluster-wide judgement out; the suite's glue names it after the table's check (Mpi*, Nccl*,
// NcclTests*) and errs or skips where the table could not be read.
// Bandwidth is judged only at the profile's named sizes for the table's node count, never on
// "Avg bus bandwidth" (which averages latency-bound small sizes). A size the sweep did not
// reach is an <error> (rerun with a larger -e), not a pass. A failure near the management
// NIC's rate says that collectives probably run on it, and how to pin the fabric. Where the
// table is an NCCL run and the snapshot has that run's NCCL_DEBUG=INFO log, a failure also
// cites the log (NcclTransport's facts, passed in): channels on NET/Socket or another network
// than the profile's, with the fix; or NET/IB, so the transport was right and the fabric
// is to blame.
#pragma once

#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/allreduce_sweep/allreduce_profile.h"
#include "probes/nccl_log/nccl_log_facts.h"
#include "probes/nccl_tests/bandwidth_table.h"
#include "suites/allreduce/fabric_profile.h"

namespace gpuconform::allreduce {

using namespace gpuconform::nccl_tests;
using allreduce_sweep::AllreduceFloor;
using allreduce_sweep::AllreduceFloors;

inline constexpr char kSuite[] = "AllreduceBandwidth";

// The checks, each cluster-wide, in report order: the MPI backend's sweep, gpuconform's own
// NCCL run, and an operator's nccl-tests output.
GPUCONFORM_CHECK_NAME(MpiBusbwAtFloors);
GPUCONFORM_CHECK_NAME(MpiResultsCorrect);
GPUCONFORM_CHECK_NAME(MpiNoSlowNode);
GPUCONFORM_CHECK_NAME(MpiFaultIsolation);
GPUCONFORM_CHECK_NAME(MpiEfficiencyAgainstFabric);
GPUCONFORM_CHECK_NAME(MpiSmallMessageLatency);
GPUCONFORM_CHECK_NAME(NcclBusbwAtFloors);
GPUCONFORM_CHECK_NAME(NcclResultsCorrect);
GPUCONFORM_CHECK_NAME(NcclEfficiencyAgainstFabric);
GPUCONFORM_CHECK_NAME(NcclSmallMessageLatency);
GPUCONFORM_CHECK_NAME(NcclTestsBusbwAtFloors);
GPUCONFORM_CHECK_NAME(NcclTestsResultsCorrect);
GPUCONFORM_CHECK_NAME(NcclTestsEfficiencyAgainstFabric);
GPUCONFORM_CHECK_NAME(NcclTestsSmallMessageLatency);

// busbw at each of the profile's floors for table.nodes (when the table does not know its
// node count, the profile's only floor, if it has exactly one). Measurements: busbw at
// every size, with threshold and source at the judged ones.
// `transport`: what the NCCL log says about the inter-node network; null when there is no log.
CheckResult CheckBusbwAtFloors(const BandwidthTable& table, const Profile& profile,
                               const nccl_log::InterNodeTransport* transport = nullptr);

// Every row's result was verified and had no wrong elements (nccl-tests #wrong, -c 1).
// Efficiency against the declared fabric (the profile's fabric section): busbw at the sweep's largest
// size over one node's fabric bandwidth (the ring bound: each node moves 2(N-1)/N x bytes).
// Recorded always; judged against allreduce_efficiency_floor_fraction when the profile sets one.
// A table that does not say how many nodes took part is an error: the bound depends on it.
CheckResult CheckEfficiencyAgainstFabric(const BandwidthTable& table, const Profile& profile,
                                         const nccl_log::InterNodeTransport* transport = nullptr);

CheckResult CheckResultsCorrect(const BandwidthTable& table);

// "16 GiB", "64 MiB", "8 B"; sizes that are not a whole number of a binary unit in bytes.
std::string HumanSize(long long size_bytes);

}  // namespace gpuconform::allreduce
