#include "probes/nvidia_smi/query_xml_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <pugixml.hpp>

#include "harness/util/text_util.h"

namespace gpuconform::nvidia_smi {

namespace {

// The 1-based line of a byte offset (pugixml names where the XML broke by offset): one past
// the newlines before it.
int LineOfOffset(const std::string& text, std::ptrdiff_t offset) {
  const auto end = text.begin() + std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size()));
  return 1 + static_cast<int>(std::count(text.begin(), end, '\n'));
}

// "5" -> 5 and "16x" -> 16; "N/A", "Unknown" and absent elements -> unset.
std::optional<int> LeadingInt(const char* value) {
  const std::string_view text = Trim(value);
  int number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  const std::string_view rest = text.substr(static_cast<std::size_t>(end - text.data()));
  if (!rest.empty() && rest != "x" && rest != "X") return std::nullopt;
  return number;
}

std::string Text(const pugi::xml_node& node, const char* child) { return std::string(Trim(node.child_value(child))); }

// A version field, empty where the driver says "N/A" (no version is not a version to compare).
std::string ReportedText(const pugi::xml_node& node, const char* child) {
  std::string text = Text(node, child);
  return text == "N/A" ? "" : text;
}

std::optional<long long> Count(const pugi::xml_node& node, const char* child) {
  return CountValue(node.child_value(child));
}

// Before Ampere (schema v10) each memory has its own single_bit/double_bit count; the device
// memory is DRAM and every other one (register file, L1, L2, texture, CBU) is on-chip SRAM.
std::optional<long long> LegacySram(const pugi::xml_node& bits) {
  std::optional<long long> sum;
  for (const pugi::xml_node memory : bits.children()) {
    const std::string_view name = memory.name();
    if (name == "device_memory" || name == "total" || name == "dram") continue;
    sum = SumCounts(sum, CountValue(memory.child_value()));
  }
  return sum;
}

EccCounts ParseEccCounts(const pugi::xml_node& counts) {
  EccCounts ecc;
  if (counts.child("single_bit") || counts.child("double_bit")) {
    ecc.dram_correctable = Count(counts.child("single_bit"), "device_memory");
    ecc.dram_uncorrectable = Count(counts.child("double_bit"), "device_memory");
    ecc.sram_correctable = LegacySram(counts.child("single_bit"));
    ecc.sram_uncorrectable = LegacySram(counts.child("double_bit"));
    return ecc;
  }
  ecc.sram_correctable = Count(counts, "sram_correctable");
  ecc.sram_uncorrectable = counts.child("sram_uncorrectable") ? Count(counts, "sram_uncorrectable")
                                                              : SumCounts(Count(counts, "sram_uncorrectable_parity"),
                                                                    Count(counts, "sram_uncorrectable_secded"));
  ecc.dram_correctable = Count(counts, "dram_correctable");
  ecc.dram_uncorrectable = Count(counts, "dram_uncorrectable");
  return ecc;
}

// Driver 535 renamed clocks_throttle_reasons to clocks_event_reasons (and each child's prefix).
ClockEventReasons ParseClockEvents(const pugi::xml_node& gpu) {
  std::string prefix = "clocks_event_reason_";
  pugi::xml_node reasons = gpu.child("clocks_event_reasons");
  if (!reasons) {
    reasons = gpu.child("clocks_throttle_reasons");
    prefix = "clocks_throttle_reason_";
  }
  auto flag = [&](const char* name) { return FlagValue(reasons.child_value((prefix + name).c_str())); };
  ClockEventReasons events;
  events.sw_power_cap = flag("sw_power_cap");
  events.hw_slowdown = flag("hw_slowdown");
  events.hw_thermal_slowdown = flag("hw_thermal_slowdown");
  events.hw_power_brake_slowdown = flag("hw_power_brake_slowdown");
  events.sw_thermal_slowdown = flag("sw_thermal_slowdown");
  return events;
}

void ParseHealth(const pugi::xml_node& gpu, GpuRecord& record) {
  record.persistence_mode = Text(gpu, "persistence_mode");
  record.ecc_mode = Text(gpu.child("ecc_mode"), "current_ecc");
  const pugi::xml_node ecc = gpu.child("ecc_errors");
  record.volatile_ecc = ParseEccCounts(ecc.child("volatile"));
  record.aggregate_ecc = ParseEccCounts(ecc.child("aggregate"));
  record.sram_threshold_exceeded = FlagValue(ecc.child("aggregate").child_value("sram_threshold_exceeded"));
  const pugi::xml_node retired = gpu.child("retired_pages");
  record.retired_pages.single_bit_pages = Count(retired.child("multiple_single_bit_retirement"), "retired_count");
  record.retired_pages.double_bit_pages = Count(retired.child("double_bit_retirement"), "retired_count");
  // Schema v10 says pending_retirement, later ones pending_blacklist.
  record.retired_pages.pending = retired.child("pending_blacklist")
                                     ? FlagValue(retired.child_value("pending_blacklist"))
                                     : FlagValue(retired.child_value("pending_retirement"));
  const pugi::xml_node rows = gpu.child("remapped_rows");
  record.remapped_rows.correctable = Count(rows, "remapped_row_corr");
  record.remapped_rows.uncorrectable = Count(rows, "remapped_row_unc");
  record.remapped_rows.pending = FlagValue(rows.child_value("remapped_row_pending"));
  record.remapped_rows.failure = FlagValue(rows.child_value("remapped_row_failure"));
  record.clock_events = ParseClockEvents(gpu);
}

}  // namespace

std::optional<long long> EccCounts::Uncorrectable() const { return SumCounts(sram_uncorrectable, dram_uncorrectable); }
std::optional<long long> EccCounts::Correctable() const { return SumCounts(sram_correctable, dram_correctable); }

std::optional<bool> FlagValue(std::string_view value) {
  const std::string_view text = Trim(value);
  if (text == "Yes" || text == "Active" || text == "Enabled") return true;
  if (text == "No" || text == "Not Active" || text == "Disabled") return false;
  return std::nullopt;
}

std::optional<long long> CountValue(std::string_view value) {
  const std::string_view text = Trim(value);
  long long number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data() || number < 0) return std::nullopt;
  const std::string_view rest = Trim(text.substr(static_cast<std::size_t>(end - text.data())));
  if (!rest.empty() && rest != "bank(s)") return std::nullopt;
  return number;
}

std::optional<long long> SumCounts(std::optional<long long> a, std::optional<long long> b) {
  if (!a) return b;
  if (!b) return a;
  long long sum = 0;
  if (__builtin_add_overflow(*a, *b, &sum)) return std::numeric_limits<long long>::max();
  return sum;
}

std::string CanonicalBusId(std::string_view bus_id) {
  std::string id(Trim(bus_id));
  for (char& c : id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::size_t colon = id.find(':');
  // The domain is 4 hex digits in the kernel's spelling and 8 in nvidia-smi's.
  if (colon != std::string::npos && colon < 8) id = std::string(8 - colon, '0') + id;
  return id;
}

std::string GpuDisplayName(const GpuRecord& gpu) {
  return "GPU " + std::to_string(gpu.index) + (gpu.bus_id.empty() ? "" : " (" + gpu.bus_id + ")");
}

Result<GpuInventory> ParseNvidiaSmiGpus(const std::string& xml, const std::string& origin) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    return ErrorAt(origin, LineOfOffset(xml, parsed.offset), std::string("invalid XML: ") + parsed.description());
  }
  const pugi::xml_node log = doc.child("nvidia_smi_log");
  if (!log) return ErrorAt(origin, 1, "not nvidia-smi -q -x output (no <nvidia_smi_log> root)");

  GpuInventory inventory;
  inventory.driver_version = Text(log, "driver_version");
  inventory.cuda_version = Text(log, "cuda_version");
  int index = 0;
  for (const pugi::xml_node gpu : log.children("gpu")) {
    GpuRecord record;
    record.index = index++;
    record.bus_id = Trim(gpu.attribute("id").value());
    if (record.bus_id.empty()) record.bus_id = Text(gpu.child("pci"), "pci_bus_id");
    record.product_name = Text(gpu, "product_name");
    record.performance_state = Text(gpu, "performance_state");
    record.vbios_version = ReportedText(gpu, "vbios_version");
    record.inforom_image_version = ReportedText(gpu.child("inforom_version"), "img_version");
    const pugi::xml_node link = gpu.child("pci").child("pci_gpu_link_info");
    record.pcie.max_gen = LeadingInt(link.child("pcie_gen").child_value("max_link_gen"));
    record.pcie.current_gen = LeadingInt(link.child("pcie_gen").child_value("current_link_gen"));
    record.pcie.max_width = LeadingInt(link.child("link_widths").child_value("max_link_width"));
    record.pcie.current_width = LeadingInt(link.child("link_widths").child_value("current_link_width"));
    record.fabric_state = Text(gpu.child("fabric"), "state");
    record.fabric_status = Text(gpu.child("fabric"), "status");
    ParseHealth(gpu, record);
    inventory.gpus.push_back(std::move(record));
  }
  return inventory;
}

}  // namespace gpuconform::nvidia_smi
