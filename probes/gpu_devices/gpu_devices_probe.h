// The gpu-devices probe: the node's NVIDIA GPU device files and driver entries, listed in
// process (GpuDevicesOutput says the format), for counting GPUs where
// nvidia-smi gave nothing. Its snapshot file name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::gpu_devices {

ProbeSpec GpuDevices();  // nodes/<h>/gpu-devices.txt  /dev/nvidia<N> + /proc/driver/nvidia/gpus (built in)

// NVIDIA GPU device files and driver entries, one per line:
//   "device /dev/nvidia0 195:0" for each character device nvidia<N> in the device directory,
//   "driver-gpu 0000:18:00.0" for each /proc/driver/nvidia/gpus entry.
// The device directory is RunOptions::dev_dir (GPUCONFORM_DEV_DIR, where "%n" stands for
// the host name, as in slurm.conf paths), else /dev.
RawOutput GpuDevicesOutput(const LiveContext& context);

}  // namespace gpuconform::gpu_devices
