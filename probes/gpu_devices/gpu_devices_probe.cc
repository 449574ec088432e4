#include "probes/gpu_devices/gpu_devices_probe.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <regex>

namespace gpuconform::gpu_devices {

namespace {

std::string DeviceDirectory(const LiveContext& context) {
  const std::string& host = context.host;
  std::string dir = context.options.dev_dir;
  for (auto at = dir.find("%n"); at != std::string::npos; at = dir.find("%n")) dir.replace(at, 2, host);
  return dir;
}

}  // namespace

RawOutput GpuDevicesOutput(const LiveContext& context) {
  namespace fs = std::filesystem;
  const std::string dir = DeviceDirectory(context);
  RawOutput out;
  out.origin = context.host + ": " + dir + "/nvidia[0-9]* and /proc/driver/nvidia/gpus";
  static const std::regex kGpuDevice("nvidia[0-9]+");
  std::vector<std::string> lines;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, kGpuDevice)) continue;
    struct stat info {};
    if (stat(entry.path().c_str(), &info) != 0 || !S_ISCHR(info.st_mode)) continue;
    lines.push_back("device " + entry.path().string() + " " + std::to_string(major(info.st_rdev)) + ":" +
                    std::to_string(minor(info.st_rdev)));
  }
  for (const auto& entry : fs::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
    lines.push_back("driver-gpu " + entry.path().filename().string());
  }
  std::sort(lines.begin(), lines.end());
  out.status = ProbeStatus::kOk;
  for (const auto& line : lines) out.text += line + "\n";
  return out;
}

ProbeSpec GpuDevices() { return BuiltinProbe("gpu-devices", ProbeScope::kNode, "gpu-devices.txt", GpuDevicesOutput); }

}  // namespace gpuconform::gpu_devices
