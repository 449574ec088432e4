#include "probes/resource_limits/death_verdicts.h"

namespace gpuconform::resource_limits {

namespace {

bool IsOwnCase(const CheckResult& result, const ClassifiedDeath& death) {
  return result.check == death.own_check && (result.node == death.node || result.node.empty());
}

}  // namespace

void ApplyDeaths(std::vector<CheckResult>& results, const std::vector<ClassifiedDeath>& deaths,
                 const std::string& suite, const DependsOn& depends) {
  if (deaths.empty()) return;
  for (auto& result : results) {
    std::vector<Finding> own;
    const ClassifiedDeath* dependent = nullptr;
    for (const auto& death : deaths) {
      if (IsOwnCase(result, death)) {
        own.push_back({death.exhaustion.code, death.node, DescribeExhaustion(death.node, death.exhaustion)});
      } else if (!dependent && depends(result, death)) {
        dependent = &death;
      }
    }
    if (!own.empty()) {
      CheckResult failed = Failed(std::move(own));
      failed.measurements = std::move(result.measurements);
      result = Stamped(std::move(failed), result.suite, result.check, result.node);
    } else if (dependent && result.verdict != Verdict::kPass && result.verdict != Verdict::kSkip) {
      const std::string reported_at =
          suite + "." + dependent->own_check + (dependent->node.empty() ? "" : "/" + dependent->node);
      result = Stamped(Skipped(DependentSkip(dependent->who, dependent->exhaustion, reported_at)), result.suite,
                       result.check, result.node);
    }
  }
}

}  // namespace gpuconform::resource_limits
