// The NVML probe: nodes/<h>/nvml.txt (format in nvml_parse.h), read in-process from
// libnvidia-ml.so.1, which is loaded with dlopen (from GPUCONFORM_GPU_LIBRARY_DIR when set) so
// the binary runs where no driver exists; its declarations are in nvml_api.h.
// Contract: no library -> kToolMissing naming the node ("no NVIDIA driver (libnvidia-ml.so.1
// not found: <dlerror>)"); nvmlInit failing -> kFailed quoting nvmlErrorString ("nvmlInit_v2
// failed: Driver Not Loaded (NVML error 9): <likely cause>"); a symbol an older driver does
// not export leaves out the fields that need it. The output is raw facts, never a judgement.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::nvml {

RawOutput NvmlOutput(const LiveContext& context);
const ProbeSpec& NvmlProbe();  // id "nvml", file "nvml.txt", built in

}  // namespace gpuconform::nvml
