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

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/counter_history.h"
#include "harness/gather.h"
#include "harness/probe.h"
#include "harness/profile.h"
#include "harness/verdict.h"

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

struct CheckDefinition {
  std::string name;         // "KeyIdenticalOnAllNodes"
  std::string requirement;  // one line: what conformance means
  bool per_node = false;    // one test case per node
  CheckJudge judge = {};    // empty only in a suite whose `evaluate` judges its checks together
  CheckApplicability not_applicable = {};  // empty: the check always applies
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

// The judgement of one check of an `evaluate` (which judges several checks together), named by
// its check and node; the harness adds the suite.
inline CheckResult Judged(const std::string& check, const std::string& node, CheckResult judgement) {
  return Stamped(std::move(judgement), "", check, node);
}

struct SuiteDefinition {
  std::string name;     // JUnit <testsuite name>, e.g. "Software"
  std::string summary;  // one line for `gpuconform list`
  std::vector<CheckDefinition> checks;
  std::vector<ProbeSpec> probes = {};
  // Set only where the checks come out of one judgement and cannot be judged one by one: one
  // collective output or one log gives all their verdicts (AllreduceBandwidth's sweeps,
  // Checkpoint's torture, NcclTransport's log, Launch's world), or the controller's nodes rather
  // than the run's are judged (SlurmGres, SlurmNodes). It names each judgement with Judged();
  // the harness adds the suite. Otherwise each check's `judge` is called, for every node of the
  // run where the check is per node, and the harness names each case.
  std::function<std::vector<CheckResult>(const SuiteContext&)> evaluate = {};
};

// The probes the suites read, each once (by id), in the suites' order.
std::vector<ProbeSpec> ProbesOf(const std::vector<const SuiteDefinition*>& suites);

// The results of one suite: its `evaluate`, or each check's judge (per node, node by node),
// each stamped with the suite's name, and with its check and node where the judge judged it.
std::vector<CheckResult> EvaluateSuite(const SuiteDefinition& suite, const SuiteContext& context);

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

// Runs every suite's evaluate. A suite that throws does not crash the run: each of its
// checks becomes an error naming the exception, so the defect is visible in the report.
std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context);

}  // namespace gpuconform
