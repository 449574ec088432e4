#include "suites/allreduce/allreduce_checks.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <optional>

#include "harness/util/text_util.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::allreduce {

using namespace gpuconform::nccl_tests;

namespace {

std::string FormatNumber(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

// Two decimals as nccl-tests prints them; small rates (the 100 Mbit/s eth0 is 0.0125 GB/s)
// keep three significant digits so they do not print as 0.01.
std::string FormatGbPerS(double gb_per_s) {
  return FormatNumber(gb_per_s >= 1 ? "%.2f" : "%.3g", gb_per_s);
}

std::string MeasurementName(long long size_bytes, const std::string& what = "busbw") {
  std::string name = what + "@" + HumanSize(size_bytes);
  std::erase(name, ' ');
  return name;
}

std::string Plural(long long count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string Participants(const BandwidthTable& table) {
  std::vector<std::string> parts;
  if (table.nodes > 0) parts.push_back(Plural(table.nodes, "node"));
  if (table.ranks > 0) parts.push_back(Plural(table.ranks, "rank"));
  return parts.empty() ? "" : " (" + Join(parts, ", ") + ")";
}

const AllreduceFloor* FloorAt(const std::vector<AllreduceFloor>& floors, long long size_bytes) {
  for (const auto& floor : floors) {
    if (floor.size_bytes == size_bytes) return &floor;
  }
  return nullptr;
}

const BandwidthRow* RowAt(const BandwidthTable& table, long long size_bytes) {
  for (const auto& row : table.rows) {
    if (row.size_bytes == size_bytes) return &row;
  }
  return nullptr;
}

std::string FloorNodeCounts(const Profile& profile) {
  std::vector<std::string> counts;
  for (const auto& floor : profile.GetOrDefault<AllreduceFloors>().floors) {
    const std::string count = std::to_string(floor.nodes);
    if (std::find(counts.begin(), counts.end(), count) == counts.end()) counts.push_back(count);
  }
  return Join(counts, ", ");
}

// The floors that apply to the table, or the reason none can be chosen.
struct FloorChoice {
  std::vector<AllreduceFloor> floors;
  std::optional<CheckResult> verdict;  // set when the check ends here (skip or error)
};

FloorChoice ChooseFloors(const BandwidthTable& table, const Profile& profile) {
  FloorChoice choice;
  const std::vector<AllreduceFloor>& floors = profile.GetOrDefault<AllreduceFloors>().floors;
  if (floors.empty()) {
    choice.verdict = Skipped("profile " + profile.name + " states no allreduce busbw floor");
    return choice;
  }
  if (table.nodes <= 0) {
    // With one floor there is nothing to choose; with several, guessing the node count
    // could pass a 2-node run against a laxer floor.
    if (floors.size() == 1) {
      choice.floors = floors;
      return choice;
    }
    const int implied_ranks = RanksImpliedByBusbw(table);
    choice.verdict = Errored("node-count-unknown",
        table.origin + ": the table does not say how many nodes took part (no '#  Rank N ... on HOST' lines" +
            (implied_ranks > 0 ? "; busbw/algbw implies " + Plural(implied_ranks, "rank") : std::string()) +
            ") and profile " + profile.name + " has floors for " + FloorNodeCounts(profile) +
            " nodes: keep the device lines nccl-tests prints before the table, or state the node count");
    return choice;
  }
  for (const auto& floor : floors) {
    if (floor.nodes == table.nodes) choice.floors.push_back(floor);
  }
  if (choice.floors.empty()) {
    choice.verdict = Skipped("profile " + profile.name + " states no allreduce busbw floor for " +
                                 Plural(table.nodes, "node") + " (it has floors for " + FloorNodeCounts(profile) +
                                 " nodes)");
  }
  return choice;
}

// nccl-tests' -e takes K, M and G suffixes (binary); "16G" reads better than 17179869184.
std::string MaxBytesFlag(long long size_bytes) {
  static const std::pair<long long, const char*> kSuffixes[] = {{1LL << 30, "G"}, {1LL << 20, "M"}, {1LL << 10, "K"}};
  for (const auto& [unit, suffix] : kSuffixes) {
    if (size_bytes >= unit && size_bytes % unit == 0) return std::to_string(size_bytes / unit) + suffix;
  }
  return std::to_string(size_bytes);
}

std::vector<Measurement> BusbwMeasurements(const BandwidthTable& table, const std::vector<AllreduceFloor>& floors) {
  std::vector<Measurement> measurements;
  for (const auto& row : table.rows) {
    Measurement measurement{MeasurementName(row.size_bytes), FormatGbPerS(row.busbw_gb_per_s), "GB/s", "", ""};
    if (const AllreduceFloor* floor = FloorAt(floors, row.size_bytes)) {
      measurement.threshold = ">= " + FormatNumber("%g", floor->busbw_floor_gb_per_s);
      measurement.source = floor->source;
    }
    measurements.push_back(measurement);
  }
  return measurements;
}

// A busbw no higher than twice the management NIC's line rate is that NIC's signature: the
// fabric would be tens to hundreds of times faster. Below the line rate counts too: an
// allreduce on a shaped 100 Mbit/s link with a latency-bound algorithm lands well under it.
std::string ManagementNetworkDiagnosis(const BandwidthTable& table, const Profile& profile) {
  if (!profile.nccl || profile.nccl->management_rate_gbit_per_s <= 0 || table.rows.empty()) return "";
  const double busbw = table.rows.back().busbw_gb_per_s;
  const double rate_gb_per_s = profile.nccl->management_rate_gbit_per_s / 8;
  if (busbw > 2 * rate_gb_per_s) return "";
  const std::string management =
      profile.nccl->forbidden_ifnames.empty() ? "management interface" : profile.nccl->forbidden_ifnames.front();
  const std::string fabric =
      profile.nccl->socket_ifname.empty() ? "the fabric interface" : profile.nccl->socket_ifname;
  return "busbw " + FormatGbPerS(busbw) + " GB/s is at most the " + management + " rate (" + FormatGbPerS(rate_gb_per_s) +
         " GB/s): collectives are probably on " + management + "; set NCCL_SOCKET_IFNAME=" + fabric +
         " / OMPI_MCA_btl_tcp_if_include=" + fabric;
}

// "; NCCL log: ...: fix" for a failure message, or nothing when the log does not say.
std::string TransportDiagnosis(const nccl_log::InterNodeTransport* transport) {
  if (transport == nullptr || transport->kind == nccl_log::InterNodeTransport::Kind::kUnknown) return "";
  return "; " + transport->evidence + ": " + transport->fix;
}

}  // namespace

std::string HumanSize(long long size_bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  long long value = size_bytes;
  while (unit < 5 && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  return std::to_string(value) + " " + kUnits[unit];
}

CheckResult CheckBusbwAtFloors(const BandwidthTable& table, const Profile& profile,
                               const nccl_log::InterNodeTransport* transport) {
  if (table.rows.empty()) {
    return Errored("not-measured", table.origin + ": the allreduce sweep has no rows");
  }
  FloorChoice choice = ChooseFloors(table, profile);
  if (choice.verdict) {
    choice.verdict->measurements = BusbwMeasurements(table, {});
    return *choice.verdict;
  }
  const std::string diagnosis = ManagementNetworkDiagnosis(table, profile);
  std::vector<Finding> below;
  std::vector<std::string> missing;
  for (const auto& floor : choice.floors) {
    const std::string size = HumanSize(floor.size_bytes);
    const BandwidthRow* row = RowAt(table, floor.size_bytes);
    if (!row) {
      missing.push_back("the sweep has no row at " + size + " (" + std::to_string(floor.size_bytes) +
                        " B); run up to that size (-e " + MaxBytesFlag(floor.size_bytes) + ")");
      continue;
    }
    if (row->busbw_gb_per_s >= floor.busbw_floor_gb_per_s) continue;
    std::string message = table.origin + ": allreduce busbw " + FormatGbPerS(row->busbw_gb_per_s) + " GB/s at " +
                          size + Participants(table) + " is below the floor of " +
                          FormatNumber("%g", floor.busbw_floor_gb_per_s) + " GB/s (source: " + floor.source + ")";
    if (!diagnosis.empty()) message += "; " + diagnosis;
    message += TransportDiagnosis(transport);
    below.push_back({"busbw-below-floor", "cluster", message});
  }
  CheckResult result = Passed();
  if (!below.empty()) {
    for (const auto& gap : missing) below.push_back({"size-not-measured", "cluster", table.origin + ": " + gap});
    result = Failed(std::move(below));
  } else if (!missing.empty()) {
    result = Errored("size-not-measured", table.origin + ": " + Join(missing, "; "));
  }
  result.measurements = BusbwMeasurements(table, choice.floors);
  return result;
}

CheckResult CheckEfficiencyAgainstFabric(const BandwidthTable& table, const Profile& profile,
                                         const nccl_log::InterNodeTransport* transport) {
  const FabricExpectation* fabric = profile.Get<FabricExpectation>();
  if (fabric == nullptr) {
    return Skipped("profile " + profile.name + " declares no fabric bandwidth (fabric section)");
  }
  if (table.rows.empty()) {
    return Errored("not-measured", table.origin + ": the allreduce sweep has no rows");
  }
  const BandwidthRow& row = table.rows.back();
  if (table.nodes <= 0) {
    // Guessing would move the bound by the factor N/(N-1) and pass or fail on the guess.
    const int ranks_implied = RanksImpliedByBusbw(table);
    return Errored("node-count-unknown",
                   table.origin + ": the table does not say how many nodes took part (no '#  Rank N ... on HOST' "
                                  "lines" +
                       (ranks_implied > 0 ? "; busbw/algbw implies " + Plural(ranks_implied, "rank") : std::string()) +
                       "), so the fabric bound cannot be computed: keep the device lines nccl-tests prints before the "
                       "table");
  }
  const int nodes = table.nodes;
  // Tables without device lines still state algbw and busbw, whose ratio gives the ranks.
  const int implied_ranks = RanksImpliedByBusbw(table);
  const int ranks = table.ranks > 0 ? table.ranks : implied_ranks > 0 ? implied_ranks : nodes;
  if (nodes < 2) {
    return Skipped("one node: the sweep did not cross the fabric");
  }
  const double node_gb_per_s = fabric->node_bandwidth_gbit_per_s / 8;
  // Each node moves 2(N-1)/N x bytes over its fabric (N nodes), so the fabric needs
  // bound_time; busbw's own factor uses the rank count, hence the bound in busbw terms.
  const double bound_time_s = 2.0 * (nodes - 1) / nodes * static_cast<double>(row.size_bytes) / (node_gb_per_s * 1e9);
  const double bound_time_ms = bound_time_s * 1e3;
  const double bound_gb_per_s =
      AllreduceBusBandwidth(static_cast<double>(row.size_bytes) / bound_time_s / 1e9, ranks);
  const double efficiency = row.busbw_gb_per_s / bound_gb_per_s;
  const double floor = fabric->allreduce_efficiency_floor_fraction;
  CheckResult result = Passed();
  result.measurements.push_back({MeasurementName(row.size_bytes, "efficiency"), fmt::format("{:.3f}", efficiency), "",
                                 floor > 0 ? fmt::format(">= {:.3f}", floor) : "", fabric->source});
  result.measurements.push_back({MeasurementName(row.size_bytes, "fabric_bound_time_ms"),
                                 fmt::format("{:.3f}", bound_time_ms), "ms", "", fabric->source});
  if (floor <= 0) {
    result.verdict = Verdict::kSkip;
    result.findings.push_back({"not-applicable", "cluster",
                               fmt::format("efficiency {:.1f}% of the declared {:.0f} Gbit/s per node recorded; profile "
                                           "{} sets no allreduce_efficiency_floor_fraction",
                                           efficiency * 100, fabric->node_bandwidth_gbit_per_s, profile.name)});
    return result;
  }
  if (efficiency >= floor) return result;
  result.verdict = Verdict::kFail;
  result.findings.push_back(
      {"fabric-efficiency", "cluster",
       fmt::format("{}: busbw {} GB/s at {} is {:.1f}% of the {} GB/s the fabric allows ({} nodes at {:g} Gbit/s "
                   "each need {:.1f} ms), below the profile's {:.0f}%: the collective is not using the fabric it was "
                   "given (check the transport and interface in NcclTransport / Launch.FabricPinnedInEnvironment){}",
                   table.origin, FormatGbPerS(row.busbw_gb_per_s), HumanSize(row.size_bytes), efficiency * 100,
                   FormatGbPerS(bound_gb_per_s), nodes, fabric->node_bandwidth_gbit_per_s, bound_time_ms,
                   floor * 100, TransportDiagnosis(transport))});
  return result;
}

CheckResult CheckResultsCorrect(const BandwidthTable& table) {
  if (table.rows.empty()) {
    return Errored("not-measured", table.origin + ": the allreduce sweep has no rows");
  }
  std::vector<std::string> wrong;
  long long verified = 0;
  for (const auto& row : table.rows) {
    if (!row.checked) continue;
    ++verified;
    if (!row.correct) wrong.push_back(HumanSize(row.size_bytes) + " (" + Plural(row.wrong_elements, "wrong element") + ")");
  }
  if (verified == 0) {
    return Skipped(table.origin + ": results were not verified (#wrong is N/A: nccl-tests ran with -c 0); rerun "
                   "with -c 1 to check them");
  }
  CheckResult result = Passed();
  if (!wrong.empty()) {
    result = Failed({{"allreduce-results-wrong", "cluster",
                      table.origin + ": allreduce results are wrong at " + Join(wrong, ", ") +
                          ": a GPU, NVLink or NIC corrupts data; look for Xid errors (dmesg, nvidia-smi -q), run "
                          "dcgmi diag -r 3 on each node, and find the node with pairwise runs"}});
  }
  result.measurements.push_back({"sizes_verified", std::to_string(verified), "sizes",
                                 "== " + std::to_string(table.rows.size()), "nccl-tests #wrong column"});
  return result;
}

}  // namespace gpuconform::allreduce
