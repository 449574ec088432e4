#include "harness/world/launch_ranks_file.h"

#include "harness/util/line_source.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform {

std::string FormatLaunchRanks(const std::vector<RankInfo>& ranks) {
  std::string text = "# gpuconform launch facts: each rank's number, host and launch environment\n";
  for (const auto& rank : ranks) {
    text += "rank " + std::to_string(rank.rank) + " " + rank.host + "\n";
    for (std::string_view line : SplitLines(rank.env_text)) {
      if (!line.empty()) text += "  " + std::string(line) + "\n";
    }
  }
  return text;
}

Result<std::vector<RankInfo>> ParseLaunchRanks(const std::string& text, const std::string& origin) {
  std::vector<RankInfo> ranks;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line = WithoutCarriageReturn(next->text);
    if (line.empty() || line.front() == '#') continue;
    if (StartsWith(line, "  ")) {
      if (ranks.empty()) return ErrorAt(origin, number, "an environment line before any 'rank' line");
      ranks.back().env_text += std::string(line.substr(2)) + "\n";
      continue;
    }
    const auto words = SplitWords(line);
    const auto rank = words.size() == 3 && words[0] == "rank" ? WholeInteger(words[1]) : std::nullopt;
    if (!rank || *rank < 0) return ErrorAt(origin, number, "expected 'rank N HOST', got " + QuoteForMessage(line));
    ranks.push_back({static_cast<int>(*rank), std::string(words[2]), ""});
  }
  return ranks;
}

}  // namespace gpuconform
