#include "harness/core/case_filter.h"

#include <utility>

namespace gpuconform {

namespace {

// "A:B" -> "A:A/*:B:B/*" for patterns that name a whole check.
std::string ExpandPatterns(const std::string& patterns) {
  std::string expanded;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    auto end = patterns.find(':', start);
    if (end == std::string::npos) end = patterns.size();
    const std::string piece = patterns.substr(start, end - start);
    if (!piece.empty()) {
      if (!expanded.empty()) expanded += ':';
      expanded += piece;
      if (piece.find_first_of("*?/") == std::string::npos) expanded += ":" + piece + "/*";
    }
    start = end + 1;
  }
  return expanded;
}

// GoogleTest's pattern syntax: '*' any run, '?' one character.
bool GlobMatches(const char* pattern, const char* name) {
  if (*pattern == '\0') return *name == '\0';
  if (*pattern == '*') return GlobMatches(pattern + 1, name) || (*name != '\0' && GlobMatches(pattern, name + 1));
  if (*name == '\0') return false;
  return (*pattern == '?' || *pattern == *name) && GlobMatches(pattern + 1, name + 1);
}

// Whether any of the ':'-separated patterns matches the whole name; `before_slash` matches
// only each pattern's part before its first '/'.
bool AnyPatternMatches(const std::string& patterns, const std::string& name, bool before_slash = false) {
  std::size_t start = 0;
  while (start <= patterns.size()) {
    auto end = patterns.find(':', start);
    if (end == std::string::npos) end = patterns.size();
    std::string pattern = patterns.substr(start, end - start);
    if (before_slash) pattern = pattern.substr(0, pattern.find('/'));
    if (!pattern.empty() && GlobMatches(pattern.c_str(), name.c_str())) return true;
    start = end + 1;
  }
  return false;
}

// A filter split once into its expanded positive and negative patterns.
struct ExpandedFilter {
  std::string positive;
  std::string negative;
};

ExpandedFilter Expand(const std::string& filter) {
  const std::string expanded = ExpandCheckFilter(filter);
  const auto dash = expanded.find('-');
  const std::string positive = expanded.substr(0, dash);
  return {positive.empty() ? "*" : positive, dash == std::string::npos ? "" : expanded.substr(dash + 1)};
}

bool Selects(const ExpandedFilter& filter, const std::string& test_name) {
  return AnyPatternMatches(filter.positive, test_name) && !AnyPatternMatches(filter.negative, test_name);
}

}  // namespace

bool FilterMaySelect(const std::string& filter, const std::string& suite, const std::string& check) {
  const std::string positive = filter.substr(0, filter.find('-'));
  return positive.empty() || AnyPatternMatches(positive, suite + "." + check, /*before_slash=*/true);
}

std::string ExpandCheckFilter(const std::string& filter) {
  if (filter.empty()) return "*";
  // GoogleTest syntax: POSITIVE[-NEGATIVE]; only the first '-' separates, so node names
  // with dashes stay intact in the negative part.
  const auto dash = filter.find('-');
  if (dash == std::string::npos) return ExpandPatterns(filter);
  const std::string positive = ExpandPatterns(filter.substr(0, dash));
  return (positive.empty() ? "*" : positive) + "-" + ExpandPatterns(filter.substr(dash + 1));
}

std::string FilterAlsoSelecting(const std::string& filter, const std::string& check) {
  const auto dash = filter.find('-');
  const std::string positive = filter.substr(0, dash);
  const std::string negative = dash == std::string::npos ? "" : filter.substr(dash);
  if (positive.empty() || positive == "*") return filter;  // already selects everything
  return positive + ":" + check + negative;
}

bool FilterSelects(const std::string& filter, const std::string& test_name) {
  return Selects(Expand(filter), test_name);
}

std::vector<CheckResult> SelectCases(std::vector<CheckResult> results, const std::string& filter) {
  const ExpandedFilter expanded = Expand(filter);
  // In place: a second vector of a fleet's cases would double their share of the peak.
  std::erase_if(results, [&](const CheckResult& result) { return !Selects(expanded, result.TestName()); });
  return results;
}

}  // namespace gpuconform
