#include "probes/nccl_log/nccl_debug_log_probe.h"

#include "harness/world/gather.h"
#include "probes/nccl_run/nccl_run_probe.h"

namespace gpuconform::nccl_log {

ProbeSpec DebugLogProbe() {
  ProbeSpec spec;
  spec.id = "nccl-debug-log";
  spec.file = "nccl-debug.log";
  spec.scope = ProbeScope::kCluster;
  // A collective either way: which log to use is known only once the run's options are,
  // after the spec is registered. Every rank takes the same branch (the same options).
  spec.method = ProbeMethod::kCollective;
  spec.large_output = true;  // the log of a long job reaches gigabytes: streamed, never held

  spec.collective = [](const CollectiveContext& context) {
    const std::string& path = context.options.nccl_log;
    if (path.empty()) return nccl_run::SharedNcclRun(context).debug_log;
    return context.world.is_root() ? FileReferenceOutput(context.host, path) : RawOutput{};
  };
  return spec;
}

}  // namespace gpuconform::nccl_log
