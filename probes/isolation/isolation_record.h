// cluster/isolation.txt: the isolation planner's input and every round it ran, as record lines
// (harness/util/record_lines.h), so a replay re-judges the same findings:
//   plan round_budget=20 split_rounds=7 node_cap=0 first_split_groups=0 nodes=node1,node2,...
//   group name=sw1 parent=spine1 nodes=node1,node2,...
//   known_good nodes=node9,...
//   test round=1 test=0 purpose=screen size=8 nodes=node[1-8] busbw_gb_per_s=41.200 outcome=pass
//        [intra_node=pass inter_node=fail] [why="its step ended with exit status 3; ..."]
//   measure collective=MPI_Allreduce size_bytes=8388608 floor_gb_per_s=0.050 floor_source="..."
//   stopped why="the isolation's deadline (600 s) would pass before another round ended"
// `measure` says what each test measured and the floor a slow test fell below (for messages; a
// replay does not need it); `stopped` says why the search ended before the planner was done.
// The plan's and groups' nodes are comma lists (their order steers the splits); a test's nodes
// are a Slurm hostlist. Contract: FormatPlan + FormatRound write what ParseIsolationRecords
// reads back (errors name origin:line); Replay drives a planner with the recorded results and
// fails when a recorded round is not the round the planner plans.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/isolation/isolation_planner.h"

namespace gpuconform::isolation {

struct RecordedTest {
  int round = 0;
  int test = 0;
  Test planned;
  TestResult result;
};

// What every test measured: the collective, its message size and the busbw floor (0: none, so
// only a test that did not complete fails).
struct IsolationMeasure {
  std::string collective;
  long long size_bytes = 0;
  double floor_gb_per_s = 0;
  std::string floor_source;
};

struct IsolationRecord {
  PlannerInput input;
  IsolationMeasure measure;
  std::vector<RecordedTest> tests;  // in file order
  std::string stopped_why;          // empty: the search ran until the planner was done
};

std::string FormatPlan(const PlannerInput& input);
std::string FormatMeasure(const IsolationMeasure& measure);
std::string FormatStopped(const std::string& why);
// One line per test of `round`; `results` in the round's order.
std::string FormatRound(const Round& round, const std::vector<TestResult>& results);

Result<IsolationRecord> ParseIsolationRecords(const std::string& text, const std::string& origin);

// The findings a planner reaches from the recorded results. A record that stops early (a
// deadline) gives the findings so far, inconclusive for what was still open.
Result<std::vector<Finding>> Replay(const IsolationRecord& record, const std::string& origin);

}  // namespace gpuconform::isolation
