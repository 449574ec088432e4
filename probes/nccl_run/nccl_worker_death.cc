#include "probes/nccl_run/nccl_worker_death.h"

#include "harness/util/text_util.h"
#include "probes/resource_limits/death_records.h"

namespace gpuconform::nccl_run {

std::optional<resource_limits::WorkerDeath> NcclWorkerDeath(const WorkerEnd& end, const std::string& worker_stderr,
                                                            const std::string& node_log) {
  const bool died = !end.killed_by_probe && ((end.exit_code && *end.exit_code != 0) || end.signal);
  if (!died && end.error_reason.empty()) return std::nullopt;
  resource_limits::WorkerDeath death;
  if (!end.killed_by_probe) {
    death.exit_code = end.exit_code;
    death.signal = end.signal;
  }
  for (const auto line : SplitLines(node_log)) {
    if (Contains(line, " NCCL WARN ")) resource_limits::KeepLine(death, Trim(line));
  }
  for (const auto line : SplitLines(worker_stderr)) {
    if (!Trim(line).empty()) resource_limits::KeepLine(death, Trim(line));
  }
  if (!end.error_reason.empty()) resource_limits::KeepLine(death, end.error_reason);
  return death;
}

}  // namespace gpuconform::nccl_run
