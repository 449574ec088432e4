#include "harness/util/record_lines.h"

#include <algorithm>
#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform {

namespace {

bool IsKeyChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; }

bool IsControl(char c) { return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f; }

}  // namespace

const std::string* RecordLine::Find(std::string_view key) const {
  const auto it = std::lower_bound(fields.begin(), fields.end(), key,
                                   [](const auto& field, std::string_view wanted) { return field.first < wanted; });
  return it != fields.end() && it->first == key ? &it->second : nullptr;
}

std::string RecordLine::Get(std::string_view key) const {
  const std::string* value = Find(key);
  return value == nullptr ? "" : *value;
}

Result<std::vector<RecordLine>> ParseRecordLines(const std::string& text, const std::string& origin) {
  std::vector<RecordLine> records;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line = Trim(WithoutCarriageReturn(next->text));
    if (line.empty() || line.front() == '#') continue;
    RecordLine record;
    record.line = number;
    std::size_t at = 0;
    while (at < line.size() && IsKeyChar(line[at])) ++at;
    record.kind = std::string(line.substr(0, at));
    if (record.kind.empty() || (at < line.size() && line[at] != ' ' && line[at] != '\t')) {
      return ErrorAt(origin, number, "expected '<kind> key=value ...', got " + QuoteForMessage(line));
    }
    while (at < line.size()) {
      while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
      if (at >= line.size()) break;
      const std::size_t key_start = at;
      while (at < line.size() && IsKeyChar(line[at])) ++at;
      const std::string key(line.substr(key_start, at - key_start));
      if (key.empty() || at >= line.size() || line[at] != '=') {
        return ErrorAt(origin, number, "expected key=value, got " + QuoteForMessage(line.substr(key_start)));
      }
      ++at;
      std::string value;
      if (at < line.size() && line[at] == '"') {
        const auto close = line.find('"', at + 1);
        if (close == std::string_view::npos) {
          return ErrorAt(origin, number, "unterminated quoted value of " + key);
        }
        value = std::string(line.substr(at + 1, close - at - 1));
        at = close + 1;
        if (at < line.size() && line[at] != ' ' && line[at] != '\t') {
          return ErrorAt(origin, number, "expected a space after the quoted value of " + key);
        }
      } else {
        const std::size_t value_start = at;
        while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '"') ++at;
        if (at < line.size() && line[at] == '"') {
          return ErrorAt(origin, number, "stray '\"' in the value of " + key);
        }
        value = std::string(line.substr(value_start, at - value_start));
      }
      for (const char c : value) {
        if (IsControl(c)) return ErrorAt(origin, number, "control character in the value of " + key);
      }
      for (const auto& field : record.fields) {
        if (field.first == key) return ErrorAt(origin, number, "key " + key + " appears twice");
      }
      record.fields.emplace_back(key, std::move(value));
    }
    std::sort(record.fields.begin(), record.fields.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    records.push_back(std::move(record));
  }
  return records;
}

std::string FormatRecord(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out = kind;
  for (const auto& [key, raw] : fields) {
    std::string value = raw;
    bool needs_quotes = value.empty();
    for (char& c : value) {
      if (c == '"') c = '\'';
      if (IsControl(c)) c = ' ';
      if (c == ' ') needs_quotes = true;
    }
    out += " " + key + "=" + (needs_quotes ? "\"" + value + "\"" : value);
  }
  return out;
}

std::optional<long long> WholeInteger(std::string_view text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> WholeCount(std::string_view text) {
  text = Trim(text);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> WholeNumber(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Result<std::optional<long long>> IntegerField(const RecordLine& record, const std::string& key,
                                              const std::string& origin) {
  if (!record.Has(key)) return std::optional<long long>();
  const auto value = WholeInteger(record.Get(key));
  if (!value) {
    return ErrorAt(origin, record.line, key + " must be a whole number, got " + QuoteForMessage(record.Get(key)));
  }
  return std::optional<long long>(*value);
}

Result<std::optional<double>> NumberField(const RecordLine& record, const std::string& key, const std::string& origin) {
  if (!record.Has(key)) return std::optional<double>();
  const auto value = WholeNumber(record.Get(key));
  if (!value) return ErrorAt(origin, record.line, key + " must be a number, got " + QuoteForMessage(record.Get(key)));
  return std::optional<double>(*value);
}

Result<std::string> RequiredField(const RecordLine& record, const std::string& key, const std::string& origin) {
  if (record.Get(key).empty()) {
    return ErrorAt(origin, record.line, "a " + record.kind + " line needs " + key + "=");
  }
  return record.Get(key);
}

}  // namespace gpuconform
