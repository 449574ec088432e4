#include "results/run.h"

#include <cstdio>
#include <random>
#include <utility>

#include "harness/util/version.h"

namespace gpuconform {

std::string NewRunId() {
  std::random_device entropy;
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof(part), "%08x", static_cast<unsigned>(entropy()));
    id += part;
  }
  return id;
}

RunRecord StartRecord(std::string started_utc, std::string profile, std::string hostname, std::string mode, std::string filter,
                      std::optional<std::string> slurm_job_id, std::vector<std::string> nodes) {
  RunRecord record;
  record.run_id = NewRunId();
  record.started_utc = std::move(started_utc);
  record.facts_read_utc = record.started_utc;
  record.gpuconform_version = kVersion;
  record.profile = std::move(profile);
  record.hostname = std::move(hostname);
  record.mode = std::move(mode);
  record.filter = std::move(filter);
  record.slurm_job_id = std::move(slurm_job_id);
  record.nodes = std::move(nodes);
  return record;
}

}  // namespace gpuconform
