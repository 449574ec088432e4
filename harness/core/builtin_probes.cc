#include "harness/core/builtin_probes.h"

#include "harness/util/dynamic_library.h"
#include "harness/util/version.h"

#include <mpi.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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
  return {ProbeStatus::kOk, std::string(kVersion) + "\n", context.host + ": gpuconform", ""};
}

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

RawOutput NcclTopoFileOutput(const LiveContext& context) {
  // NCCL's own dumps are tens of KiB; a file this large is not a topology, and copying it
  // whole would put it in every rank's memory and in the snapshot.
  constexpr std::size_t kMaxBytes = 64u << 20;
  RawOutput out;
  const std::string& path = context.options.nccl_topo_file;
  if (path.empty()) {
    out.status = ProbeStatus::kAbsent;
    out.origin = context.host + ": $NCCL_TOPO_FILE";
    out.detail = context.host + ": NCCL_TOPO_FILE is not set in the environment";
    return out;
  }
  out.origin = context.host + ":" + path + " (NCCL_TOPO_FILE)";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": NCCL_TOPO_FILE=" + path +
                 " but the file cannot be read; NCCL ignores or fails on it: fix the path or unset NCCL_TOPO_FILE";
    return out;
  }
  // Read in chunks up to the cap, so a huge file (or a pipe) is never held whole.
  char chunk[1 << 16];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    out.text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (out.text.size() > kMaxBytes) {
      out.text.clear();
      out.status = ProbeStatus::kFailed;
      out.detail = context.host + ": NCCL_TOPO_FILE=" + path + " is larger than " + std::to_string(kMaxBytes >> 20) +
                   " MiB, far larger than any NCCL topology; not copied";
      return out;
    }
  }
  out.status = ProbeStatus::kOk;
  return out;
}

namespace {

// One line of a sysfs attribute file such as "0x030200\n"; empty when unreadable.
std::string SysfsWord(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

}  // namespace

RawOutput PciDevicesOutput(const LiveContext& context) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(context.options.sysfs_root) / "bus/pci/devices";
  RawOutput out;
  out.origin = context.host + ": " + dir.string() + "/*/class";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": " + dir.string() +
                 " does not exist, so the node's PCI devices cannot be listed (not Linux, or /sys is not mounted "
                 "in the container; GPUCONFORM_SYSFS_ROOT names a stand-in for /sys)";
    return out;
  }
  std::vector<std::string> lines;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string class_code = SysfsWord(entry.path() / "class");
    std::string line = entry.path().filename().string() + " " + (class_code.empty() ? "unknown" : class_code);
    const std::string vendor = SysfsWord(entry.path() / "vendor");
    const std::string device = SysfsWord(entry.path() / "device");
    if (!vendor.empty() && !device.empty()) line += " " + vendor + " " + device;
    lines.push_back(std::move(line));
  }
  if (ec) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": cannot list " + dir.string() + ": " + ec.message();
    return out;
  }
  std::sort(lines.begin(), lines.end());
  out.status = ProbeStatus::kOk;
  for (const auto& line : lines) out.text += line + "\n";
  return out;
}

}  // namespace gpuconform
