#include "probes/nvml/nvml_parse.h"

#include <charconv>
#include <map>
#include <set>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::nvml {

namespace {

const std::set<std::string>& KnownRemotes() {
  static const std::set<std::string> kRemotes = {"nvswitch", "gpu", "ibmnpu", "unknown"};
  return kRemotes;
}

const std::map<std::string, std::string>& FabricStateWords() {
  static const std::map<std::string, std::string> kWords = {{"not-supported", "Not Supported"},
                                                            {"not-started", "Not Started"},
                                                            {"in-progress", "In Progress"},
                                                            {"completed", "Completed"}};
  return kWords;
}

// An optional integer field into an optional<int>, or the error.
std::optional<Error> ReadInt(const RecordLine& record, const std::string& key, const std::string& origin,
                             std::optional<int>& into) {
  auto value = IntegerField(record, key, origin);
  if (!value) return Error{value.error()};
  if (*value) into = static_cast<int>(**value);
  return std::nullopt;
}

// The error counters of a link line, each a whole unsigned 64-bit number where present.
std::optional<Error> ReadCounters(const RecordLine& record, const std::string& origin, NvmlLink& link) {
  for (const char* key : {nvidia_smi::kNvlinkReplay, nvidia_smi::kNvlinkRecovery, nvidia_smi::kNvlinkCrc}) {
    const std::string text = record.Get(key);
    if (text.empty()) continue;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      return ErrorAt(origin, record.line,
                     std::string(key) + " must be a whole number of errors, got " + QuoteForMessage(text));
    }
    link.error_counters[key] = value;
  }
  return std::nullopt;
}

Result<NvmlGpu> ReadGpu(const RecordLine& record, const std::string& origin) {
  NvmlGpu gpu;
  auto index = IntegerField(record, "index", origin);
  if (!index) return Error{index.error()};
  if (!*index || **index < 0) return ErrorAt(origin, record.line, "a gpu line needs index=<n>");
  gpu.index = static_cast<int>(**index);
  gpu.name = record.Get("name");
  gpu.bus_id = record.Get("bus_id");
  gpu.error = record.Get("error");
  for (const auto& [key, into] :
       {std::pair<const char*, std::optional<int>*>{"pcie_gen_current", &gpu.pcie.current_gen},
        {"pcie_gen_max", &gpu.pcie.max_gen},
        {"pcie_width_current", &gpu.pcie.current_width},
        {"pcie_width_max", &gpu.pcie.max_width}}) {
    if (auto error = ReadInt(record, key, origin, *into)) return *error;
  }
  gpu.fabric_state = record.Get("fabric_state");
  if (!gpu.fabric_state.empty() && FabricStateWords().count(gpu.fabric_state) == 0) {
    return ErrorAt(origin, record.line,
                   "fabric_state must be not-supported, not-started, in-progress or completed, got " +
                       QuoteForMessage(gpu.fabric_state));
  }
  gpu.fabric_status = record.Get("fabric_status");
  return gpu;
}

Result<NvmlLink> ReadLink(const RecordLine& record, const std::string& origin) {
  NvmlLink link;
  auto index = IntegerField(record, "link", origin);
  if (!index) return Error{index.error()};
  if (!*index || **index < 0) return ErrorAt(origin, record.line, "a link line needs link=<n>");
  link.link = static_cast<int>(**index);
  const std::string state = record.Get("state");
  if (state != "active" && state != "inactive") {
    return ErrorAt(origin, record.line, "state must be active or inactive, got " + QuoteForMessage(state));
  }
  link.active = state == "active";
  link.remote = record.Get("remote");
  if (!link.remote.empty() && KnownRemotes().count(link.remote) == 0) {
    return ErrorAt(origin, record.line,
                   "remote must be nvswitch, gpu, ibmnpu or unknown, got " + QuoteForMessage(link.remote));
  }
  link.remote_bus_id = record.Get("remote_bus_id");
  if (auto error = ReadInt(record, "version", origin, link.version)) return *error;
  auto speed = NumberField(record, "speed_mbyte_per_s", origin);
  if (!speed) return Error{speed.error()};
  if (*speed) link.speed_gb_per_s = **speed / 1000.0;
  if (auto error = ReadCounters(record, origin, link)) return *error;
  return link;
}

}  // namespace

Result<NvmlReport> ParseNvml(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  NvmlReport report;
  bool header = false;
  for (const auto& record : *records) {
    if (record.kind == "nvml") {
      if (header) return ErrorAt(origin, record.line, "a second nvml line");
      header = true;
      report.driver_version = record.Get("driver_version");
      std::optional<int> count;
      if (auto error = ReadInt(record, "device_count", origin, count)) return *error;
      report.device_count = count;
    } else if (!header) {
      return ErrorAt(origin, record.line, "expected the 'nvml ...' line first (is this gpuconform's nvml.txt?)");
    } else if (record.kind == "gpu") {
      auto gpu = ReadGpu(record, origin);
      if (!gpu) return Error{gpu.error()};
      for (const auto& seen : report.gpus) {
        if (seen.index == gpu->index)
          return ErrorAt(origin, record.line, "gpu index " + std::to_string(gpu->index) + " appears twice");
      }
      report.gpus.push_back(std::move(gpu).value());
    } else if (record.kind == "link") {
      auto owner = IntegerField(record, "gpu", origin);
      if (!owner) return Error{owner.error()};
      if (!*owner || report.gpus.empty() || report.gpus.back().index != **owner) {
        return ErrorAt(origin, record.line, "a link line must follow the gpu line of its gpu=");
      }
      auto link = ReadLink(record, origin);
      if (!link) return Error{link.error()};
      report.gpus.back().links.push_back(std::move(link).value());
    } else {
      return ErrorAt(origin, record.line, "unknown record '" + record.kind + "' (expected nvml, gpu or link)");
    }
  }
  if (!header) {
    return ErrorAt(origin, std::max(1, static_cast<int>(SplitLines(text).size())),
                   "no 'nvml ...' line (is this gpuconform's nvml.txt?)");
  }
  if (report.device_count && *report.device_count != static_cast<int>(report.gpus.size())) {
    return ErrorAt(origin, std::max(1, static_cast<int>(SplitLines(text).size())),
                   "the nvml line says device_count=" + std::to_string(*report.device_count) + " but " +
                       std::to_string(report.gpus.size()) + " gpu lines follow: the file is truncated");
  }
  return report;
}

nvidia_smi::GpuInventory ToGpuInventory(const NvmlReport& report) {
  nvidia_smi::GpuInventory inventory;
  inventory.driver_version = report.driver_version;
  for (const auto& gpu : report.gpus) {
    nvidia_smi::GpuRecord record;
    record.index = gpu.index;
    record.bus_id = gpu.bus_id;
    record.product_name = gpu.name;
    record.pcie = gpu.pcie;
    const auto word = FabricStateWords().find(gpu.fabric_state);
    record.fabric_state = word == FabricStateWords().end() ? "" : word->second;
    record.fabric_status = gpu.fabric_status == "success" ? "Success" : gpu.fabric_status;
    inventory.gpus.push_back(std::move(record));
  }
  return inventory;
}

NvlinkStatus ToNvlinkStatus(const NvmlReport& report) {
  NvlinkStatus status;
  for (const auto& gpu : report.gpus) {
    NvlinkGpu out;
    out.index = gpu.index;
    out.name = gpu.name;
    if (!gpu.error.empty()) out.all_inactive_message = "NVML could not read the GPU: " + gpu.error;
    for (const auto& link : gpu.links) {
      NvlinkLink converted;
      converted.index = link.link;
      converted.active = link.active;
      converted.speed_reported = link.speed_gb_per_s.has_value();
      converted.speed_gb_per_s = link.speed_gb_per_s.value_or(0);
      converted.remote = link.remote;
      converted.remote_bus_id = link.remote_bus_id;
      out.links.push_back(converted);
    }
    status.gpus.push_back(std::move(out));
  }
  return status;
}

std::optional<nvidia_smi::NvlinkErrorReport> ToNvlinkErrors(const NvmlReport& report, const std::string& origin) {
  nvidia_smi::NvlinkErrorReport errors;
  errors.origin = origin;
  bool any = false;
  for (const NvmlGpu& gpu : report.gpus) {
    nvidia_smi::NvlinkGpuErrors out{gpu.index, gpu.name, "", {}};
    for (const NvmlLink& link : gpu.links) {
      if (link.error_counters.empty()) continue;
      any = true;
      out.links.push_back({link.link, link.error_counters});
    }
    errors.gpus.push_back(std::move(out));
  }
  if (!any) return std::nullopt;
  return errors;
}

}  // namespace gpuconform::nvml
