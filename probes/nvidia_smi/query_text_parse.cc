#include "probes/nvidia_smi/query_text_parse.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::nvidia_smi {

namespace {

// What nvidia-smi prints instead of a report when it cannot run at all.
constexpr std::string_view kFailureMarks[] = {
    "couldn't communicate with the NVIDIA driver",
    "No devices were found",
    "Failed to initialize NVML",
    "NVIDIA-SMI has failed",
};
constexpr std::string_view kNoHandle = "Unable to determine the device handle for GPU";

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

int IndentOf(std::string_view line) {
  int indent = 0;
  for (char c : line) {
    if (c == ' ') {
      ++indent;
    } else if (c == '\t') {
      indent += 4;
    } else {
      break;
    }
  }
  return indent;
}

// "GPU 00000000:18:00.0" at the left margin opens a GPU's record.
bool IsGpuHeader(std::string_view line) {
  if (!StartsWith(line, "GPU ")) return false;
  const std::string_view id = Trim(line.substr(4));
  return id.find(':') != std::string_view::npos && id.find(' ') == std::string_view::npos;
}

std::optional<int> SmallInt(std::string_view value) {
  std::string_view text = Trim(value);
  if (!text.empty() && (text.back() == 'x' || text.back() == 'X')) text.remove_suffix(1);
  const std::optional<long long> count = CountValue(text);
  if (!count || *count > 1000) return std::nullopt;
  return static_cast<int>(*count);
}

void AddCount(std::optional<long long>& field, std::string_view value) { field = SumCounts(field, CountValue(value)); }

// One "Key : Value" line of a GPU's record, by its path of section names (lower case).
void ApplyEcc(EccCounts& ecc, const std::vector<std::string>& rest, const std::string& key, std::string_view value) {
  if (!rest.empty() && (rest[0] == "single bit" || rest[0] == "double bit")) {
    // Before Ampere: per memory; the device memory is DRAM, the others on-chip SRAM.
    const bool corrected = rest[0] == "single bit";
    if (key == "total") return;
    if (key == "device memory") {
      (corrected ? ecc.dram_correctable : ecc.dram_uncorrectable) = CountValue(value);
    } else {
      AddCount(corrected ? ecc.sram_correctable : ecc.sram_uncorrectable, value);
    }
    return;
  }
  if (key == "sram correctable") ecc.sram_correctable = CountValue(value);
  if (key == "sram uncorrectable") ecc.sram_uncorrectable = CountValue(value);
  if (key == "sram uncorrectable parity" || key == "sram uncorrectable sec-ded")
    AddCount(ecc.sram_uncorrectable, value);
  if (key == "dram correctable") ecc.dram_correctable = CountValue(value);
  if (key == "dram uncorrectable") ecc.dram_uncorrectable = CountValue(value);
}

void ApplyGpuField(GpuRecord& gpu, const std::vector<std::string>& path, const std::string& key,
                   std::string_view value) {
  const std::string_view text = Trim(value);
  const std::string section = path.empty() ? "" : path[0];
  if (path.empty()) {
    if (key == "product name") gpu.product_name = text;
    if (key == "persistence mode") gpu.persistence_mode = text;
    if (key == "performance state") gpu.performance_state = text;
    if (key == "vbios version" && text != "N/A") gpu.vbios_version = text;
    return;
  }
  if (section == "inforom version" && path.size() == 1 && key == "image version" && text != "N/A") {
    gpu.inforom_image_version = text;
  }
  const std::vector<std::string> rest(path.begin() + 1, path.end());
  if (section == "ecc mode" && rest.empty() && key == "current") gpu.ecc_mode = text;
  if (section == "ecc errors" && !rest.empty()) {
    const std::vector<std::string> inner(rest.begin() + 1, rest.end());
    if (rest[0] == "volatile") ApplyEcc(gpu.volatile_ecc, inner, key, text);
    if (rest[0] == "aggregate") {
      ApplyEcc(gpu.aggregate_ecc, inner, key, text);
      if (key == "sram threshold exceeded") gpu.sram_threshold_exceeded = FlagValue(text);
    }
  }
  if (section == "retired pages") {
    if (key == "single bit ecc") gpu.retired_pages.single_bit_pages = CountValue(text);
    if (key == "double bit ecc") gpu.retired_pages.double_bit_pages = CountValue(text);
    if (StartsWith(key, "pending")) gpu.retired_pages.pending = FlagValue(text);
  }
  if (section == "remapped rows" && rest.empty()) {
    if (key == "correctable error") gpu.remapped_rows.correctable = CountValue(text);
    if (key == "uncorrectable error") gpu.remapped_rows.uncorrectable = CountValue(text);
    if (key == "pending") gpu.remapped_rows.pending = FlagValue(text);
    if (key == "remapping failure occurred") gpu.remapped_rows.failure = FlagValue(text);
  }
  if (section == "clocks event reasons" || section == "clocks throttle reasons") {
    ClockEventReasons& events = gpu.clock_events;
    if (key == "sw power cap") events.sw_power_cap = FlagValue(text);
    if (key == "hw slowdown") events.hw_slowdown = FlagValue(text);
    if (key == "hw thermal slowdown") events.hw_thermal_slowdown = FlagValue(text);
    if (key == "hw power brake slowdown") events.hw_power_brake_slowdown = FlagValue(text);
    if (key == "sw thermal slowdown") events.sw_thermal_slowdown = FlagValue(text);
  }
  if (section == "pci") {
    if (rest.empty() && key == "bus id") gpu.bus_id = CanonicalBusId(text);
    if (rest.size() == 2 && rest[0] == "gpu link info" && rest[1] == "pcie generation") {
      if (key == "max") gpu.pcie.max_gen = SmallInt(text);
      if (key == "current") gpu.pcie.current_gen = SmallInt(text);
    }
    if (rest.size() == 2 && rest[0] == "gpu link info" && rest[1] == "link width") {
      if (key == "max") gpu.pcie.max_width = SmallInt(text);
      if (key == "current") gpu.pcie.current_width = SmallInt(text);
    }
  }
  if (section == "fabric" && rest.empty()) {
    if (key == "state") gpu.fabric_state = text;
    if (key == "status") gpu.fabric_status = text;
  }
}

}  // namespace

std::optional<SmiFailure> FindSmiFailure(const std::string& output) {
  TextLines lines(output);
  while (const auto next = lines.Next()) {
    const std::string_view line = WithoutCarriageReturn(next->text);
    for (const std::string_view mark : kFailureMarks) {
      if (Contains(line, mark)) return SmiFailure{next->number, std::string(Trim(line)).substr(0, 300)};
    }
  }
  return std::nullopt;
}

std::vector<std::string> FindInaccessibleGpus(const std::string& output) {
  std::vector<std::string> bus_ids;
  for (const std::string_view line : SplitLines(output)) {
    const std::size_t at = line.find(kNoHandle);
    if (at == std::string_view::npos) continue;
    std::string_view id = Trim(line.substr(at + kNoHandle.size()));
    id = id.substr(0, id.find_first_of(" \t"));
    if (!id.empty() && id.back() == ':') id.remove_suffix(1);
    if (id.empty()) continue;
    const std::string bus_id = CanonicalBusId(id);
    if (std::find(bus_ids.begin(), bus_ids.end(), bus_id) == bus_ids.end()) bus_ids.push_back(bus_id);
  }
  return bus_ids;
}

Result<GpuInventory> ParseNvidiaSmiQueryText(const std::string& text, const std::string& origin) {
  if (auto failure = FindSmiFailure(text)) {
    return ErrorAt(origin, failure->line, "nvidia-smi could not query the GPUs: \"" + failure->text + "\"");
  }
  GpuInventory inventory;
  inventory.inaccessible_bus_ids = FindInaccessibleGpus(text);
  bool saw_log = false;
  GpuRecord* gpu = nullptr;
  std::vector<std::pair<int, std::string>> sections;  // (indent, lower-case name) inside a GPU
  for (const std::string_view raw_line : SplitLines(text)) {
    if (Contains(raw_line, "==NVSMI LOG==")) saw_log = true;
    if (Trim(raw_line).empty()) continue;
    if (IsGpuHeader(raw_line)) {
      GpuRecord record;
      record.index = static_cast<int>(inventory.gpus.size());
      record.bus_id = CanonicalBusId(Trim(raw_line.substr(4)));
      inventory.gpus.push_back(std::move(record));
      gpu = &inventory.gpus.back();
      sections.clear();
      continue;
    }
    const int indent = IndentOf(raw_line);
    const std::string_view line = Trim(raw_line);
    const std::size_t colon = line.find(':');
    std::string key = Lower(Trim(line.substr(0, colon)));
    while (!sections.empty() && sections.back().first >= indent) sections.pop_back();
    if (indent == 0) {
      gpu = nullptr;
      if (colon == std::string_view::npos) continue;
      const std::string_view value = Trim(line.substr(colon + 1));
      if (key == "driver version") inventory.driver_version = value;
      if (key == "cuda version") inventory.cuda_version = value;
      continue;
    }
    if (gpu == nullptr) continue;
    if (colon == std::string_view::npos) {
      sections.emplace_back(indent, std::move(key));
      continue;
    }
    std::vector<std::string> path;
    for (const auto& section : sections) path.push_back(section.second);
    ApplyGpuField(*gpu, path, key, line.substr(colon + 1));
  }
  if (inventory.gpus.empty() && inventory.inaccessible_bus_ids.empty() && !saw_log) {
    return ErrorAt(origin, 1, "not nvidia-smi -q output (no NVSMI LOG header and no \"GPU <bus id>\" record)");
  }
  return inventory;
}

}  // namespace gpuconform::nvidia_smi
