#include "suites/torchrun/job_log_checks.h"

#include <vector>

#include "harness/core/reason_code.h"
#include "harness/util/text_util.h"

namespace gpuconform::torchrun {

namespace {

// The notes, as one clause for a message, at most a few so a long log cannot flood it.
std::string NotesClause(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  constexpr std::size_t kShown = 4;
  std::vector<std::string> shown(notes.begin(), notes.begin() + static_cast<long>(std::min(notes.size(), kShown)));
  std::string clause = Join(shown, "; ");
  if (notes.size() > kShown) clause += "; and " + std::to_string(notes.size() - kShown) + " more";
  return clause;
}

}  // namespace

CheckResult CheckJobLogLaunch(const JobLogDiagnosis& log, const std::string& origin) {
  if (!log.failures.empty()) {
    std::vector<Finding> findings;
    for (const LaunchFailure& failure : log.failures) {
      // The parser names only catalogue codes; one it does not is gpuconform's own defect.
      const auto code = ReasonCode::Find(failure.code);
      const std::string node = failure.node.empty() ? "cluster" : failure.node;
      std::string message = failure.node.empty() ? "" : failure.node + ": ";
      message += failure.detail + " (" + origin + ":" + std::to_string(failure.line) + ": \"" + failure.evidence +
                 "\"); fix: " + failure.fix;
      if (!code) message = "unknown reason code '" + failure.code + "' from the job-log parser: " + message;
      findings.push_back({code ? *code : ReasonCode("internal-error"), node, std::move(message)});
    }
    CheckResult result = Failed(std::move(findings));
    result.measurements.push_back({"launch_failures", std::to_string(log.failures.size()), "", "0", origin});
    return result;
  }
  if (log.launch_completed) {
    CheckResult result = Passed();
    result.measurements.push_back({"agents_succeeded", std::to_string(log.agents_succeeded), "agents", ">= 1", origin});
    if (!log.notes.empty()) result.measurements.push_back({"tolerated", NotesClause(log.notes), "", "", origin});
    return result;
  }
  std::string message = origin + ": the job's output shows no launch failure gpuconform recognises and no completed "
                                 "launch (no torchrun agent reports WorkerState.SUCCEEDED), so the launch cannot be judged";
  if (log.last_error_line > 0) {
    message += "; its last error line is " + origin + ":" + std::to_string(log.last_error_line) + ": \"" +
               log.last_error + "\"";
  }
  message += "; expected: the whole output of srun torchrun, both streams (srun -l ... >job.log 2>&1)";
  return Errored("launch-outcome-unknown", message);
}

}  // namespace gpuconform::torchrun
