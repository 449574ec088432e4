// The isolation planner against an oracle: for each allocation size and fault model, many random
// trials of the whole search, with the planner's rounds answered from the fault model. Prints a
// markdown table: tests, rounds and simulated wall time (mean and max), healthy nodes named,
// faults missed, and whether the pair and boundary models were named as such; then the targets
// of issue #42 with the measured figures beside them. Run it with bench/isolation-sim.
//
// Usage: isolation_sim [TRIALS] [TRIALS_AT_10000]   (defaults 1000 and 1000)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "probes/isolation/isolation_planner.h"

namespace {

using gpuconform::isolation::Finding;
using gpuconform::isolation::FindingKind;
using gpuconform::isolation::Outcome;
using gpuconform::isolation::Planner;
using gpuconform::isolation::PlannerInput;
using gpuconform::isolation::Round;
using gpuconform::isolation::SeedGroup;
using gpuconform::isolation::TestResult;

// The cost model: a round lasts as long as its slowest test, and a test costs a fixed launch
// (srun step, MPI and NCCL init, warm-up) plus a measurement, plus communicator setup and ring
// latency that grow with its nodes.
constexpr double kLaunchSeconds = 30;
constexpr double kMeasureSeconds = 20;
constexpr double kSecondsPerNode = 0.05;
constexpr double kFloorBusbw = 40;  // GB/s the oracle reports for a healthy test; slow is 0.6x

enum class Model { kBadNodes, kPair, kBoundary, kSlow, kFlaky };

struct Cell {
  Model model;
  int bad = 0;  // kBadNodes: d
  const char* name;
};

struct Fault {
  std::set<int> bad;        // bad nodes (kBadNodes), or the slow node, or the flaky node
  int pair_a = -1, pair_b = -1;
  int block_a = -1, block_b = -1;
};

std::string NodeName(int index) {
  char name[16];
  std::snprintf(name, sizeof name, "n%05d", index);
  return name;
}

int NodeIndex(const std::string& name) { return std::atoi(name.c_str() + 1); }

int BlockSize(int nodes) { return nodes <= 8 ? 4 : 16; }

struct Trial {
  int tests = 0;
  int rounds = 0;
  double wall_s = 0;
  int misnamed = 0;      // healthy nodes named (node, slow-node, pair)
  int false_kinds = 0;   // a pair or boundary finding where the model has none, or a wrong one
  int missed = 0;        // faults not named
  bool named_as_such = false;  // pair/boundary model: named as a pair/boundary with the right members
  bool named_as_nodes = false; // pair/boundary model: some node of it named as a node
  bool inconclusive = false;
  int overlaps = 0;  // a node in two tests of one round, or a test of fewer than two nodes
};

Trial RunTrial(int n, const Cell& cell, std::mt19937_64& rng, int first_split_groups) {
  Fault fault;
  std::uniform_int_distribution<int> any(0, n - 1);
  const int block = BlockSize(n);
  const int blocks = (n + block - 1) / block;
  switch (cell.model) {
    case Model::kBadNodes:
      while (static_cast<int>(fault.bad.size()) < cell.bad) fault.bad.insert(any(rng));
      break;
    case Model::kSlow:
    case Model::kFlaky:
      fault.bad.insert(any(rng));
      break;
    case Model::kPair:
      fault.pair_a = any(rng);
      do fault.pair_b = any(rng); while (fault.pair_b == fault.pair_a);
      break;
    case Model::kBoundary: {
      std::uniform_int_distribution<int> any_block(0, blocks - 1);
      fault.block_a = any_block(rng);
      do fault.block_b = any_block(rng); while (fault.block_b == fault.block_a);
      break;
    }
  }
  PlannerInput input;
  for (int i = 0; i < n; ++i) input.nodes.push_back(NodeName(i));
  input.first_split_groups = first_split_groups;
  if (cell.model == Model::kBoundary) {
    for (int b = 0; b < blocks; ++b) {
      SeedGroup group{"block" + std::to_string(b), {}, "spine"};
      for (int i = b * block; i < std::min(n, (b + 1) * block); ++i) group.nodes.push_back(NodeName(i));
      input.seed_groups.push_back(std::move(group));
    }
  }
  Planner planner(input);
  std::bernoulli_distribution coin(0.5);
  Trial trial;
  std::vector<int> last_round_of(n, 0);
  while (true) {
    const Round round = planner.NextRound();
    if (round.tests.empty()) break;
    for (const auto& test : round.tests) {
      trial.overlaps += test.nodes.size() < 2 ? 1 : 0;
      for (const std::string& name : test.nodes) {
        int& seen = last_round_of[NodeIndex(name)];
        trial.overlaps += seen == round.number ? 1 : 0;
        seen = round.number;
      }
    }
    std::size_t largest = 0;
    std::vector<TestResult> results;
    for (const auto& test : round.tests) {
      largest = std::max(largest, test.nodes.size());
      bool has_a = false, has_b = false, has_pair_a = false, has_pair_b = false, has_bad = false;
      for (const std::string& name : test.nodes) {
        const int node = NodeIndex(name);
        has_bad = has_bad || fault.bad.count(node) > 0;
        has_pair_a = has_pair_a || node == fault.pair_a;
        has_pair_b = has_pair_b || node == fault.pair_b;
        has_a = has_a || node / block == fault.block_a;
        has_b = has_b || node / block == fault.block_b;
      }
      Outcome outcome = Outcome::kPass;
      if ((has_pair_a && has_pair_b) || (has_a && has_b)) outcome = Outcome::kFail;
      if (has_bad && cell.model == Model::kBadNodes) outcome = Outcome::kFail;
      if (has_bad && cell.model == Model::kSlow) outcome = Outcome::kSlow;
      if (has_bad && cell.model == Model::kFlaky && coin(rng)) outcome = Outcome::kFail;
      const double busbw = outcome == Outcome::kPass ? kFloorBusbw : outcome == Outcome::kSlow ? 0.6 * kFloorBusbw : 0;
      results.push_back({outcome, busbw, std::nullopt, std::nullopt});
    }
    trial.wall_s += kLaunchSeconds + kMeasureSeconds + kSecondsPerNode * static_cast<double>(largest);
    planner.Record(results);
  }
  trial.tests = planner.TestsRun();
  trial.rounds = planner.RoundsRun();
  std::set<int> named_nodes;
  bool pair_found = false, boundary_found = false;
  for (const Finding& finding : planner.Findings()) {
    switch (finding.kind) {
      case FindingKind::kInconclusive:
        trial.inconclusive = true;
        break;
      case FindingKind::kNode:
      case FindingKind::kSlowNode:
        for (const auto& name : finding.nodes) {
          const int node = NodeIndex(name);
          const bool right = fault.bad.count(node) > 0 &&
                             (cell.model != Model::kSlow || finding.kind == FindingKind::kSlowNode);
          if (!right) ++trial.misnamed;
          named_nodes.insert(node);
          if (node == fault.pair_a || node == fault.pair_b) trial.named_as_nodes = true;
        }
        break;
      case FindingKind::kPair: {
        const int a = NodeIndex(finding.nodes[0]);
        const int b = NodeIndex(finding.nodes[1]);
        const bool right = std::min(a, b) == std::min(fault.pair_a, fault.pair_b) &&
                           std::max(a, b) == std::max(fault.pair_a, fault.pair_b);
        if (right) {
          pair_found = true;
        } else {
          ++trial.false_kinds;
          for (const int node : {a, b}) trial.misnamed += fault.bad.count(node) == 0 ? 1 : 0;
        }
        break;
      }
      case FindingKind::kBoundary: {
        std::set<std::string> groups(finding.groups.begin(), finding.groups.end());
        const std::set<std::string> want = {"block" + std::to_string(fault.block_a),
                                            "block" + std::to_string(fault.block_b)};
        if (cell.model == Model::kBoundary && groups == want) {
          boundary_found = true;
        } else {
          ++trial.false_kinds;
        }
        break;
      }
    }
  }
  switch (cell.model) {
    case Model::kBadNodes:
    case Model::kSlow:
    case Model::kFlaky:
      for (const int node : fault.bad) trial.missed += named_nodes.count(node) == 0 ? 1 : 0;
      break;
    case Model::kPair:
      trial.named_as_such = pair_found;
      trial.missed = pair_found ? 0 : 1;
      break;
    case Model::kBoundary:
      trial.named_as_such = boundary_found;
      trial.missed = boundary_found ? 0 : 1;
      trial.named_as_nodes = !named_nodes.empty();
      break;
  }
  return trial;
}

struct Summary {
  int trials = 0;
  double tests_sum = 0, rounds_sum = 0, wall_sum = 0;
  int tests_max = 0, rounds_max = 0;
  double wall_max = 0;
  int misnamed = 0, false_kinds = 0, missed = 0, as_such = 0, as_nodes = 0, inconclusive = 0, overlaps = 0;

  void Add(const Trial& t) {
    ++trials;
    tests_sum += t.tests;
    rounds_sum += t.rounds;
    wall_sum += t.wall_s;
    tests_max = std::max(tests_max, t.tests);
    rounds_max = std::max(rounds_max, t.rounds);
    wall_max = std::max(wall_max, t.wall_s);
    misnamed += t.misnamed;
    false_kinds += t.false_kinds;
    missed += t.missed;
    as_such += t.named_as_such ? 1 : 0;
    as_nodes += t.named_as_nodes ? 1 : 0;
    inconclusive += t.inconclusive ? 1 : 0;
    overlaps += t.overlaps;
  }
  double TestsMean() const { return tests_sum / trials; }
  double RoundsMean() const { return rounds_sum / trials; }
};

Summary RunCell(int n, const Cell& cell, int trials, int first_split_groups) {
  Summary summary;
  for (int t = 0; t < trials; ++t) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 1000003u + static_cast<std::uint64_t>(cell.model) * 7919u +
                        static_cast<std::uint64_t>(cell.bad) * 104729u + static_cast<std::uint64_t>(t));
    summary.Add(RunTrial(n, cell, rng, first_split_groups));
  }
  return summary;
}

// Issue #42's figures for 232 nodes: d=0 28 tests, 3 rounds, about 12 min; d=1..5 22..57 tests
// (read as a line from 22 at d=1 to 57 at d=5), 7 rounds, about 28 min.
double PublishedTests(int d) { return d == 0 ? 28 : 22 + (57.0 - 22) * (d - 1) / 4; }
int PublishedRounds(int d) { return d == 0 ? 3 : 7; }
int PublishedMinutes(int d) { return d == 0 ? 12 : 28; }

std::string Published(int n, const Cell& cell) {
  if (n != 232 || cell.model != Model::kBadNodes) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.0f / %d / ~%d min", PublishedTests(cell.bad), PublishedRounds(cell.bad),
                PublishedMinutes(cell.bad));
  return text;
}

std::string NamedAs(const Cell& cell, const Summary& s) {
  if (cell.model != Model::kPair && cell.model != Model::kBoundary) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%d/%d (as nodes %d)", s.as_such, s.trials, s.as_nodes);
  return text;
}

void PrintHeader() {
  std::printf("| N | faults | trials | tests mean | tests max | rounds mean | rounds max | wall mean min | wall max "
              "min | healthy named | false pair/boundary | missed | inconclusive | named as such | published "
              "tests / rounds / wall |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

void PrintRow(int n, const Cell& cell, const Summary& s, const char* note = "") {
  std::printf("| %d | %s%s | %d | %.1f | %d | %.2f | %d | %.1f | %.1f | %d | %d | %d | %d | %s | %s |\n", n, cell.name,
              note, s.trials, s.TestsMean(), s.tests_max, s.RoundsMean(), s.rounds_max, s.wall_sum / s.trials / 60,
              s.wall_max / 60, s.misnamed, s.false_kinds, s.missed, s.inconclusive, NamedAs(cell, s).c_str(),
              Published(n, cell).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int trials_at_10000 = argc > 2 ? std::atoi(argv[2]) : trials;
  const std::vector<int> sizes = {8, 64, 232, 1000, 10000};
  const std::vector<Cell> cells = {
      {Model::kBadNodes, 0, "d=0"}, {Model::kBadNodes, 1, "d=1"}, {Model::kBadNodes, 2, "d=2"},
      {Model::kBadNodes, 3, "d=3"}, {Model::kBadNodes, 4, "d=4"}, {Model::kBadNodes, 5, "d=5"},
      {Model::kPair, 0, "pair"},    {Model::kBoundary, 0, "boundary"}, {Model::kSlow, 0, "slow 0.6x"},
      {Model::kFlaky, 0, "flaky 50%"},
  };
  std::printf("Cost model: a round lasts its slowest test; a test costs %.0f s launch + %.0f s measurement + "
              "%.2f s per node. Boundary model: seed groups are blocks of %d nodes (4 at N=8), boundary between "
              "two random blocks; other models have no seed groups. Trials per cell: %d (%d at N=10000).\n\n",
              kLaunchSeconds, kMeasureSeconds, kSecondsPerNode, BlockSize(64), trials, trials_at_10000);
  PrintHeader();
  bool at_232_met = true;
  bool at_10000_met = true;
  int misnamed = 0, false_kinds = 0, overlaps = 0;
  bool as_such = true;
  for (const int n : sizes) {
    const int cell_trials = n == 10000 ? trials_at_10000 : trials;
    for (const Cell& cell : cells) {
      const Summary s = RunCell(n, cell, cell_trials, 0);
      PrintRow(n, cell, s);
      std::fflush(stdout);
      misnamed += s.misnamed;
      overlaps += s.overlaps;
      false_kinds += s.false_kinds;
      if ((cell.model == Model::kPair || cell.model == Model::kBoundary) && (s.as_such != s.trials || s.as_nodes > 0)) {
        as_such = false;
      }
      if (cell.model != Model::kBadNodes) continue;
      if (n == 232) {
        const bool met = s.TestsMean() <= PublishedTests(cell.bad) && s.rounds_max <= PublishedRounds(cell.bad);
        at_232_met = at_232_met && met;
      }
      if (n == 10000) {
        at_10000_met = at_10000_met && s.rounds_max <= 2 * std::log2(10000.0) + 4;
      }
    }
  }
  std::printf("\nThe issue's default first split, ceil(sqrt(N)) groups, at N=232 (same trials):\n\n");
  PrintHeader();
  for (const Cell& cell : cells) {
    if (cell.model != Model::kBadNodes) continue;
    PrintRow(232, cell, RunCell(232, cell, trials, static_cast<int>(std::ceil(std::sqrt(232.0)))), " sqrt(N) groups");
  }
  std::printf("\nTargets:\n");
  std::printf("- N=232, d=0..5: mean tests <= published (28; 22..57), max rounds <= published (3; 7): %s\n",
              at_232_met ? "met" : "NOT met");
  std::printf("- N=10000, d<=5: max rounds <= 2*log2(N)+4 = %.1f: %s\n", 2 * std::log2(10000.0) + 4,
              at_10000_met ? "met" : "NOT met");
  std::printf("- healthy nodes named over all trials: %d; false pair/boundary findings: %d: %s\n", misnamed,
              false_kinds, misnamed == 0 && false_kinds == 0 ? "met" : "NOT met");
  std::printf("- pair and boundary models named as such in every trial, never as nodes: %s\n",
              as_such ? "met" : "NOT met");
  std::printf("- every round's tests disjoint and of two nodes or more, over all trials: %s (%d exceptions)\n",
              overlaps == 0 ? "met" : "NOT met", overlaps);
  return 0;
}
