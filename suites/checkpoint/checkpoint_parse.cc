#include "suites/checkpoint/checkpoint_parse.h"

#include <charconv>

#include "harness/text_util.h"

namespace gpuconform::checkpoint {

std::string ProbeRecord::Field(const std::string& key) const {
  const auto found = fields.find(key);
  return found == fields.end() ? "" : found->second;
}

std::optional<double> ProbeRecord::Number(const std::string& key) const {
  const std::string text = Field(key);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || stop != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<const ProbeRecord*> NodeCheckpointReport::All(const std::string& name) const {
  std::vector<const ProbeRecord*> found;
  for (const auto& record : records) {
    if (record.name == name) found.push_back(&record);
  }
  return found;
}

const ProbeRecord* NodeCheckpointReport::First(const std::string& name) const {
  for (const auto& record : records) {
    if (record.name == name) return &record;
  }
  return nullptr;
}

namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

Result<ProbeRecord> ParseLine(std::string_view line, int number, const std::string& origin) {
  ProbeRecord record;
  record.line = number;
  std::size_t i = 0;
  while (i < line.size() && IsNameChar(line[i])) ++i;
  record.name = std::string(line.substr(0, i));
  if (record.name.empty()) return ErrorAt(origin, number, "expected a record name, got " + QuoteForMessage(line));
  while (i < line.size()) {
    if (line[i] != ' ') return ErrorAt(origin, number, "expected a space before a field in " + QuoteForMessage(line));
    ++i;
    const std::size_t key_start = i;
    while (i < line.size() && IsNameChar(line[i])) ++i;
    if (i == key_start || i >= line.size() || line[i] != '=') {
      return ErrorAt(origin, number, "expected key=value in " + QuoteForMessage(line.substr(key_start)));
    }
    const std::string key(line.substr(key_start, i - key_start));
    ++i;
    std::string value;
    if (i < line.size() && line[i] == '"') {
      const std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) {
        return ErrorAt(origin, number, "unterminated quoted value for " + key);
      }
      value = std::string(line.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      const std::size_t end = std::min(line.find(' ', i), line.size());
      value = std::string(line.substr(i, end - i));
      i = end;
    }
    record.fields[key] = value;
  }
  return record;
}

}  // namespace

Result<NodeCheckpointReport> ParseCheckpointReport(const std::string& text, const std::string& node,
                                                   const std::string& origin) {
  NodeCheckpointReport report;
  report.node = node;
  report.origin = origin;
  int number = 0;
  for (std::string_view line : SplitLines(text)) {
    ++number;
    if (Trim(line).empty()) continue;
    auto record = ParseLine(line, number, origin);
    if (!record) return Error{record.error()};
    if (report.records.empty() && (record->name != "checkpoint-probe" || record->Field("version") != "1")) {
      return ErrorAt(origin, number,
                     "not a Checkpoint probe output (expected 'checkpoint-probe version=1' first), got " +
                         QuoteForMessage(line));
    }
    report.records.push_back(std::move(*record));
  }
  if (report.records.empty()) return ErrorAt(origin, 1, "empty Checkpoint probe output");
  return report;
}

}  // namespace gpuconform::checkpoint
