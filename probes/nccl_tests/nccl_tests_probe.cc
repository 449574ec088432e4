#include "probes/nccl_tests/nccl_tests_probe.h"

#include "harness/core/live_source.h"

namespace gpuconform::nccl_tests {

ProbeSpec NcclTestsOutputProbe() {
  ProbeSpec spec = BuiltinProbe("all_reduce_perf", ProbeScope::kCluster, "all_reduce_perf.txt", [](const LiveContext& context) {
    if (!context.options.nccl_tests_output.empty()) {
      return FileReferenceOutput(context.host, context.options.nccl_tests_output);
    }
    return RawOutput{ProbeStatus::kToolMissing, "", context.host + ": nccl-tests output",
                     "no nccl-tests output given: set GPUCONFORM_NCCL_TESTS_OUTPUT=FILE (all_reduce_perf's output), "
                     "or put it in the snapshot as cluster/all_reduce_perf.txt"};
  });
  spec.large_output = true;  // a long sweep of many runs: streamed, never held whole
  return spec;
}

}  // namespace gpuconform::nccl_tests
