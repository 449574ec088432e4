// The cluster/job.log probe: a training job's own output the operator hands over (its Slurm
// output file), for Torchrun.JobLogLaunch. Live, it is the file named by RunOptions::job_log
// (GPUCONFORM_JOB_LOG), read when the probe runs; unset, it is absent, saying how to give it.
// A snapshot keeps it as cluster/job.log, so `gpuconform capture` and a replay carry it.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "harness/util/result.h"
#include "probes/torchrun/job_log_parse.h"

namespace gpuconform::torchrun {

const ProbeSpec& JobLogProbe();

// The job log's diagnosis, parsed once per run; nullopt when no job log was given.
struct JobLogInput {
  std::string origin;  // "cluster/job.log", or the file GPUCONFORM_JOB_LOG named
  Result<JobLogDiagnosis> diagnosis = Error{"not read"};
};
const std::optional<JobLogInput>& ReadJobLog(const ClusterRaw& raw);

}  // namespace gpuconform::torchrun
