#include "app/terminated_cases.h"

#include "harness/termination.h"

namespace gpuconform {

namespace {

bool SaysTerminated(const std::string& text) { return text.find(kTerminatedMarker) != std::string::npos; }

}  // namespace

std::set<std::string> ProbesNotTaken(const ClusterRaw& raw) {
  std::set<std::string> not_taken;
  for (const auto& [node, outputs] : raw.node) {
    for (const auto& [id, out] : outputs) {
      if (!out.ok() && SaysTerminated(out.detail)) not_taken.insert(id);
    }
  }
  for (const auto& [id, out] : raw.cluster) {
    if (!out.ok() && SaysTerminated(out.detail)) not_taken.insert(id);
  }
  return not_taken;
}

std::set<std::string> SuitesCutShort(const std::vector<const SuiteDefinition*>& suites,
                                     const std::set<std::string>& not_taken) {
  std::set<std::string> cut;
  for (const auto* suite : suites) {
    for (const auto& spec : ProbesOf({suite})) {
      if (not_taken.count(spec.id) != 0) {
        cut.insert(suite->name);
        break;
      }
    }
  }
  return cut;
}

void MarkTerminatedCases(std::vector<CheckResult>& cases, const std::set<std::string>& cut_suites,
                         const std::string& notice) {
  for (auto& judged : cases) {
    if (judged.verdict != Verdict::kError) continue;
    const bool suite_cut = cut_suites.count(judged.suite) != 0;
    for (auto& finding : judged.findings) {
      if (SaysTerminated(finding.message)) {
        finding.code = "run-terminated";
      } else if (suite_cut && finding.code.entry().fault_class == FaultClass::kTooling) {
        finding.code = "run-terminated";
        finding.message += " (" + notice + ", before this suite's measurements were all taken)";
      }
    }
  }
}

}  // namespace gpuconform
