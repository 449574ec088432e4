#include "probes/gpu_devices/gpu_devices_probe.h"

#include "harness/core/builtin_probes.h"

namespace gpuconform::gpu_devices {

ProbeSpec GpuDevices() { return BuiltinProbe("gpu-devices", ProbeScope::kNode, "gpu-devices.txt", GpuDevicesOutput); }

}  // namespace gpuconform::gpu_devices
