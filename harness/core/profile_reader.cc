#include "harness/core/profile_reader.h"

#include <cstdio>

#include "harness/util/edit_distance.h"

namespace gpuconform::profile_yaml {

namespace {

constexpr std::size_t kMaxShownValueChars = 40;
constexpr std::string_view kYamlStringTag = "tag:yaml.org,2002:str";
constexpr std::string_view kQuotedScalarTag = "!";

}  // namespace

std::string JoinViews(const std::vector<std::string_view>& parts) {
  std::string joined;
  for (std::string_view part : parts) {
    if (!joined.empty()) joined += ", ";
    joined += part;
  }
  return joined;
}

int LineOf(const YAML::Mark& mark) { return mark.line >= 0 ? mark.line + 1 : 1; }

// Keys and values end up in messages; binary garbage and megabyte scalars must not.
std::string Printable(std::string_view value) {
  std::string shown;
  for (std::size_t i = 0; i < value.size() && i < kMaxShownValueChars; ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x7f) {
      shown += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      shown += escaped;
    }
  }
  if (value.size() > kMaxShownValueChars) shown += "...";
  return shown;
}

std::string Shown(std::string_view value) { return "'" + Printable(value) + "'"; }

// A quoted scalar is a string in YAML even when it looks like a number: '8' is not 8.
bool IsStringTyped(const YAML::Node& node) {
  return node.Tag() == kQuotedScalarTag || node.Tag() == kYamlStringTag;
}

std::string Described(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return (IsStringTyped(node) ? "the quoted string " : "") + Shown(node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "nothing";
  }
}

std::string_view ClosestKey(std::string_view key, const std::vector<std::string_view>& allowed) {
  std::string_view closest;
  std::size_t best = std::max<std::size_t>(2, key.size() / 3) + 1;
  for (std::string_view candidate : allowed) {
    const std::size_t distance = EditDistance(key, candidate);
    if (distance < best) {
      best = distance;
      closest = candidate;
    }
  }
  return closest;
}

}  // namespace gpuconform::profile_yaml
