// How the MPI sweep's isolation (mpi_isolation.h) measures and judges one test: the message
// size every test runs at, the busbw floor a test of n nodes must reach, and a test's outcome
// from its step. Pure.
// The size and floors: the profile's allreduce floor for the sweep's node count (the floor the
// screen is judged by), at its size; a test of n nodes is judged by the floor at that size whose
// node count is nearest n (ties: the smaller count), because busbw (nccl-tests' 2(n-1)/n factor)
// is meant to be independent of the node count. On a profile that expects GPUs the floors are
// NCCL's, so the MPI host path has none: a test fails only when it does not complete.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probes/allreduce_sweep/allreduce_profile.h"
#include "probes/isolation/isolation_planner.h"
#include "probes/isolation/isolation_record.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::mpi_sweep {

struct IsolationScale {
  long long size_bytes = 0;
  std::vector<allreduce_sweep::AllreduceFloor> floors;  // all at size_bytes; empty: no floor
  std::optional<allreduce_sweep::AllreduceFloor> FloorFor(int nodes) const;
};

// `floors`: the profile's allreduce floors (none where it expects GPUs); `screen_nodes`: the
// allocation's node count; `fallback_bytes`: the size without a floor for any count.
IsolationScale IsolationScaleFor(const std::vector<allreduce_sweep::AllreduceFloor>& floors, int screen_nodes,
                                 long long fallback_bytes);

// What a record's `measure` line says of `scale` for a screen of `screen_nodes` nodes.
isolation::IsolationMeasure MeasureOf(const IsolationScale& scale, int screen_nodes);

// A test's outcome: a step that did not complete, or a table without the scale's size, fails;
// wrong elements fail; busbw below the floor for the test's node count is slow.
isolation::TestResult JudgeIsolationTest(bool step_succeeded, const std::optional<nccl_tests::BandwidthTable>& table,
                                         const IsolationScale& scale, int nodes);

}  // namespace gpuconform::mpi_sweep
