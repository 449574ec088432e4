// The MPI sweep's isolation: when the sweep over the allocation fails or falls below its floor,
// the isolation planner (probes/isolation/isolation_planner.h) finds the nodes, the pair or the
// boundary that cause it, with rounds of tests that run together as concurrent steps on
// disjoint nodes. Each test is the sweep worker (mpi_sweep_worker.h) on the test's nodes: every
// pair of them exchanges first (so any pair that cannot talk fails the test), then one
// MPI_Allreduce size is timed and checked; the test passes, fails (did not complete, or wrong
// elements) or is slow (below the floor for its node count, isolation_tests.h).
// Round 1 is the sweep itself where it covered every node as one test: a healthy cluster costs
// no step beyond the sweep. Seed groups come from Slurm's topology (`scontrol show topology`:
// topology/tree leaf switches or topology/block blocks), where the site configured one.
// The search ends within the profile's isolation.deadline_s (isolation_profile.h): a round that
// could not end before it is not started, and the record says why.
// Contract: rank 0 only; returns cluster/isolation.txt (isolation_record.h), which a replay
// re-judges to the same findings. Never throws; a step that dies is a failing test.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/probe.h"
#include "harness/world/gather.h"
#include "probes/isolation/isolation_planner.h"
#include "probes/mpi_sweep/isolation_tests.h"

namespace gpuconform::mpi_sweep {

struct MpiIsolationPlan {
  std::vector<std::string> nodes;  // the allocation, in rank order
  IsolationScale scale;
  // The sweep's own result as the screen, where it ran on every node; unset: a screen runs.
  std::optional<isolation::TestResult> screen;
  int node_cap = 0;  // 0: none
  std::chrono::seconds deadline{0};
  std::chrono::seconds test_timeout{15};  // each collective of a test
};

// One test's step deadline: MPI_Init, the host names, the every-pair exchange and the size, each
// under test_timeout, and the launcher's margin.
std::chrono::seconds IsolationStepDeadline(std::chrono::seconds test_timeout);

RawOutput RunMpiIsolation(const CollectiveContext& context, const MpiIsolationPlan& plan);

}  // namespace gpuconform::mpi_sweep
