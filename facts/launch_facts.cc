#include "facts/launch_facts.h"

#include <algorithm>

#include "harness/util/text_util.h"

namespace gpuconform::facts {

std::string RankLaunch::Env(const std::string& name) const {
  auto it = env.find(name);
  return it == env.end() ? "" : it->second;
}

std::vector<RankLaunch> ParseRanks(const std::vector<RankInfo>& ranks) {
  std::vector<RankLaunch> parsed;
  for (const auto& info : ranks) {
    RankLaunch rank{info.rank, info.host, {}};
    for (auto line : SplitLines(info.env_text)) {
      const auto eq = line.find('=');
      if (eq != std::string_view::npos) rank.env[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
    }
    parsed.push_back(std::move(rank));
  }
  std::sort(parsed.begin(), parsed.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  return parsed;
}

const std::vector<RankLaunch>& ReadRankLaunches(const ClusterRaw& raw, const std::vector<RankInfo>& ranks) {
  return raw.facts.Get<std::vector<RankLaunch>>("rank-launch", "", [&] { return ParseRanks(ranks); });
}

}  // namespace gpuconform::facts
