#include "probes/torchrun/job_log_probe.h"

#include "harness/core/live_source.h"

namespace gpuconform::torchrun {

const ProbeSpec& JobLogProbe() {
  static const ProbeSpec kSpec =
      BuiltinProbe("job-log", ProbeScope::kCluster, "job.log", [](const LiveContext& context) {
        if (!context.options.job_log.empty()) return ReadFileOutput(context.host, context.options.job_log);
        return RawOutput{ProbeStatus::kAbsent, "", context.host + ": job log",
                         "no job log given: set GPUCONFORM_JOB_LOG=FILE (the failed job's Slurm output), or put it in "
                         "the snapshot as cluster/job.log"};
      });
  return kSpec;
}

const std::optional<JobLogInput>& ReadJobLog(const ClusterRaw& raw) {
  return raw.facts.Get<std::optional<JobLogInput>>("job-log", "", [&]() -> std::optional<JobLogInput> {
    const RawOutput out = raw.ClusterOutput(JobLogProbe().id);
    if (out.status == ProbeStatus::kAbsent) return std::nullopt;
    JobLogInput input;
    input.origin = out.origin.empty() ? "cluster/" + JobLogProbe().file : out.origin;
    if (!out.ok()) {
      input.diagnosis = Error{out.detail.empty() ? input.origin + ": " + ProbeStatusName(out.status) : out.detail};
    } else {
      input.diagnosis = ParseJobLog(out.text, input.origin);
    }
    return input;
  });
}

}  // namespace gpuconform::torchrun
