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

std::vector<ProbeSpec> SuiteRegistry::AllProbes() const {
  std::vector<ProbeSpec> probes;
  std::set<std::string> seen;
  for (const auto* suite : Suites()) {
    for (const auto& probe : suite->probes) {
      if (seen.insert(probe.id).second) probes.push_back(probe);
    }
  }
  return probes;
}

std::vector<CheckResult> EvaluateSuite(const SuiteDefinition& suite, const SuiteContext& context) {
  if (suite.evaluate) return suite.evaluate(context);
  std::vector<CheckResult> results;
  for (const auto& check : suite.checks) {
    if (!check.per_node) {
      results.push_back(check.judge(context, ""));
      continue;
    }
    for (const auto& node : context.raw.nodes) results.push_back(check.judge(context, node));
  }
  return results;
}

std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context) {
  std::vector<CheckResult> all;
  for (const auto* suite : suites) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<CheckResult> results;
    try {
      results = EvaluateSuite(*suite, context);
    } catch (const std::exception& e) {
      results.clear();
      for (const auto& check : suite->checks) {
        results.push_back(Errored(suite->name, check.name, "", "internal-error",
                                  "gpuconform defect: suite " + suite->name + " threw: " + e.what() +
                                      " (please report it with the snapshot)"));
      }
    }
    // One check's per-node cases together, in the suite's declared check order, so the
    // terminal report and JUnit list each check once whatever order evaluate() used.
    auto check_index = [suite](const CheckResult& result) {
      for (std::size_t i = 0; i < suite->checks.size(); ++i) {
        if (suite->checks[i].name == result.check) return i;
      }
      return suite->checks.size();
    };
    std::stable_sort(results.begin(), results.end(), [&](const CheckResult& a, const CheckResult& b) {
      return check_index(a) < check_index(b);
    });
    const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (auto& result : results) {
      if (result.time_s == 0.0 && !results.empty()) result.time_s = elapsed_s / results.size();
      all.push_back(std::move(result));
    }
  }
  return all;
}

}  // namespace gpuconform
