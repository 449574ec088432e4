#include "probes/nvidia_smi/query_xml_parse.h"

#include <charconv>
#include <pugixml.hpp>

#include "harness/text_util.h"

namespace gpuconform::nvidia_smi {

namespace {

int LineOfOffset(const std::string& text, std::ptrdiff_t offset) {
  int line = 1;
  for (std::ptrdiff_t i = 0; i < offset && i < static_cast<std::ptrdiff_t>(text.size()); ++i) {
    if (text[i] == '\n') ++line;
  }
  return line;
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

}  // namespace

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
    const pugi::xml_node link = gpu.child("pci").child("pci_gpu_link_info");
    record.pcie.max_gen = LeadingInt(link.child("pcie_gen").child_value("max_link_gen"));
    record.pcie.current_gen = LeadingInt(link.child("pcie_gen").child_value("current_link_gen"));
    record.pcie.max_width = LeadingInt(link.child("link_widths").child_value("max_link_width"));
    record.pcie.current_width = LeadingInt(link.child("link_widths").child_value("current_link_width"));
    record.fabric_state = Text(gpu.child("fabric"), "state");
    record.fabric_status = Text(gpu.child("fabric"), "status");
    inventory.gpus.push_back(std::move(record));
  }
  return inventory;
}

}  // namespace gpuconform::nvidia_smi
