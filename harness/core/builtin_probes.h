// In-process live probes: facts a library call or a directory listing answers better than
// a command line. Contract: each returns a RawOutput like a command would (kToolMissing
// when the library or device is not on the node). NCCL is loaded with dlopen, never
// linked, so the binary runs on nodes without GPUs.
#pragma once

#include "harness/core/live_source.h"

namespace gpuconform {

RawOutput NcclVersionOutput(const LiveContext& context);         // "2.18.3"
RawOutput MpiLibraryVersionOutput(const LiveContext& context);   // MPI_Get_library_version
RawOutput GpuconformVersionOutput(const LiveContext& context);   // this binary's version
// NVIDIA GPU device files and driver entries, one per line:
//   "device /dev/nvidia0 195:0" for each character device nvidia<N> in the device directory,
//   "driver-gpu 0000:18:00.0" for each /proc/driver/nvidia/gpus entry.
// The device directory is RunOptions::dev_dir (GPUCONFORM_DEV_DIR, where "%n" stands for
// the host name, as in slurm.conf paths), else /dev.
RawOutput GpuDevicesOutput(const LiveContext& context);

// The static NCCL topology file RunOptions::nccl_topo_file (NCCL_TOPO_FILE) names, copied as is. kAbsent when the
// variable is not set (NCCL then detects the topology itself); kFailed naming the path
// when the file cannot be read or is far larger than any topology.
RawOutput NcclTopoFileOutput(const LiveContext& context);
// The node's PCI devices from <sysfs>/bus/pci/devices (sysfs: RunOptions::sysfs_root)/*/{class,vendor,device}, one a line,
// sorted: "0000:18:00.0 0x030200 0x10de 0x2330". kToolMissing naming the directory when it
// does not exist (no PCI sysfs: not Linux, or /sys not mounted in the container).
RawOutput PciDevicesOutput(const LiveContext& context);

}  // namespace gpuconform
