#include "probes/nic_pcie/nic_pcie_parse.h"

#include <map>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::nic_pcie {

namespace {

// sysfs prints the width as a bare lane count ("16"); some tools paste it as "x16".
Result<std::optional<int>> Width(const RecordLine& record, const std::string& key, const std::string& origin) {
  if (!record.Has(key)) return std::optional<int>();
  const std::string value = record.Get(key);  // Get returns a copy: the view must not outlive it
  std::string_view text = value;
  if (StartsWith(text, "x")) text.remove_prefix(1);
  const auto lanes = WholeInteger(text);
  if (!lanes || *lanes < 0 || *lanes > 32) {
    return ErrorAt(origin, record.line,
                   key + " must be a lane count such as 16, got " + QuoteForMessage(value));
  }
  // 0 is what a link that is down reports: no lanes, and no maximum to compare with.
  return *lanes == 0 && key == "max_link_width" ? std::optional<int>() : std::optional<int>(static_cast<int>(*lanes));
}

}  // namespace

std::optional<int> PcieGenerationOfSpeed(const std::string& speed) {
  static const std::map<double, int> kGenByRate = {{2.5, 1}, {5, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}, {128, 7}};
  const auto words = SplitWords(speed);
  if (words.size() < 2 || words[1] != "GT/s") return std::nullopt;
  const auto rate = WholeNumber(words[0]);
  if (!rate) return std::nullopt;
  const auto it = kGenByRate.find(*rate);
  return it == kGenByRate.end() ? std::nullopt : std::optional<int>(it->second);
}

Result<NicPcieReport> ParseNicPcie(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  NicPcieReport report;
  bool header = false;
  long long expected = 0;
  for (const auto& record : *records) {
    if (record.kind == "nic-pcie") {
      if (header) return ErrorAt(origin, record.line, "a second nic-pcie line");
      header = true;
      report.sysfs_root = record.Get("sysfs_root");
      auto count = IntegerField(record, "device_count", origin);
      if (!count) return Error{count.error()};
      if (!*count || **count < 0) return ErrorAt(origin, record.line, "the nic-pcie line needs device_count=<n>");
      expected = **count;
    } else if (!header) {
      return ErrorAt(origin, record.line,
                     "expected the 'nic-pcie ...' line first (is this gpuconform's nic-pcie.txt?)");
    } else if (record.kind == "nic") {
      NicPcieLink nic;
      auto name = RequiredField(record, "name", origin);
      if (!name) return Error{name.error()};
      nic.name = *name;
      nic.bus_id = record.Get("bus_id");
      nic.current_speed = record.Get("current_link_speed");
      nic.max_speed = record.Get("max_link_speed");
      nic.current_gen = PcieGenerationOfSpeed(nic.current_speed);
      nic.max_gen = PcieGenerationOfSpeed(nic.max_speed);
      auto current_width = Width(record, "current_link_width", origin);
      if (!current_width) return Error{current_width.error()};
      auto max_width = Width(record, "max_link_width", origin);
      if (!max_width) return Error{max_width.error()};
      nic.current_width = *current_width;
      nic.max_width = *max_width;
      report.nics.push_back(std::move(nic));
    } else {
      return ErrorAt(origin, record.line, "unknown record '" + record.kind + "' (expected nic-pcie or nic)");
    }
  }
  const int last_line = std::max(1, static_cast<int>(SplitLines(text).size()));
  if (!header) return ErrorAt(origin, last_line, "no 'nic-pcie ...' line (is this gpuconform's nic-pcie.txt?)");
  if (static_cast<long long>(report.nics.size()) != expected) {
    return ErrorAt(origin, last_line,
                   "the nic-pcie line says device_count=" + std::to_string(expected) + " but " +
                       std::to_string(report.nics.size()) + " nic lines follow: the file is truncated");
  }
  return report;
}

}  // namespace gpuconform::nic_pcie
