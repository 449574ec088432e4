// Torchrun suite, a failed job's own output: the diagnosis of what `srun torchrun ...` printed
// (probes/torchrun/job_log_parse.h) judged. Pure: the diagnosis in, one judgement out. Each
// launch failure is a finding naming its node (or "cluster" when the log does not say),
// quoting the evidence line as origin:line, with the fix; a completed launch passes; a log
// that shows neither is an error with its own code (launch-outcome-unknown), never a pass,
// because a log cut short or from another launcher would otherwise read as healthy. A log
// that could not be parsed at all never reaches the check: the suite errors it first.
#pragma once

#include <string>

#include "harness/core/verdict.h"
#include "probes/torchrun/job_log_parse.h"

namespace gpuconform::torchrun {

GPUCONFORM_CHECK_NAME(JobLogLaunch);

// `origin` names the log in messages ("cluster/job.log").
CheckResult CheckJobLogLaunch(const JobLogDiagnosis& log, const std::string& origin);

}  // namespace gpuconform::torchrun
