#include "probes/ib_counters/ib_counters_probe.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/ib_counters/ib_counters_parse.h"

namespace gpuconform::ib_counters {

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> SortedEntries(const fs::path& dir) {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace

RawOutput IbCountersOutput(const LiveContext& context) {
  const fs::path class_dir = fs::path(context.options.sysfs_root) / "class" / "infiniband";
  RawOutput out;
  out.origin = context.host + ": " + class_dir.string() + "/*/ports/*/counters/*";
  const auto devices = SortedEntries(class_dir);
  out.text = "# ib-counters.txt v1: gpuconform's RDMA port counter probe (sysfs); format in "
             "probes/ib_counters/ib_counters_parse.h\n";
  out.text += FormatRecord("ib-counters", {{"sysfs_root", context.options.sysfs_root},
                                           {"device_count", std::to_string(devices.size())}}) +
              "\n";
  for (const auto& device : devices) {
    for (const auto& port : SortedEntries(device / "ports")) {
      for (const auto& info : KnownCounters()) {
        std::ifstream in(port / "counters" / info.name);
        std::string value;
        if (!in || !std::getline(in, value)) continue;  // the driver does not keep this one
        out.text += FormatRecord("counter", {{"device", device.filename().string()},
                                             {"port", port.filename().string()},
                                             {"name", info.name},
                                             {"value", std::string(Trim(value))}}) +
                    "\n";
      }
    }
  }
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& IbCountersProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("ib-counters", ProbeScope::kNode, "ib-counters.txt", IbCountersOutput);
  return kSpec;
}

}  // namespace gpuconform::ib_counters
