#include "suites/perftest/rail_pair_checks.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "harness/text_util.h"
#include "probes/mpi_sweep/pair_results.h"

namespace gpuconform::perftest {

namespace {

std::string Measured(const RailPair& pair) {
  if (!pair.error.empty()) return "failed (" + pair.error + ")";
  return fmt::format("{:.1f} Gb/s", *pair.bw_average_gbit_per_s);
}

// "181.2 Gb/s with node-04, 180.4 Gb/s with node-01 (second pass)".
std::string PairsOf(const std::string& node, const std::vector<const RailPair*>& pairs) {
  std::vector<std::string> parts;
  for (const RailPair* pair : pairs) {
    if (pair->client != node && pair->server != node) continue;
    const std::string& peer = pair->client == node ? pair->server : pair->client;
    parts.push_back(Measured(*pair) + " with " + peer + (pair->pass == 2 ? " (second pass)" : ""));
  }
  return Join(parts, ", ");
}

}  // namespace

CheckResult CheckRailPairs(const std::vector<RailPair>& pairs, const RailFloor& floor) {
  std::map<std::string, std::vector<const RailPair*>> by_rail;
  for (const RailPair& pair : pairs) by_rail[pair.Rail()].push_back(&pair);

  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  const std::string threshold = fmt::format(">= {:g}", floor.gbit_per_s);
  for (const auto& [rail, rail_pairs] : by_rail) {
    std::vector<mpi_sweep::PairResult> results;
    for (const RailPair* pair : rail_pairs) {
      results.push_back(AsPairResult(*pair, floor.gbit_per_s));
      measurements.push_back({fmt::format("{}/port{}.pass{}.{}->{}", pair->hca, pair->port, pair->pass, pair->client,
                                          pair->server),
                              pair->error.empty() ? fmt::format("{:.2f}", *pair->bw_average_gbit_per_s) : "failed",
                              pair->error.empty() ? "Gbit/s" : "", threshold, floor.source});
    }
    const auto counts = mpi_sweep::CountPairs(results, CountsAsSlow);
    std::set<std::string> blamed;
    for (const auto& [node, count] : counts) {
      if (!mpi_sweep::AllSlow(count)) continue;
      blamed.insert(node);
      findings.push_back(
          {"rail-bandwidth-low", node,
           fmt::format("{}: rail {} is below {:g} Gb/s in every pair it was measured in ({}), while the nodes it "
                       "was paired with pass with others: the node's HCA or cable on that rail; check `mlxlink -d "
                       "{}` and `ibstat {}` on {}, then reseat or replace the cable or the HCA",
                       node, rail, floor.gbit_per_s, PairsOf(node, rail_pairs), rail_pairs.front()->hca,
                       rail_pairs.front()->hca, node)});
    }
    for (const RailPair* pair : rail_pairs) {
      if (!IsSlow(*pair, floor.gbit_per_s) || blamed.count(pair->client) || blamed.count(pair->server)) continue;
      findings.push_back(
          {"rail-pair-slow", pair->client + "," + pair->server,
           fmt::format("{} -> {} on rail {}: {} (floor {:g} Gb/s), while both nodes pass with other nodes: the path "
                       "between them (a leaf or spine switch port, or a cable in the fabric); run ibdiagnet or check "
                       "the switch ports' counters on that path",
                       pair->client, pair->server, rail, Measured(*pair), floor.gbit_per_s)});
    }
  }
  if (!findings.empty()) {
    CheckResult result = Failed(std::move(findings));
    result.measurements = std::move(measurements);
    return result;
  }
  CheckResult result = Passed();
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::perftest
