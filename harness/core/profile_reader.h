// The reading of a profile's YAML, strictly, for the profile's frame and for every section
// read elsewhere (a suite's or a tool's own section, registered with
// ProfileSectionRegistration): a mapping's keys checked against what it allows (a typo gets
// "did you mean"), typed values, required and forbidden keys, and the `source:` every section
// with numbers must give. The first problem found is the profile's error, as
// "file:line:key.path: what"; later ones are usually its consequences and are not reported.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace gpuconform::profile_yaml {

// "a, b, c"
std::string JoinViews(const std::vector<std::string_view>& parts);
// The line of a YAML mark, from 1 (yaml-cpp counts from 0 and uses -1 for "no position").
int LineOf(const YAML::Mark& mark);
// A key or value as messages show it: printable, at most 40 characters.
std::string Printable(std::string_view value);
std::string Shown(std::string_view value);  // Printable, quoted
// A quoted scalar is a string in YAML even when it looks like a number: '8' is not 8.
bool IsStringTyped(const YAML::Node& node);
// "the quoted string '8'", "a list", "a mapping", ...
std::string Described(const YAML::Node& node);
// The allowed key nearest to a misspelt one, or empty when none is near.
std::string_view ClosestKey(std::string_view key, const std::vector<std::string_view>& allowed);

// The keys of one YAML mapping, checked against what its section allows.
struct Fields {
  std::string path;  // "gpu", "allreduce[1]"; empty at the top level
  int line = 1;      // where the section starts, for "missing" messages
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> by_key;  // key node, value node

  std::string PathOf(std::string_view key) const {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  bool Has(std::string_view key) const { return by_key.count(std::string(key)) > 0; }
  int LineOf(std::string_view key) const {
    auto found = by_key.find(std::string(key));
    return found == by_key.end() ? line : profile_yaml::LineOf(found->second.first.Mark());
  }
  const YAML::Node* Value(std::string_view key) const {
    auto found = by_key.find(std::string(key));
    return found == by_key.end() ? nullptr : &found->second.second;
  }
};

// Reads a profile tree, remembering the first problem found. Later problems are often
// consequences of the first, so they are not reported.
class ProfileReader {
 public:
  explicit ProfileReader(std::string file) : file_(std::move(file)) {}

  const std::optional<std::string>& error() const { return error_; }

  void Fail(int line, std::string_view key_path, std::string_view message) {
    if (error_) return;
    std::string located = file_ + ":" + std::to_string(line) + ":";
    if (!key_path.empty()) located += std::string(key_path) + ":";
    error_ = located + " " + std::string(message);
  }

  std::optional<Fields> Mapping(const YAML::Node& node, std::string path, int line,
                                const std::vector<std::string_view>& allowed) {
    if (!node.IsMap()) {
      Fail(line, path, "expected a mapping, got " + Described(node));
      return std::nullopt;
    }
    Fields fields{std::move(path), line, {}};
    for (const auto& entry : node) {
      if (!AddField(fields, entry.first, entry.second, allowed)) return std::nullopt;
    }
    return fields;
  }

  std::optional<std::string> String(const Fields& fields, std::string_view key) {
    const YAML::Node* value = fields.Value(key);
    if (!value) return std::nullopt;
    if (!value->IsScalar()) {
      Fail(fields.LineOf(key), fields.PathOf(key), "expected a string, got " + Described(*value));
      return std::nullopt;
    }
    return value->Scalar();
  }

  std::optional<std::string> NonEmptyString(const Fields& fields, std::string_view key) {
    std::optional<std::string> text = String(fields, key);
    if (text && text->empty()) {
      Fail(fields.LineOf(key), fields.PathOf(key), "must not be empty");
      return std::nullopt;
    }
    return text;
  }

  std::optional<bool> Bool(const Fields& fields, std::string_view key) {
    const YAML::Node* value = fields.Value(key);
    if (!value) return std::nullopt;
    static const std::map<std::string, bool, std::less<>> kSpellings = {
        {"true", true}, {"True", true}, {"TRUE", true}, {"false", false}, {"False", false}, {"FALSE", false}};
    if (value->IsScalar() && !IsStringTyped(*value)) {
      auto found = kSpellings.find(value->Scalar());
      if (found != kSpellings.end()) return found->second;
    }
    Fail(fields.LineOf(key), fields.PathOf(key), "expected true or false, got " + Described(*value));
    return std::nullopt;
  }

  std::optional<long long> PositiveInteger(const Fields& fields, std::string_view key,
                                           long long max = std::numeric_limits<int>::max()) {
    const YAML::Node* value = fields.Value(key);
    if (!value) return std::nullopt;
    long long number = 0;
    const std::errc parsed = ParsePlainScalar(*value, number);
    if (parsed == std::errc::result_out_of_range) {
      Fail(fields.LineOf(key), fields.PathOf(key), "too large, got " + Shown(value->Scalar()));
      return std::nullopt;
    }
    if (parsed != std::errc()) {
      Fail(fields.LineOf(key), fields.PathOf(key), "expected an integer, got " + Described(*value));
      return std::nullopt;
    }
    return CheckedPositive(fields, key, number, static_cast<double>(max), value->Scalar());
  }

  std::optional<double> PositiveNumber(const Fields& fields, std::string_view key) {
    const YAML::Node* value = fields.Value(key);
    if (!value) return std::nullopt;
    double number = 0;
    if (ParsePlainScalar(*value, number) != std::errc() || !std::isfinite(number)) {
      Fail(fields.LineOf(key), fields.PathOf(key), "expected a number, got " + Described(*value));
      return std::nullopt;
    }
    return CheckedPositive(fields, key, number, std::numeric_limits<double>::max(), value->Scalar());
  }

  std::optional<std::vector<std::string>> StringList(const Fields& fields, std::string_view key) {
    const YAML::Node* value = fields.Value(key);
    if (!value) return std::nullopt;
    if (!value->IsSequence()) {
      Fail(fields.LineOf(key), fields.PathOf(key), "expected a list, got " + Described(*value));
      return std::nullopt;
    }
    std::vector<std::string> items;
    for (std::size_t i = 0; i < value->size(); ++i) {
      const YAML::Node item = (*value)[i];
      const std::string item_path = fields.PathOf(key) + "[" + std::to_string(i) + "]";
      if (!item.IsScalar() || item.Scalar().empty()) {
        Fail(LineOf(item.Mark()), item_path, "expected a non-empty string, got " + Described(item));
        return std::nullopt;
      }
      if (std::find(items.begin(), items.end(), item.Scalar()) != items.end()) {
        Fail(LineOf(item.Mark()), item_path, Shown(item.Scalar()) + " is listed twice");
        return std::nullopt;
      }
      items.push_back(item.Scalar());
    }
    return items;
  }

  void Require(const Fields& fields, std::initializer_list<std::string_view> keys, std::string_view why) {
    for (std::string_view key : keys) {
      if (!fields.Has(key)) Fail(fields.line, fields.PathOf(key), "missing; " + std::string(why));
    }
  }

  void Forbid(const Fields& fields, std::initializer_list<std::string_view> keys, std::string_view why) {
    for (std::string_view key : keys) {
      if (fields.Has(key)) Fail(fields.LineOf(key), fields.PathOf(key), "not allowed: " + std::string(why));
    }
  }

  // The contract: every section that holds numbers says where they came from.
  void RequireSourceFor(const Fields& fields, std::initializer_list<std::string_view> number_keys) {
    const bool holds_numbers = std::any_of(number_keys.begin(), number_keys.end(),
                                           [&](std::string_view key) { return fields.Has(key); });
    if (holds_numbers && !fields.Has("source")) {
      Fail(fields.line, fields.PathOf("source"),
           "missing; a section that holds numbers must say where they come from "
           "(a datasheet, a published baseline, a measured run)");
    }
  }

 private:
  bool AddField(Fields& fields, const YAML::Node& key, const YAML::Node& value,
                const std::vector<std::string_view>& allowed) {
    if (!key.IsScalar()) {
      Fail(LineOf(key.Mark()), fields.path, "expected a key name, got " + Described(key));
      return false;
    }
    const std::string& name = key.Scalar();
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      const std::string shown_name = name.empty() ? "''" : Printable(name);
      Fail(LineOf(key.Mark()), fields.PathOf(shown_name), UnknownKeyMessage(fields.path, name, allowed));
      return false;
    }
    if (fields.Has(name)) {
      Fail(LineOf(key.Mark()), fields.PathOf(name),
           "duplicate key (first given at line " + std::to_string(fields.LineOf(name)) + ")");
      return false;
    }
    fields.by_key.emplace(name, std::make_pair(key, value));
    return true;
  }

  static std::string UnknownKeyMessage(const std::string& path, const std::string& name,
                                       const std::vector<std::string_view>& allowed) {
    std::string message = "unknown key";
    const std::string_view closest = ClosestKey(name, allowed);
    if (!closest.empty()) message += "; did you mean '" + std::string(closest) + "'?";
    const std::string where = path.empty() ? "a profile" : path;
    return message + " (" + where + " takes: " + JoinViews(allowed) + ")";
  }

  // The whole plain scalar must be the number: "8 GPUs", "0x8" and "8.0" (for an integer) fail.
  template <typename Number>
  static std::errc ParsePlainScalar(const YAML::Node& node, Number& number) {
    if (!node.IsScalar() || IsStringTyped(node)) return std::errc::invalid_argument;
    const std::string& text = node.Scalar();
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, number);
    if (error != std::errc()) return error;
    return stop == end ? std::errc() : std::errc::invalid_argument;
  }

  template <typename Number>
  std::optional<Number> CheckedPositive(const Fields& fields, std::string_view key, Number number, double max,
                                        const std::string& text) {
    if (number <= 0) {
      Fail(fields.LineOf(key), fields.PathOf(key), "must be positive, got " + Shown(text));
      return std::nullopt;
    }
    if (static_cast<double>(number) > max) {
      Fail(fields.LineOf(key), fields.PathOf(key), "too large, got " + Shown(text));
      return std::nullopt;
    }
    return number;
  }

  std::string file_;
  std::optional<std::string> error_;
};

// Walks the mapping at fields[key] whose keys must be among `known` (a `noun` each: "component",
// "counter"), calling read(name, value, path) for each entry until it returns false. A value
// that is not a mapping, or an unknown key, fails naming it.
template <typename ReadEntry>
void ReadKnownKeys(ProfileReader& reader, const Fields& fields, std::string_view key, std::string_view shape,
                   std::string_view noun, const std::vector<std::string_view>& known, ReadEntry read) {
  const YAML::Node* map = fields.Value(key);
  if (!map) return;
  const std::string path = fields.PathOf(key);
  if (!map->IsMap()) {
    reader.Fail(fields.LineOf(key), path, "expected a mapping of " + std::string(shape) + ", got " + Described(*map));
    return;
  }
  for (const auto& entry : *map) {
    const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : "";
    const std::string entry_path = path + "." + Printable(name);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      reader.Fail(LineOf(entry.first.Mark()), entry_path,
                  "unknown " + std::string(noun) + " " + Shown(name) + " (known: " + JoinViews(known) + ")");
      return;
    }
    if (!read(name, entry.second, entry_path)) return;
  }
}

}  // namespace gpuconform::profile_yaml
