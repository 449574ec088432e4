#include "harness/core/verdict.h"

#include "harness/core/os_error.h"

#include <utility>

namespace gpuconform {

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "pass";
    case Verdict::kFail: return "fail";
    case Verdict::kError: return "error";
    case Verdict::kSkip: return "skip";
    case Verdict::kRegression:
      return "regression";
  }
  return "unknown";
}

int AttentionRank(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFail: return 0;
    case Verdict::kRegression: return 1;
    case Verdict::kError: return 2;
    case Verdict::kPass: return 3;
    case Verdict::kSkip: return 4;
  }
  return 4;
}

std::string CheckResult::CaseName() const { return node.empty() ? check : check + "/" + node; }

std::string CheckResult::TestName() const { return suite + "." + CaseName(); }

CheckResult Passed() { return CheckResult{}; }

CheckResult Failed(std::vector<Finding> findings) {
  CheckResult r;
  r.verdict = Verdict::kFail;
  r.findings = std::move(findings);
  return r;
}

CheckResult Errored(ReasonCode code, std::string message) {
  CheckResult r;
  r.verdict = Verdict::kError;
  // A device tool that hung with its driver loaded is the node's hardware, not a fact that
  // could not be obtained (os_error.h), whichever check found its output missing.
  if (SaysDeviceToolHung(message)) {
    r.verdict = Verdict::kFail;
    code = "device-tool-hung";
  }
  r.findings.push_back({code, "", std::move(message)});
  return r;
}

CheckResult ErroredEach(ReasonCode code, const std::vector<std::string>& problems) {
  CheckResult r = Errored(code, problems.empty() ? "" : problems.front());
  for (std::size_t i = 1; i < problems.size(); ++i) {
    const bool hung = SaysDeviceToolHung(problems[i]);
    if (hung) r.verdict = Verdict::kFail;
    r.findings.push_back({hung ? ReasonCode("device-tool-hung") : code, "", problems[i]});
  }
  return r;
}

CheckResult Skipped(std::string reason) {
  CheckResult r;
  r.verdict = Verdict::kSkip;
  r.findings.push_back({"not-applicable", "", std::move(reason)});
  return r;
}

CheckResult FromFindings(std::vector<Finding> findings) {
  if (findings.empty()) return Passed();
  return Failed(std::move(findings));
}

CheckResult Stamped(CheckResult judgement, const std::string& suite, const std::string& check,
                    const std::string& node) {
  judgement.suite = suite;
  judgement.check = check;
  judgement.node = node;
  for (auto& finding : judgement.findings) {
    if (finding.entity.empty()) finding.entity = node.empty() ? "cluster" : node;
  }
  return judgement;
}

CheckResult Passed(std::string suite, std::string check, std::string node) {
  CheckResult r;
  r.suite = std::move(suite);
  r.check = std::move(check);
  r.node = std::move(node);
  r.verdict = Verdict::kPass;
  return r;
}

CheckResult Failed(std::string suite, std::string check, std::string node, std::vector<Finding> findings) {
  CheckResult r = Passed(std::move(suite), std::move(check), std::move(node));
  r.verdict = Verdict::kFail;
  r.findings = std::move(findings);
  return r;
}

CheckResult Errored(std::string suite, std::string check, std::string node, ReasonCode code,
                    std::string message) {
  CheckResult r = Passed(std::move(suite), std::move(check), node);
  r.verdict = Verdict::kError;
  // A device tool that hung with its driver loaded is the node's hardware, not a fact that
  // could not be obtained (os_error.h), whichever check found its output missing.
  if (SaysDeviceToolHung(message)) {
    r.verdict = Verdict::kFail;
    code = "device-tool-hung";
  }
  r.findings.push_back({code, node.empty() ? "cluster" : node, std::move(message)});
  return r;
}

CheckResult ErroredEach(std::string suite, std::string check, std::string node, ReasonCode code,
                        const std::vector<std::string>& problems) {
  CheckResult r = Errored(std::move(suite), std::move(check), node, code, problems.empty() ? "" : problems.front());
  for (std::size_t i = 1; i < problems.size(); ++i) {
    const bool hung = SaysDeviceToolHung(problems[i]);
    if (hung) r.verdict = Verdict::kFail;
    r.findings.push_back({hung ? ReasonCode("device-tool-hung") : code, node.empty() ? "cluster" : node, problems[i]});
  }
  return r;
}

CheckResult Skipped(std::string suite, std::string check, std::string node, std::string reason) {
  CheckResult r = Passed(std::move(suite), std::move(check), node);
  r.verdict = Verdict::kSkip;
  r.findings.push_back({"not-applicable", node.empty() ? "cluster" : node, std::move(reason)});
  return r;
}

CheckResult FromFindings(std::string suite, std::string check, std::string node,
                         std::vector<Finding> findings) {
  if (findings.empty()) return Passed(std::move(suite), std::move(check), std::move(node));
  return Failed(std::move(suite), std::move(check), std::move(node), std::move(findings));
}

}  // namespace gpuconform
