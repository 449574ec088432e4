// The gpudirect probe: whether GPUDirect RDMA can work on the node, as record lines
// (gpudirect_parse.h): the peer-memory and driver modules from /sys/module/<name> (present while
// loaded; GPUCONFORM_SYSFS_ROOT stands in for /sys in tests), the kernel release from
// /proc/sys/kernel/osrelease, and the NVIDIA driver's version (/sys/module/nvidia/version) and
// flavour (/proc/driver/nvidia/version names the "Open Kernel Module"). Cheap and passive: fit for
// the Slurm health check. A node without the NVIDIA driver answers with its modules absent.
#pragma once

#include <string>

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::gpudirect {

// The probe's text for the trees at `sysfs_root` and `proc_root` ("/sys", "/proc" live).
RawOutput GpuDirectOutputAt(const std::string& host, const std::string& sysfs_root, const std::string& proc_root);
RawOutput GpuDirectOutput(const LiveContext& context);

// nodes/<h>/gpudirect.txt
const ProbeSpec& GpuDirectProbe();

}  // namespace gpuconform::gpudirect
