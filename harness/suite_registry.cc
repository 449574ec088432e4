#include "harness/suite_registry.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <set>

namespace gpuconform {

SuiteRegistry& SuiteRegistry::Instance() {
  static SuiteRegistry registry;
  return registry;
}

void SuiteRegistry::Add(SuiteDefinition suite) { suites_.push_back(std::move(suite)); }

std::vector<const SuiteDefinition*> SuiteRegistry::Suites() const {
  std::vector<const SuiteDefinition*> sorted;
  for (const auto& suite : suites_) sorted.push_back(&suite);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return sorted;
}

std::vector<ProbeSpec> SuiteRegistry::AllProbes() const { return ProbesOf(Suites()); }

std::vector<ProbeSpec> ProbesOf(const std::vector<const SuiteDefinition*>& suites) {
  std::vector<ProbeSpec> probes;
  for (const auto* suite : suites) {
    for (const auto& probe : suite->probes) AddProbeOnce(probes, probe);
  }
  return probes;
}

namespace {

// One check's case for one node (or the cluster, node ""): skipped where the check does not
// apply, else the check's judgement; named from the check's definition either way.
CheckResult Named(const SuiteDefinition& suite, const CheckDefinition& check, const std::string& node,
                  CheckResult judgement) {
  CheckResult result = Stamped(std::move(judgement), suite.name, check.name, node);
  // Kept until the reports are written: the spare capacity a check's push_backs left would
  // be a fleet's results' largest waste.
  result.findings.shrink_to_fit();
  result.measurements.shrink_to_fit();
  return result;
}

std::optional<std::string> NotApplicable(const CheckDefinition& check, const SuiteContext& context,
                                         const std::string& node) {
  if (!check.not_applicable) return std::nullopt;
  return check.not_applicable(context, node);
}

CheckResult JudgeCheck(const SuiteDefinition& suite, const CheckDefinition& check, const SuiteContext& context,
                       const std::string& node) {
  if (auto why = NotApplicable(check, context, node)) return Named(suite, check, node, Skipped(*why));
  return Named(suite, check, node, check.judge(context, node));
}

// A comparison of every node's reading, judged on its own (a single suite's evaluation): each
// node read in turn, then the judgement.
CheckResult CompareEveryNode(const SuiteDefinition& suite, const CheckDefinition& check,
                             const SuiteContext& context) {
  if (auto why = NotApplicable(check, context, "")) return Named(suite, check, "", Skipped(*why));
  const std::unique_ptr<NodeComparison> comparison = check.compare_nodes();
  for (const auto& node : context.raw.nodes) comparison->Read(context, node);
  return Named(suite, check, "", comparison->Judge(context));
}

// An `evaluate`'s judgements belong to its suite, whatever the suite's glue named them.
std::vector<CheckResult> EvaluateTogether(const SuiteDefinition& suite, const SuiteContext& context) {
  std::vector<CheckResult> results = suite.evaluate(context);
  for (auto& result : results) result.suite = suite.name;
  return results;
}

}  // namespace

std::vector<CheckResult> EvaluateSuite(const SuiteDefinition& suite, const SuiteContext& context) {
  if (suite.evaluate) return EvaluateTogether(suite, context);
  std::vector<CheckResult> results;
  for (const auto& check : suite.checks) {
    if (!check.per_node) {
      results.push_back(check.compare_nodes ? CompareEveryNode(suite, check, context)
                                            : JudgeCheck(suite, check, context, ""));
      continue;
    }
    for (const auto& node : context.raw.nodes) results.push_back(JudgeCheck(suite, check, context, node));
  }
  return results;
}

namespace {

// One suite's share of the run: its results, its time, and what it threw, if it threw.
struct SuiteRun {
  const SuiteDefinition* suite = nullptr;
  std::vector<CheckResult> results;
  double elapsed_s = 0;
  std::string defect;  // the exception's text; the suite's checks then become internal errors
};

// Runs part of a suite's work, adding to its time. A suite that throws does not crash the run;
// the rest of its work is skipped and its checks report the defect.
template <typename Work>
void RunPart(SuiteRun& run, Work work) {
  if (!run.defect.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  try {
    work();
  } catch (const std::exception& e) {
    run.defect = e.what();
  }
  run.elapsed_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The internal errors that stand for every check of a suite that threw.
std::vector<CheckResult> DefectCases(const SuiteRun& run) {
  const SuiteDefinition& suite = *run.suite;
  std::vector<CheckResult> cases;
  for (const auto& check : suite.checks) {
    cases.push_back(Errored(suite.name, check.name, "", "internal-error",
                            "gpuconform defect: suite " + suite.name + " threw: " + run.defect +
                                " (please report it with the snapshot)"));
  }
  return cases;
}

// Each result gets an equal share of its suite's time where its judgement measured none.
void ShareTime(std::vector<CheckResult>::iterator begin, std::vector<CheckResult>::iterator end, double elapsed_s) {
  const auto count = static_cast<std::size_t>(end - begin);
  for (auto it = begin; it != end; ++it) {
    if (it->time_s == 0.0) it->time_s = elapsed_s / count;
  }
}

// An `evaluate`'s results in the suite's declared check order, one check's cases together in
// the order judged (a name the suite does not declare last). A counting sort on each result's
// check, looked up once: a comparison sort would compare check names O(n log n) times.
std::vector<CheckResult> InCheckOrder(const SuiteDefinition& suite, std::vector<CheckResult> results) {
  const std::size_t unknown = suite.checks.size();
  std::vector<std::size_t> check_of(results.size(), unknown);
  std::vector<std::size_t> first(unknown + 2, 0);  // where each check's results start, once summed
  for (std::size_t i = 0; i < results.size(); ++i) {
    for (std::size_t c = 0; c < unknown; ++c) {
      if (suite.checks[c].name == results[i].check) {
        check_of[i] = c;
        break;
      }
    }
    ++first[check_of[i] + 2];
  }
  for (std::size_t c = 2; c < first.size(); ++c) first[c] += first[c - 1];
  std::vector<std::size_t> order(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) order[first[check_of[i] + 1]++] = i;
  std::vector<CheckResult> ordered;
  ordered.reserve(results.size());
  for (const std::size_t i : order) ordered.push_back(std::move(results[i]));
  return ordered;
}

// What was read of every node at once (an `evaluate`, a cluster check) is dropped; the
// node-by-node pass parses a node's outputs again where its checks need them.
void DropEveryNodesFacts(const SuiteContext& context) {
  for (const auto& node : context.raw.nodes) context.raw.facts.ClearNode(node);
}

// A cluster check comparing every node's reading, read node by node and judged after.
struct PendingComparison {
  std::size_t suite = 0;  // index in the run's suites
  std::size_t check = 0;  // index in the suite's checks
  std::size_t slot = 0;   // its case's place in the results
  std::unique_ptr<NodeComparison> comparison;
};

// Where a suite judged check by check puts its cases in the run's results: from `first`, each
// check's in declared order, one per node for a per-node check (in node order), one otherwise.
struct Slots {
  std::size_t first = 0;
  std::size_t count = 0;
  std::vector<std::size_t> check_first;  // offset of each check's cases from `first`
};

Slots SlotsOf(const SuiteDefinition& suite, std::size_t first, std::size_t nodes) {
  Slots slots{first, 0, {}};
  for (const auto& check : suite.checks) {
    slots.check_first.push_back(slots.count);
    slots.count += check.per_node ? nodes : 1;
  }
  return slots;
}

}  // namespace

std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context) {
  const std::vector<std::string>& nodes = context.raw.nodes;
  std::vector<SuiteRun> runs;
  for (const auto* suite : suites) runs.push_back({suite, {}, 0, ""});
  for (auto& run : runs) {
    if (!run.suite->evaluate) continue;
    RunPart(run, [&] { run.results = EvaluateTogether(*run.suite, context); });
    run.results = run.defect.empty() ? InCheckOrder(*run.suite, std::move(run.results)) : DefectCases(run);
    ShareTime(run.results.begin(), run.results.end(), run.elapsed_s);
  }
  // What an `evaluate` read of the nodes (Launch reads every node's addresses) is dropped, as
  // after a cluster check below, rather than held for the whole node-by-node pass.
  DropEveryNodesFacts(context);
  // Each case has its place in the run's results, in suite order, and a node's case is judged
  // into it: a fleet's 600,000 cases are never sorted, nor copied from one vector into another.
  std::vector<Slots> slots(runs.size());
  std::size_t total = 0;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    if (runs[s].suite->evaluate) {
      slots[s] = {total, runs[s].results.size(), {}};
    } else {
      slots[s] = SlotsOf(*runs[s].suite, total, nodes.size());
    }
    total += slots[s].count;
  }
  // Suites judged check by check: cluster checks once, then every per-node check of every such
  // suite node by node. A node's parsed facts are shared by all the suites that read them and
  // dropped once the node is judged, with the node's raw outputs (nothing reads them after
  // evaluation), so a fleet's evaluation holds one node's facts at a time and its raw text shrinks.
  // A cluster check that compares every node's reading (compare_nodes: the Software suite's
  // versions and firmware) reads each node in the node-by-node pass and is judged after it, so
  // the fleet's parsed facts are never held at once. Other cluster checks may read every node
  // at once; their cases wait beside `all`, which is made only after them.
  std::vector<std::pair<std::size_t, CheckResult>> cluster_cases;  // (slot, case)
  std::vector<PendingComparison> comparisons;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    if (runs[s].suite->evaluate) continue;
    const auto& checks = runs[s].suite->checks;
    for (std::size_t c = 0; c < checks.size(); ++c) {
      if (checks[c].per_node) continue;
      const std::size_t slot = slots[s].first + slots[s].check_first[c];
      if (checks[c].compare_nodes) {
        RunPart(runs[s], [&] {
          if (auto why = NotApplicable(checks[c], context, "")) {
            cluster_cases.emplace_back(slot, Named(*runs[s].suite, checks[c], "", Skipped(*why)));
          } else {
            comparisons.push_back({s, c, slot, checks[c].compare_nodes()});
          }
        });
        continue;
      }
      RunPart(runs[s], [&] {
        cluster_cases.emplace_back(slot, JudgeCheck(*runs[s].suite, checks[c], context, ""));
      });
      // What it read of every node is dropped before the next: kept, every cluster check's
      // reads would add up to the fleet's parsed facts at once (some 30 KB a node). The next
      // check, and the node-by-node pass, parse a node's outputs again where they need them.
      DropEveryNodesFacts(context);
    }
  }
  std::vector<CheckResult> all(total);
  for (auto& [slot, result] : cluster_cases) all[slot] = std::move(result);
  cluster_cases = {};
  for (std::size_t s = 0; s < runs.size(); ++s) {
    const auto at = all.begin() + static_cast<std::ptrdiff_t>(slots[s].first);
    if (runs[s].suite->evaluate) std::move(runs[s].results.begin(), runs[s].results.end(), at);
    runs[s].results = {};
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    for (std::size_t s = 0; s < runs.size(); ++s) {
      if (runs[s].suite->evaluate) continue;
      const auto& checks = runs[s].suite->checks;
      for (std::size_t c = 0; c < checks.size(); ++c) {
        if (!checks[c].per_node) continue;
        RunPart(runs[s], [&] {
          all[slots[s].first + slots[s].check_first[c] + n] = JudgeCheck(*runs[s].suite, checks[c], context, nodes[n]);
        });
      }
    }
    for (auto& pending : comparisons) {
      RunPart(runs[pending.suite], [&] { pending.comparison->Read(context, nodes[n]); });
    }
    context.raw.ReleaseNode(nodes[n]);
  }
  for (auto& pending : comparisons) {
    SuiteRun& run = runs[pending.suite];
    RunPart(run, [&] {
      all[pending.slot] =
          Named(*run.suite, run.suite->checks[pending.check], "", pending.comparison->Judge(context));
    });
    pending.comparison.reset();  // its readings
  }
  // A suite that threw: its internal errors in place of its cases (rare; the one copy is then fine).
  for (std::size_t s = runs.size(); s-- > 0;) {
    if (runs[s].suite->evaluate) continue;
    const auto begin = all.begin() + static_cast<std::ptrdiff_t>(slots[s].first);
    const auto end = begin + static_cast<std::ptrdiff_t>(slots[s].count);
    if (runs[s].defect.empty()) {
      ShareTime(begin, end, runs[s].elapsed_s);
      continue;
    }
    std::vector<CheckResult> errors = DefectCases(runs[s]);
    ShareTime(errors.begin(), errors.end(), runs[s].elapsed_s);
    const auto at = all.erase(begin, end);
    all.insert(at, std::make_move_iterator(errors.begin()), std::make_move_iterator(errors.end()));
  }
  return all;
}

}  // namespace gpuconform
