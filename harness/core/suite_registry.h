// The suite registry and check catalogue: every suite registers one SuiteDefinition at
// static-init time, and every check is declared once in it (name, one-line assertion, per
// node or cluster, and the function that judges it). `gpuconform list`, the report's test
// names and the evaluation all read these declarations.
// Contract: judging is pure — raw outputs (through the facts layer) + profile in,
// CheckResults out; no I/O, no MPI, no gtest. A check states only its judgement: the harness
// skips it where it does not apply, turns a failed read into its error (ReadThenJudge), and
// names each case from the definition. Adding a check is its function, its entry in the
// suite's `checks` (and in the reason catalogue, for a new code), and its test. Adding a suite is a folder under suites/ with a
// SuiteRegistration in it and one line in suites/CMakeLists.txt.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/counter_history.h"
#include "harness/core/probe.h"
#include "harness/core/profile.h"
#include "harness/core/rank_info.h"
#include "harness/core/run_options.h"
#include "harness/core/verdict.h"

namespace gpuconform {

struct SuiteContext {
  const ClusterRaw& raw;
  const Profile& profile;
  const std::vector<RankInfo>& ranks;  // per-rank launch facts; a snapshot's when it kept them, else empty
  bool live = false;
  // Why the ranks could not form one world (MPI_Init timed out); empty when they did.
  std::string world_problem;
  const RunOptions& options = DefaultRunOptions();  // the run's settings (suites that build probe specs from them)
  // Each node's link error counters in its previous run in the history (run --history), for
  // the counter checks' rates; empty without a history.
  const CounterHistory& counter_history = NoCounterHistory();
};

// Judges one check: for one node (a per-node check) or for the cluster (node ""). It returns
// a judgement (verdict.h); the harness stamps it with the suite, the check and the node.
using CheckJudge = std::function<CheckResult(const SuiteContext&, const std::string& node)>;
// Why the check does not apply to this run (the profile states nothing it could judge): the
// check is then skipped with that reason before any of its facts is read. nullopt: it applies.
using CheckApplicability =
    std::function<std::optional<std::string>(const SuiteContext&, const std::string& node)>;

// A cluster check that compares one small reading of every node (the Software suite's versions
// and firmware). The harness hands it each node in the node-by-node pass, while that node's
// outputs are loaded and its facts parsed for the per-node checks anyway, and asks for the
// judgement once every node is read. So the comparison parses no node's outputs a second time,
// and never holds the fleet's parsed facts at once (10,000 nodes' GPU inventories alone are
// hundreds of MB). One instance serves one run.
class NodeComparison {
 public:
  virtual ~NodeComparison() = default;
  virtual void Read(const SuiteContext& context, const std::string& node) = 0;  // each node once, in order
  virtual CheckResult Judge(const SuiteContext& context) = 0;                    // once, after every Read
};
using NodeComparisonFactory = std::function<std::unique_ptr<NodeComparison>()>;

// The usual comparison: `read(context, node)` gives a node's Reading, and `judge(readings,
// context)` judges all of them, keyed by node. A fleet's nodes mostly read alike, so each node
// keeps an index into the distinct readings seen (the few most recent are compared; a fleet
// whose every node differs keeps every reading), and the map is built only to be judged.
template <typename Reading, typename ReadFn, typename JudgeFn>
class ReadingsComparison : public NodeComparison {
 public:
  ReadingsComparison(ReadFn read, JudgeFn judge) : read_(std::move(read)), judge_(std::move(judge)) {}
  void Read(const SuiteContext& context, const std::string& node) override {
    nodes_.emplace_back(node, IndexOf(read_(context, node)));
  }
  CheckResult Judge(const SuiteContext& context) override {
    std::map<std::string, Reading> readings;
    for (const auto& [node, index] : nodes_) readings.emplace_hint(readings.end(), node, distinct_[index]);
    return judge_(readings, context);
  }

 private:
  static constexpr std::size_t kRecentCompared = 8;

  std::size_t IndexOf(Reading reading) {
    for (std::size_t r = 0; r < recent_.size(); ++r) {
      const std::size_t index = recent_[r];
      if (distinct_[index] == reading) {
        std::rotate(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(r),
                    recent_.begin() + static_cast<std::ptrdiff_t>(r) + 1);  // to the front
        return index;
      }
    }
    distinct_.push_back(std::move(reading));
    if (recent_.size() == kRecentCompared) recent_.pop_back();
    recent_.insert(recent_.begin(), distinct_.size() - 1);
    return distinct_.size() - 1;
  }

  ReadFn read_;
  JudgeFn judge_;
  std::vector<std::pair<std::string, std::size_t>> nodes_;  // in the order read: sorted
  std::vector<Reading> distinct_;
  std::vector<std::size_t> recent_;  // indices into distinct_, the most recently matched first
};

template <typename Reading, typename ReadFn, typename JudgeFn>
NodeComparisonFactory CompareNodes(ReadFn read, JudgeFn judge) {
  return [read, judge] { return std::make_unique<ReadingsComparison<Reading, ReadFn, JudgeFn>>(read, judge); };
}

struct CheckDefinition {
  std::string name;         // "KeyIdenticalOnAllNodes"
  std::string requirement;  // one line: what conformance means
  bool per_node = false;    // one test case per node
  // How it is judged: `judge`, or, for a cluster check that compares every node's reading,
  // `compare_nodes`.
  CheckJudge judge = {};
  CheckApplicability not_applicable = {};  // empty: the check always applies
  NodeComparisonFactory compare_nodes = {};  // a cluster check judged from every node's reading
};

// A judge that reads its facts first. A read that fails is the check's error, code
// "unavailable" (fault class tooling) quoting the read's message, so the check itself sees only
// facts that were read: `judge(facts, context, node)`.
template <typename Read, typename Judge>
CheckJudge ReadThenJudge(Read read, Judge judge) {
  return [read, judge](const SuiteContext& context, const std::string& node) -> CheckResult {
    // Bound, not copied: a reader hands out the run's cached fact.
    const auto& facts = read(context, node);
    if (!facts) return Errored("unavailable", facts.error());
    return judge(*facts, context, node);
  };
}

// The nodes a suite's per-node checks judge where they are not the run's: the Slurm suites
// judge every node the controller lists, so a node that is down or drained (and runs no task)
// is still named. Where the list cannot be read, `unavailable` says why, and every check of
// the suite is that judgement (one case each, for the cluster).
struct JudgedNodes {
  std::vector<std::string> nodes;
  std::optional<CheckResult> unavailable;
  // A per-node check whose nodes this run cannot know is judged once, for the cluster: its one
  // case names no node (Suite.Check, not Suite.Check/<node>), where one skip per node would fill
  // a fleet's report.
  static JudgedNodes ForTheCluster() { return {{""}, std::nullopt}; }
};
using NodePolicy = std::function<JudgedNodes(const SuiteContext&)>;

struct SuiteDefinition {
  std::string name;     // JUnit <testsuite name>, e.g. "Software"
  std::string summary;  // one line for `gpuconform list`
  std::vector<CheckDefinition> checks;
  std::vector<ProbeSpec> probes = {};
  // Empty: the per-node checks judge the run's nodes, node by node. Set: they judge the nodes
  // it gives, before the node-by-node pass.
  NodePolicy judged_nodes = {};
  // The suite's cluster checks all read every node's facts (Checkpoint's reports, the MPI
  // sweeps): those are kept until its last cluster check has judged, rather than dropped after
  // each check and parsed again.
  bool cluster_checks_share_node_facts = false;
};

// The probes the suites read, each once (by id), in the suites' order.
std::vector<ProbeSpec> ProbesOf(const std::vector<const SuiteDefinition*>& suites);

class SuiteRegistry {
 public:
  static SuiteRegistry& Instance();
  void Add(SuiteDefinition suite);
  // Suites in a stable order (by name), so reports and terminal output do not depend on
  // link order.
  std::vector<const SuiteDefinition*> Suites() const;
  // Every probe of every suite, once each (by id).
  std::vector<ProbeSpec> AllProbes() const;

 private:
  std::vector<SuiteDefinition> suites_;
};

struct SuiteRegistration {
  explicit SuiteRegistration(SuiteDefinition suite) { SuiteRegistry::Instance().Add(std::move(suite)); }
};

// Judges every check of the suites, in phases: the suites' own node lists, cluster checks, the
// node-by-node pass (per-node checks, and every comparison's reading of the node), the
// comparisons, and the defects. Each case is stamped with its suite, check and node and put in
// declared order: suite, check, then node. A suite that throws does not crash the run: each of
// its checks becomes an error naming the exception, so the defect is visible in the report.
// The nodes' raw outputs are released as they are judged: evaluate a ClusterRaw once.
std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context);

}  // namespace gpuconform
