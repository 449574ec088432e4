#include "probes/gpudirect/gpudirect_probe.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/gpudirect/gpudirect_parse.h"

namespace gpuconform::gpudirect {

namespace {

namespace fs = std::filesystem;

// The first line of a small kernel file, trimmed; empty when it cannot be read.
std::string FirstLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return std::string(Trim(line));
}

// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.129.03  Release Build ..." (open)
// or "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  ..." (proprietary).
std::string NvrmLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (in && std::getline(in, line)) {
    if (StartsWith(line, "NVRM version:")) return std::string(Trim(line));
  }
  return "";
}

}  // namespace

RawOutput GpuDirectOutputAt(const std::string& host, const std::string& sysfs_root, const std::string& proc_root) {
  const fs::path sys(sysfs_root);
  const fs::path proc(proc_root);
  RawOutput out;
  out.origin = host + ": " + (sys / "module").string() + "/*, " + (proc / "driver/nvidia/version").string();
  out.text = "# gpudirect.txt v1: gpuconform's GPUDirect RDMA availability probe (sysfs, procfs); format in "
             "probes/gpudirect/gpudirect_parse.h\n";
  out.text += FormatRecord("gpudirect", {{"sysfs_root", sysfs_root},
                                         {"proc_root", proc_root},
                                         {"kernel_release", FirstLine(proc / "sys/kernel/osrelease")}}) +
              "\n";
  for (const auto& module : ModulesOfInterest()) {
    std::error_code ec;
    const bool loaded = fs::is_directory(sys / "module" / module, ec);
    out.text += FormatRecord("module", {{"name", module}, {"loaded", loaded ? "1" : "0"}}) + "\n";
  }
  const std::string version = FirstLine(sys / "module/nvidia/version");
  const std::string nvrm = NvrmLine(proc / "driver/nvidia/version");
  if (!version.empty() || !nvrm.empty()) {
    std::vector<std::pair<std::string, std::string>> fields = {{"version", version}};
    if (!nvrm.empty()) fields.push_back({"open_kernel_module", Contains(nvrm, "Open Kernel Module") ? "1" : "0"});
    fields.push_back({"nvrm", nvrm});
    out.text += FormatRecord("driver", fields) + "\n";
  }
  out.status = ProbeStatus::kOk;
  return out;
}

RawOutput GpuDirectOutput(const LiveContext& context) {
  return GpuDirectOutputAt(context.host, context.options.sysfs_root, "/proc");
}

const ProbeSpec& GpuDirectProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("gpudirect", ProbeScope::kNode, "gpudirect.txt", GpuDirectOutput);
  return kSpec;
}

}  // namespace gpuconform::gpudirect
