// The gpu-devices probe: the node's NVIDIA GPU device files and driver entries, listed in
// process (harness/core/builtin_probes.h GpuDevicesOutput says the format), for counting GPUs where
// nvidia-smi gave nothing. Its snapshot file name is part of the snapshot layout v1 contract.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::gpu_devices {

ProbeSpec GpuDevices();  // nodes/<h>/gpu-devices.txt  /dev/nvidia<N> + /proc/driver/nvidia/gpus (built in)

}  // namespace gpuconform::gpu_devices
