#include "app/terminated_cases.h"

namespace gpuconform {

std::set<std::string> ProbesNotTaken(const ClusterRaw& raw, const std::string& marker) {
  std::set<std::string> not_taken;
  auto note = [&](const std::string& id, const RawOutput& out) {
    if (!out.ok() && out.detail.find(marker) != std::string::npos) not_taken.insert(id);
  };
  for (const auto& [node, outputs] : raw.node) {
    for (const auto& [id, out] : outputs) note(id, out);
  }
  for (const auto& [id, out] : raw.cluster) note(id, out);
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

void MarkCutCases(std::vector<CheckResult>& cases, const std::set<std::string>& cut_suites, const CutShort& cause) {
  for (auto& judged : cases) {
    if (judged.verdict != Verdict::kError) continue;
    const bool suite_cut = cut_suites.count(judged.suite) != 0;
    for (auto& finding : judged.findings) {
      if (finding.message.find(cause.marker) != std::string::npos) {
        finding.code = cause.code;
      } else if (suite_cut && finding.code.entry().fault_class == FaultClass::kTooling) {
        finding.code = cause.code;
        finding.message += " (" + cause.notice + ", before this suite's measurements were all taken)";
      }
    }
  }
}

std::vector<std::string> NodesThatSentNothing(const GatheredRun& run) {
  std::set<std::string> sent;
  for (const auto& rank : run.ranks) sent.insert(rank.host);
  std::set<std::string> silent;
  for (const auto& node : run.raw.nodes) {
    if (sent.count(node) == 0) silent.insert(node);
  }
  return {silent.begin(), silent.end()};
}

}  // namespace gpuconform
