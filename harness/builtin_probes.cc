#include "harness/builtin_probes.h"

#include "harness/dynamic_library.h"

#include <mpi.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace gpuconform {

RawOutput NcclVersionOutput(const LiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": ncclGetVersion() from libnccl.so.2";
  auto library = DynamicLibrary::Open({"libnccl.so.2"});
  if (!library) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": libnccl.so.2 not found (NCCL is not installed, or not on LD_LIBRARY_PATH)";
    return out;
  }
  using GetVersion = int (*)(int*);
  auto get_version = library->Symbol<GetVersion>("ncclGetVersion");
  int code = 0;
  if (get_version == nullptr || get_version(&code) != 0) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": libnccl.so.2 loaded but ncclGetVersion failed";
    return out;
  }
  // NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9 (major*1000 + ... before).
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? (code / 100) % 100 : (code / 100) % 10;
  const int patch = code % 100;
  out.status = ProbeStatus::kOk;
  out.text = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + "\n";
  return out;
}

RawOutput MpiLibraryVersionOutput(const LiveContext& context) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  return {ProbeStatus::kOk, std::string(version, length) + "\n", context.host + ": MPI_Get_library_version()", ""};
}

RawOutput GpuconformVersionOutput(const LiveContext& context) {
  return {ProbeStatus::kOk, std::string(GPUCONFORM_VERSION) + "\n", context.host + ": gpuconform", ""};
}

namespace {

std::string DeviceDirectory(const std::string& host) {
  const char* configured = std::getenv("GPUCONFORM_DEV_DIR");
  std::string dir = configured && *configured ? configured : "/dev";
  for (auto at = dir.find("%n"); at != std::string::npos; at = dir.find("%n")) dir.replace(at, 2, host);
  return dir;
}

}  // namespace

RawOutput GpuDevicesOutput(const LiveContext& context) {
  namespace fs = std::filesystem;
  const std::string dir = DeviceDirectory(context.host);
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

}  // namespace gpuconform
