// The NVML probe: nodes/<h>/nvml.txt (format in nvml_parse.h), read in-process from
// libnvidia-ml.so.1, which is loaded with dlopen so the binary runs where no driver exists.
// Contract: no library -> kToolMissing naming the node ("no NVIDIA driver (libnvidia-ml.so.1
// not found)"); nvmlInit failing -> kFailed with NVML's reason; a symbol an older driver does
// not export leaves out the fields that need it. The output is raw facts, never a judgement.
#pragma once

#include "harness/live_source.h"
#include "harness/probe.h"

namespace gpuconform::nvml {

RawOutput NvmlOutput(const LiveContext& context);
const ProbeSpec& NvmlProbe();  // id "nvml", file "nvml.txt", built in

}  // namespace gpuconform::nvml
