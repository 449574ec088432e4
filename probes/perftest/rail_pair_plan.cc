#include "probes/perftest/rail_pair_plan.h"

#include <set>

#include "probes/mpi_sweep/pair_results.h"
#include "probes/perftest/pair_error.h"
#include "probes/perftest/rail_floor.h"

namespace gpuconform::perftest {

namespace {

// One rail's pairs into rounds: each pair goes into the first round in which neither of its
// nodes is busy. A ring of n nodes needs 2 rounds (n even) or 3 (n odd).
std::vector<Round> IntoRounds(const std::vector<PlannedPair>& pairs) {
  std::vector<Round> rounds;
  std::vector<std::set<std::string>> busy;
  for (const auto& pair : pairs) {
    std::size_t r = 0;
    while (r < rounds.size() && (busy[r].count(pair.client) || busy[r].count(pair.server))) ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back();
    }
    rounds[r].push_back(pair);
    busy[r].insert(pair.client);
    busy[r].insert(pair.server);
  }
  return rounds;
}

}  // namespace

std::vector<Round> RingRounds(const RailsByNode& nodes) {
  std::map<Rail, std::vector<std::string>> ring;
  for (const auto& [node, rails] : nodes) {
    for (const Rail& rail : rails) ring[rail].push_back(node);
  }
  std::vector<Round> rounds;
  for (const auto& [rail, members] : ring) {
    if (members.size() < 2) continue;
    std::vector<PlannedPair> pairs;
    // Two nodes make one pair, not the same pair twice.
    const std::size_t count = members.size() == 2 ? 1 : members.size();
    for (std::size_t i = 0; i < count; ++i) pairs.push_back({1, members[i], members[(i + 1) % members.size()], rail});
    for (auto& round : IntoRounds(pairs)) rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<Round> ConfirmationRounds(const std::vector<RailPair>& first_pass, double floor_gbit_per_s) {
  std::map<Rail, std::vector<mpi_sweep::PairResult>> by_rail;
  for (const RailPair& pair : first_pass) {
    if (pair.pass != 1 || NotMeasured(pair)) continue;
    by_rail[{pair.hca, pair.port}].push_back(AsPairResult(pair, floor_gbit_per_s));
  }
  std::vector<Round> rounds;
  for (const auto& [rail, pairs] : by_rail) {
    std::vector<PlannedPair> planned;
    for (const auto& [suspect, good] :
         mpi_sweep::ConfirmationPairs(pairs, CountsAsSlow)) {
      planned.push_back({2, suspect, good, rail});
    }
    for (auto& round : IntoRounds(planned)) rounds.push_back(std::move(round));
  }
  return rounds;
}

}  // namespace gpuconform::perftest
