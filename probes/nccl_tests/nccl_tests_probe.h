// The cluster/all_reduce_perf.txt probe: nccl-tests output the operator already has. Live, it
// is the file named by RunOptions::nccl_tests_output (GPUCONFORM_NCCL_TESTS_OUTPUT), read when
// the probe runs (the spec is registered before the options exist); unset, the tool is missing,
// saying how to give it.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::nccl_tests {

ProbeSpec NcclTestsOutputProbe();

}  // namespace gpuconform::nccl_tests
