// A node's kernel log (kernel_log_probe.h), parsed once per run (kernel_log_parse.h): its XID
// events, or why there is none, naming the node, the snapshot file and the cause. Pure: raw
// outputs in.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/kernel_log/kernel_log_parse.h"

namespace gpuconform::kernel_log {

const Result<KernelLog>& ReadKernelLog(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::kernel_log
