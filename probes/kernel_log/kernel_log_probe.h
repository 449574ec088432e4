// The kernel log probe (snapshot file dmesg.txt): the node's kernel messages since boot, from
// whichever source the node allows - `dmesg` (may be refused to non-root users by
// kernel.dmesg_restrict), then `journalctl -k -b` (needs the systemd journal and the adm or
// systemd-journal group), then the file the profile's gpu_health.kernel_log_file names (e.g.
// /var/log/kern.log). Every attempt that failed is named when none answers.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::kernel_log {

const ProbeSpec& KernelLogProbe();
RawOutput KernelLogOutput(const LiveContext& context);

}  // namespace gpuconform::kernel_log
