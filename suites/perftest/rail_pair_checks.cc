#include "suites/perftest/rail_pair_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "harness/util/hostlist.h"
#include "harness/util/text_util.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/perftest/pair_error.h"

namespace gpuconform::perftest {

namespace {

std::string Measured(const RailPair& pair) {
  if (!pair.error.empty()) return "failed (" + pair.error + ")";
  return fmt::format("{:.1f} Gb/s", *pair.bw_average_gbit_per_s);
}

// "181.2 Gb/s with node-04, 180.4 Gb/s with node-01 (second pass)", each pair as `measured` says.
std::string PairsOf(const std::string& node, const std::vector<const RailPair*>& pairs,
                    std::string (*measured)(const RailPair&)) {
  std::vector<std::string> parts;
  for (const RailPair* pair : pairs) {
    if (pair->client != node && pair->server != node) continue;
    const std::string& peer = pair->client == node ? pair->server : pair->client;
    parts.push_back(measured(*pair) + " with " + peer + (pair->pass == 2 ? " (second pass)" : ""));
  }
  return Join(parts, ", ");
}

// Nodes with active rails that the pass could not pair because ib_write_bw is not installed
// there, as one finding naming them as a hostlist (a fleet missing perftest is one line).
std::optional<Finding> NodesWithoutPerftest(const std::vector<UnpairedNode>& unpaired) {
  std::vector<std::string> nodes;
  for (const UnpairedNode& node : unpaired) {
    if (node.ToolMissing() && !node.rails.empty()) nodes.push_back(node.node);
  }
  if (nodes.empty()) return std::nullopt;
  const std::string names = ShortHostlist(nodes);
  return Finding{"tool-missing", CompressHostlist(nodes),
                 fmt::format("{}: ib_write_bw (perftest) is not installed, so {} active rails were not measured "
                             "with any other node; install perftest there (apt install perftest, or dnf install "
                             "perftest) and rerun",
                             names, nodes.size() == 1 ? "its" : "their")};
}

// A pair whose `tool` run failed before it measured the rail (pair_error.h), with `error`: the
// tooling's finding, naming both nodes, the rail and perftest's own words; neither node is blamed.
Finding NotMeasuredPair(const RailPair& pair, const std::string& tool, const std::string& error) {
  return {"rail-pair-not-measured", pair.client + "," + pair.server,
          fmt::format("{} -> {} on rail {}{}: not measured by {}, in perftest's own words: \"{}\"; that is "
                      "perftest's setup, its deadline or its TCP handshake over the management network, not the "
                      "rail, so neither node is blamed: check that {} reaches {} by host name with no firewall on "
                      "TCP port 18515 and up, then run `{} -d {} -i {}` on {} and `{} -d {} -i {} {}` on {} by hand",
                      pair.client, pair.server, pair.Rail(), pair.pass == 2 ? " (second pass)" : "", tool, error,
                      pair.client, pair.server, tool, pair.hca, pair.port, pair.server, tool, pair.hca, pair.port,
                      pair.server, pair.client)};
}

// A rail's fault fails the check; what the tooling could not measure rides along with it, and
// alone makes the check an error: the pairs it left out were not judged.
CheckResult RailsJudged(std::vector<Finding> findings, std::vector<Finding> tooling) {
  if (findings.empty() && tooling.empty()) return Passed();
  if (findings.empty()) {
    CheckResult result = Passed();
    result.verdict = Verdict::kError;
    result.findings = std::move(tooling);
    return result;
  }
  for (auto& finding : tooling) findings.push_back(std::move(finding));
  return Failed(std::move(findings));
}

}  // namespace

CheckResult CheckRailPairs(const RailPairsFile& file, const RailFloor& floor) {
  std::map<std::string, std::vector<const RailPair*>> by_rail;
  for (const RailPair& pair : file.pairs) by_rail[pair.Rail()].push_back(&pair);

  std::vector<Finding> findings;
  std::vector<Finding> tooling;
  if (auto missing = NodesWithoutPerftest(file.unpaired)) tooling.push_back(std::move(*missing));
  std::vector<Measurement> measurements;
  const std::string threshold = fmt::format(">= {:g}", floor.gbit_per_s);
  for (const auto& [rail, rail_pairs] : by_rail) {
    std::vector<mpi_sweep::PairResult> results;
    for (const RailPair* pair : rail_pairs) {
      if (NotMeasured(*pair)) {
        tooling.push_back(NotMeasuredPair(*pair, "ib_write_bw", pair->error));
      } else {
        results.push_back(AsPairResult(*pair, floor.gbit_per_s));
      }
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
                       node, rail, floor.gbit_per_s, PairsOf(node, rail_pairs, Measured), rail_pairs.front()->hca,
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
  CheckResult result = RailsJudged(std::move(findings), std::move(tooling));
  result.measurements = std::move(measurements);
  return result;
}

namespace {

// A latency run that failed before it measured the rail (its handshake, its deadline) is the
// tooling's; one that failed while measuring counts as high, like a slow pair.
bool LatencyNotMeasured(const RailPair& pair) { return FailedBeforeMeasuring(pair.lat_error); }

bool LatencyHigh(const RailPair& pair, double ceiling_us) {
  if (!pair.lat_error.empty()) return !LatencyNotMeasured(pair);
  return pair.lat_average_us && *pair.lat_average_us > ceiling_us;
}

std::string LatencyOf(const RailPair& pair) {
  if (!pair.lat_error.empty()) return "failed (" + pair.lat_error + ")";
  return fmt::format("{:.2f} us", *pair.lat_average_us);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

CheckResult CheckRailLatency(const std::vector<RailPair>& pairs) {
  std::map<std::string, std::vector<const RailPair*>> by_rail;
  for (const RailPair& pair : pairs) {
    if (pair.lat_average_us || !pair.lat_error.empty()) by_rail[pair.Rail()].push_back(&pair);
  }
  if (by_rail.empty()) return Skipped("no pair carries ib_write_lat's latency (a pairing pass that measured bandwidth only)");
  std::vector<Finding> findings;
  std::vector<Finding> tooling;
  std::vector<Measurement> measurements;
  std::vector<std::string> too_few;
  for (const auto& [rail, all_pairs] : by_rail) {
    std::vector<const RailPair*> rail_pairs;
    for (const RailPair* pair : all_pairs) {
      if (LatencyNotMeasured(*pair)) {
        tooling.push_back(NotMeasuredPair(*pair, "ib_write_lat", pair->lat_error));
      } else {
        rail_pairs.push_back(pair);
      }
    }
    std::vector<double> latencies;
    for (const RailPair* pair : rail_pairs) {
      if (pair->lat_average_us) latencies.push_back(*pair->lat_average_us);
    }
    if (latencies.size() < 3) {
      too_few.push_back(rail);
      continue;
    }
    const double median = Median(latencies);
    const double ceiling = kLatencyMedianFactor * median;
    const std::string threshold = fmt::format("<= {:.2f}", ceiling);
    const std::string source = fmt::format("twice the median of rail {}'s pairs ({:.2f} us)", rail, median);
    std::vector<mpi_sweep::PairResult> results;
    for (const RailPair* pair : rail_pairs) {
      mpi_sweep::PairResult result{pair->client, pair->server, 0, 0, LatencyHigh(*pair, ceiling) ? "high" : ""};
      results.push_back(result);
      measurements.push_back({fmt::format("{}/port{}.pass{}.{}->{}.latency", pair->hca, pair->port, pair->pass,
                                          pair->client, pair->server),
                              pair->lat_average_us ? fmt::format("{:.2f}", *pair->lat_average_us) : "failed",
                              pair->lat_average_us ? "us" : "", threshold, source});
    }
    std::set<std::string> blamed;
    for (const auto& [node, count] : mpi_sweep::CountPairs(results, CountsAsSlow)) {
      if (!mpi_sweep::AllSlow(count)) continue;
      blamed.insert(node);
      findings.push_back(
          {"rail-latency-high", node,
           fmt::format("{}: rail {} is above {:.2f} us (twice the rail's median, {:.2f} us) in every pair it was "
                       "measured in ({}), while the nodes it was paired with meet it with others: check the link "
                       "it negotiated (`mlxlink -d {}` on {}: speed, width, FEC) and its cable and switch port",
                       node, rail, ceiling, median, PairsOf(node, rail_pairs, LatencyOf), rail_pairs.front()->hca, node)});
    }
    for (const RailPair* pair : rail_pairs) {
      if (!LatencyHigh(*pair, ceiling) || blamed.count(pair->client) || blamed.count(pair->server)) continue;
      findings.push_back(
          {"rail-pair-latency-high", pair->client + "," + pair->server,
           fmt::format("{} -> {} on rail {}: {} (twice the rail's median is {:.2f} us), while both nodes meet it "
                       "with other nodes: the path between them; run ibtracert and ibdiagnet between the two",
                       pair->client, pair->server, rail, LatencyOf(*pair), ceiling)});
    }
  }
  // A pair not measured makes the check an error even where too few pairs were left to judge.
  if (findings.empty() && tooling.empty() && measurements.empty()) {
    return Skipped("fewer than three pairs with a latency on every rail (" + Join(too_few, ", ") +
                   "): no median to compare them with");
  }
  CheckResult result = RailsJudged(std::move(findings), std::move(tooling));
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::perftest
