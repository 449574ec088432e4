#include "app/judge_pipeline.h"

#include <iostream>
#include <utility>

#include "harness/util/timestamp.h"
#include "results/run_totals.h"

namespace gpuconform {

int JudgeAndReport(std::vector<CheckResult> evaluated, const JudgementSteps& steps, Run run,
                   const ReportSink& terminal, const ReportSinks& sinks, int problem_status) {
  // The cases move through each step, never copied: at 10,000 nodes they are some 300,000.
  run.cases = std::move(evaluated);
  steps.select(run);
  if (steps.compare) steps.compare(run);
  int status = problem_status != 0 ? problem_status : ExitStatusFor(run.cases);
  run.record.exit_status = status;
  if (const auto shown = terminal.Write(run); !shown) std::cerr << "gpuconform: " << shown.error() << "\n";
  if (steps.act && !steps.act(run)) status = 2;
  run.record.exit_status = status;
  run.record.ended_utc = UtcIso8601();
  if (!WriteReports(run, sinks, std::cout, std::cerr)) status = 2;
  return status;
}

}  // namespace gpuconform
