#include "harness/util/hostlist.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace gpuconform {

namespace {

// "gpu00012" -> prefix "gpu", digits "00012". A group is a prefix and a width; width 0 holds
// the unpadded numbers (node1 and node10 belong together, as Slurm writes node[1,10]).
struct Group {
  std::string prefix;
  std::size_t width = 0;
  std::vector<unsigned long long> numbers;
};

std::string Number(unsigned long long number, std::size_t width) {
  std::string text = std::to_string(number);
  if (text.size() < width) text.insert(0, width - text.size(), '0');
  return text;
}

std::string Render(Group& group) {
  std::sort(group.numbers.begin(), group.numbers.end());
  group.numbers.erase(std::unique(group.numbers.begin(), group.numbers.end()), group.numbers.end());
  if (group.numbers.size() == 1) return group.prefix + Number(group.numbers.front(), group.width);
  std::string ranges;
  for (std::size_t i = 0; i < group.numbers.size();) {
    std::size_t j = i;
    while (j + 1 < group.numbers.size() && group.numbers[j + 1] == group.numbers[j] + 1) ++j;
    if (!ranges.empty()) ranges += ",";
    ranges += Number(group.numbers[i], group.width);
    if (j > i) ranges += "-" + Number(group.numbers[j], group.width);
    i = j + 1;
  }
  return group.prefix + "[" + ranges + "]";
}

// Where a name's number starts; names.size() when it has none (or one too long to hold).
std::size_t DigitsAt(const std::string& name) {
  const std::size_t at = name.find_last_not_of("0123456789") + 1;
  return at == name.size() || name.size() - at > 18 ? name.size() : at;
}

}  // namespace

std::string CompressHostlist(const std::vector<std::string>& names) {
  // Zero-padded widths per prefix first, so gpu10000 joins gpu[00001-09999] in any order.
  std::set<std::pair<std::string, std::size_t>> padded;
  for (const auto& name : names) {
    const std::size_t at = DigitsAt(name);
    if (name.size() - at > 1 && name[at] == '0') padded.emplace(name.substr(0, at), name.size() - at);
  }
  std::vector<Group> groups;
  std::vector<std::string> order;  // a group's key, or a name kept as it is
  std::set<std::string> kept;      // the names kept as they are, so each is looked up once
  std::map<std::pair<std::string, std::size_t>, std::size_t> group_of;
  for (const auto& name : names) {
    const std::size_t digits_at = DigitsAt(name);
    const std::string digits = name.substr(digits_at);
    // Names without a number are kept as they are.
    if (digits.empty()) {
      if (kept.insert(name).second) order.push_back("=" + name);
      continue;
    }
    const std::string prefix = name.substr(0, digits_at);
    const std::size_t width = padded.count({prefix, digits.size()}) ? digits.size() : 0;
    const auto key = std::make_pair(prefix, width);
    auto [it, added] = group_of.try_emplace(key, groups.size());
    if (added) {
      groups.push_back({key.first, width, {}});
      order.push_back("#" + std::to_string(it->second));
    }
    groups[it->second].numbers.push_back(std::stoull(digits));
  }
  std::string text;
  for (const auto& entry : order) {
    if (!text.empty()) text += ",";
    text += entry.front() == '=' ? entry.substr(1) : Render(groups[std::stoul(entry.substr(1))]);
  }
  return text;
}

namespace {

// How many names "03-07" stands for (5); 1 for a single number, and for anything that is not a
// range of numbers: a name that itself holds '[' or ',' (a hand-edited snapshot) renders
// brackets CompressHostlist did not write, and a count must not throw on them.
std::size_t RangeSize(std::string_view range) {
  const std::size_t dash = range.find('-');
  if (dash == std::string_view::npos) return 1;
  unsigned long long low = 0, high = 0;
  const auto [low_end, low_error] = std::from_chars(range.data(), range.data() + dash, low);
  const auto [high_end, high_error] = std::from_chars(range.data() + dash + 1, range.data() + range.size(), high);
  const bool numbers = low_error == std::errc() && high_error == std::errc() && low_end == range.data() + dash &&
                       high_end == range.data() + range.size();
  return numbers && high >= low ? static_cast<std::size_t>(high - low + 1) : 1;
}

// How many names a hostlist written by CompressHostlist stands for: "a,gpu[01-03,07]" is 5.
std::size_t CountHostlistNames(std::string_view hostlist) {
  std::size_t count = 0;
  std::size_t entry_start = 0;
  bool in_brackets = false;
  for (std::size_t i = 0; i <= hostlist.size(); ++i) {
    const char c = i < hostlist.size() ? hostlist[i] : ',';
    if (c == '[') {
      in_brackets = true;
      entry_start = i + 1;
    } else if (c == ']' || (c == ',' && in_brackets)) {
      count += RangeSize(hostlist.substr(entry_start, i - entry_start));
      entry_start = i + 1;
      if (c == ']') in_brackets = false;
    } else if (c == ',' && !in_brackets) {
      if (i > 0 && hostlist[i - 1] != ']') ++count;  // a plain name
      entry_start = i + 1;
    }
  }
  return count;
}

}  // namespace

std::string ShortHostlist(const std::vector<std::string>& names, std::size_t max_chars) {
  const std::string full = CompressHostlist(names);
  if (full.size() <= max_chars) return full;
  // Cut at a comma outside brackets, so no range is split; where the first group alone is longer
  // than the limit, at a comma inside it, closing the bracket.
  std::size_t cut = 0, cut_in_group = 0;
  int depth = 0;
  for (std::size_t i = 0; i < full.size() && i <= max_chars; ++i) {
    if (full[i] == '[') ++depth;
    if (full[i] == ']') --depth;
    if (full[i] == ',' && depth == 0) cut = i;
    if (full[i] == ',' && depth > 0 && cut == 0) cut_in_group = i;
  }
  if (cut == 0 && cut_in_group == 0) return full;  // nowhere to cut: one name or one range
  const std::string shown = cut > 0 ? full.substr(0, cut) : full.substr(0, cut_in_group) + "]";
  return shown + ", ... and " + std::to_string(CountHostlistNames(full) - CountHostlistNames(shown)) + " more";
}

}  // namespace gpuconform
