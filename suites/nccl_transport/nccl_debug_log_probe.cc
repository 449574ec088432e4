#include "suites/nccl_transport/nccl_debug_log_probe.h"

#include <cstdlib>

namespace gpuconform::nccl_transport {

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
    spec.method = ProbeMethod::kBuiltin;  // no live implementation: reported as tool-missing
  }
  return spec;
}

}  // namespace gpuconform::nccl_transport
