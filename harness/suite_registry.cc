#include "harness/suite_registry.h"

#include <algorithm>
#include <chrono>
#include <exception>
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
CheckResult JudgeCheck(const SuiteDefinition& suite, const CheckDefinition& check, const SuiteContext& context,
                       const std::string& node) {
  if (check.not_applicable) {
    if (auto why = check.not_applicable(context, node)) return Stamped(Skipped(*why), suite.name, check.name, node);
  }
  return Stamped(check.judge(context, node), suite.name, check.name, node);
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
      results.push_back(JudgeCheck(suite, check, context, ""));
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

// The suite's results in its declared check order, one check's nodes together, each with a
// share of the suite's time; internal errors in place of everything if it threw.
std::vector<CheckResult> Finish(SuiteRun& run) {
  const SuiteDefinition& suite = *run.suite;
  if (!run.defect.empty()) {
    run.results.clear();
    for (const auto& check : suite.checks) {
      run.results.push_back(Errored(suite.name, check.name, "", "internal-error",
                                    "gpuconform defect: suite " + suite.name + " threw: " + run.defect +
                                        " (please report it with the snapshot)"));
    }
  }
  auto check_index = [&suite](const CheckResult& result) {
    for (std::size_t i = 0; i < suite.checks.size(); ++i) {
      if (suite.checks[i].name == result.check) return i;
    }
    return suite.checks.size();
  };
  std::stable_sort(run.results.begin(), run.results.end(),
                   [&](const CheckResult& a, const CheckResult& b) { return check_index(a) < check_index(b); });
  for (auto& result : run.results) {
    if (result.time_s == 0.0) result.time_s = run.elapsed_s / run.results.size();
  }
  return std::move(run.results);
}

}  // namespace

std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context) {
  std::vector<SuiteRun> runs;
  for (const auto* suite : suites) runs.push_back({suite, {}, 0, ""});
  for (auto& run : runs) {
    if (run.suite->evaluate) RunPart(run, [&] { run.results = EvaluateTogether(*run.suite, context); });
  }
  // Suites judged check by check: cluster checks once, then every per-node check of every such
  // suite node by node. A node's parsed facts are shared by all the suites that read them and
  // dropped once the node is judged, with the node's raw outputs (nothing reads them after
  // evaluation), so a fleet's evaluation holds one node's facts at a time and its raw text shrinks.
  for (auto& run : runs) {
    if (run.suite->evaluate) continue;
    for (const auto& check : run.suite->checks) {
      if (!check.per_node) RunPart(run, [&] { run.results.push_back(JudgeCheck(*run.suite, check, context, "")); });
    }
  }
  for (const auto& node : context.raw.nodes) {
    for (auto& run : runs) {
      if (run.suite->evaluate) continue;
      for (const auto& check : run.suite->checks) {
        if (check.per_node) RunPart(run, [&] { run.results.push_back(JudgeCheck(*run.suite, check, context, node)); });
      }
    }
    context.raw.ReleaseNode(node);
  }
  std::vector<CheckResult> all;
  for (auto& run : runs) {
    for (auto& result : Finish(run)) all.push_back(std::move(result));
  }
  return all;
}

}  // namespace gpuconform
