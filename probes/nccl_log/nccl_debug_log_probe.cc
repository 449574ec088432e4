#include "probes/nccl_log/nccl_debug_log_probe.h"

#include <cstdlib>

#include "probes/nccl_run/nccl_run_probe.h"

namespace gpuconform::nccl_log {

using namespace gpuconform::nccl_run;

ProbeSpec DebugLogProbe() {
  ProbeSpec spec;
  spec.id = "nccl-debug-log";
  spec.file = "nccl-debug.log";
  spec.scope = ProbeScope::kCluster;
  const char* path = std::getenv(kLogEnvironment);
  if (path != nullptr && *path != '\0') {
    spec.method = ProbeMethod::kReadFile;
    spec.path = path;
  } else {
    spec.method = ProbeMethod::kCollective;
    spec.collective = [](const CollectiveContext& context) { return nccl_run::SharedNcclRun(context).debug_log; };
  }
  return spec;
}

}  // namespace gpuconform::nccl_log
