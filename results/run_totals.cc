#include "results/run_totals.h"

namespace gpuconform {

std::vector<CheckGroup> GroupByCheck(const std::vector<CheckResult>& results) {
  std::vector<CheckGroup> groups;
  for (const auto& result : results) {
    if (groups.empty() || groups.back().suite != result.suite || groups.back().check != result.check) {
      groups.push_back({result.suite, result.check, {}});
    }
    groups.back().cases.push_back(&result);
  }
  return groups;
}

GroupCounts Count(const CheckGroup& group) {
  GroupCounts counts;
  for (const auto* c : group.cases) {
    switch (c->verdict) {
      case Verdict::kPass: ++counts.pass; break;
      case Verdict::kFail: ++counts.fail; break;
      case Verdict::kError: ++counts.error; break;
      case Verdict::kSkip: ++counts.skip; break;
      case Verdict::kRegression:
        ++counts.regression;
        break;
    }
  }
  return counts;
}

Verdict GroupVerdict(const GroupCounts& counts) {
  if (counts.fail) return Verdict::kFail;
  if (counts.regression) return Verdict::kRegression;
  if (counts.error) return Verdict::kError;
  if (counts.pass) return Verdict::kPass;
  return Verdict::kSkip;
}

RunTotals CountChecks(const std::vector<CheckResult>& results) {
  RunTotals totals;
  totals.cases = static_cast<int>(results.size());
  for (const auto& group : GroupByCheck(results)) {
    ++totals.checks;
    switch (GroupVerdict(Count(group))) {
      case Verdict::kPass: ++totals.passed; break;
      case Verdict::kFail: ++totals.failed; break;
      case Verdict::kError: ++totals.errored; break;
      case Verdict::kSkip: ++totals.skipped; break;
      case Verdict::kRegression:
        ++totals.regressed;
        break;
    }
  }
  return totals;
}

int ExitStatusFor(const std::vector<CheckResult>& results) {
  bool any_error = false;
  bool any_regression = false;
  for (const auto& result : results) {
    if (result.verdict == Verdict::kFail) return 1;
    any_error = any_error || result.verdict == Verdict::kError;
    any_regression = any_regression || result.verdict == Verdict::kRegression;
  }
  // A regression is a finding; an error is a fact not obtained: the finding is the answer.
  return any_regression ? 4 : any_error ? 3 : 0;
}

std::string ExitMeaning(int status) {
  switch (status) {
    case 0:
      return "every evaluated check conforms";
    case 1:
      return "non-conformance found";
    case 2:
      return "bad invocation, or an input that cannot be read";
    case 3:
      return "nothing non-conforming, but some checks could not be evaluated";
    case 4:
      return "conforms, but worse than the baseline";
    case 124:
      return "the run reached its own deadline and ended early; the report holds what it judged";
    case 137:
      return "the run was killed before it wrote its report; this provisional report lists what it had not judged";
    case 129:
    case 130:
    case 143:
      return "the run was terminated (" + std::string(status == 129 ? "SIGHUP" : status == 130 ? "SIGINT" : "SIGTERM") +
             ") and ended early; the report holds what it judged";
    default:
      return "exit status " + std::to_string(status);
  }
}

}  // namespace gpuconform
