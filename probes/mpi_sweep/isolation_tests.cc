#include "probes/mpi_sweep/isolation_tests.h"

#include <algorithm>
#include <cstdlib>

namespace gpuconform::mpi_sweep {

using allreduce_sweep::AllreduceFloor;
using isolation::Outcome;
using isolation::TestResult;

std::optional<AllreduceFloor> IsolationScale::FloorFor(int nodes) const {
  std::optional<AllreduceFloor> best;
  for (const AllreduceFloor& floor : floors) {
    if (!best) {
      best = floor;
      continue;
    }
    const int distance = std::abs(floor.nodes - nodes);
    const int best_distance = std::abs(best->nodes - nodes);
    if (distance < best_distance || (distance == best_distance && floor.nodes < best->nodes)) best = floor;
  }
  return best;
}

IsolationScale IsolationScaleFor(const std::vector<AllreduceFloor>& floors, int screen_nodes,
                                 long long fallback_bytes) {
  IsolationScale scale;
  scale.size_bytes = fallback_bytes;
  // The screen's floor: the largest size floored for the allocation's node count, else for the
  // nearest count; every test then runs at that size.
  std::optional<AllreduceFloor> screen;
  for (const AllreduceFloor& floor : floors) {
    if (floor.nodes < 2) continue;  // intra-node floors say nothing of a test between nodes
    const bool nearer = !screen || std::abs(floor.nodes - screen_nodes) < std::abs(screen->nodes - screen_nodes);
    const bool same_count_larger = screen && floor.nodes == screen->nodes && floor.size_bytes > screen->size_bytes;
    if (nearer || same_count_larger) screen = floor;
  }
  if (!screen) return scale;
  scale.size_bytes = screen->size_bytes;
  for (const AllreduceFloor& floor : floors) {
    if (floor.nodes >= 2 && floor.size_bytes == screen->size_bytes) scale.floors.push_back(floor);
  }
  return scale;
}

isolation::IsolationMeasure MeasureOf(const IsolationScale& scale, int screen_nodes) {
  isolation::IsolationMeasure measure{"MPI_Allreduce", scale.size_bytes, 0, ""};
  if (const auto floor = scale.FloorFor(screen_nodes)) {
    measure.floor_gb_per_s = floor->busbw_floor_gb_per_s;
    measure.floor_source = floor->source;
  }
  return measure;
}

TestResult JudgeIsolationTest(bool step_succeeded, const std::optional<nccl_tests::BandwidthTable>& table,
                              const IsolationScale& scale, int nodes) {
  if (!step_succeeded) return {Outcome::kFail, 0, std::nullopt, std::nullopt, "its step did not succeed"};
  if (!table) return {Outcome::kFail, 0, std::nullopt, std::nullopt, "its step printed no table"};
  const auto row = std::find_if(table->rows.begin(), table->rows.end(),
                                [&](const nccl_tests::BandwidthRow& r) { return r.size_bytes == scale.size_bytes; });
  if (row == table->rows.end()) {
    return {Outcome::kFail, 0, std::nullopt, std::nullopt,
            "its table has no row for " + std::to_string(scale.size_bytes) + " bytes"};
  }
  TestResult result{Outcome::kPass, row->busbw_gb_per_s, std::nullopt, std::nullopt};
  if (!row->correct || row->wrong_elements > 0) {
    result.outcome = Outcome::kFail;
    result.why = std::to_string(row->wrong_elements) + " wrong elements";
  } else if (const auto floor = scale.FloorFor(nodes); floor && row->busbw_gb_per_s < floor->busbw_floor_gb_per_s) {
    result.outcome = Outcome::kSlow;
  }
  return result;
}

}  // namespace gpuconform::mpi_sweep
