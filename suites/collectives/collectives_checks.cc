#include "suites/collectives/collectives_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/mpi_sweep/collectives_profile.h"

namespace gpuconform::collectives {

using mpi_sweep::CollectiveFloor;
using mpi_sweep::CollectiveFloors;
using mpi_sweep::CollectiveTables;
using nccl_tests::BandwidthRow;
using nccl_tests::BandwidthTable;

namespace {

// Two decimals; small rates (the 100 Mbit/s eth0 is 0.0125 GB/s) keep three significant digits.
std::string FormatGbPerS(double gb_per_s) {
  return gb_per_s >= 1 ? fmt::format("{:.2f}", gb_per_s) : fmt::format("{:.3g}", gb_per_s);
}

// "16 MiB" for a whole number of MiB (the profiles' sizes), else "16777212 B".
std::string SizeLabel(long long size_bytes) {
  constexpr long long kMiB = 1024 * 1024;
  if (size_bytes >= kMiB && size_bytes % kMiB == 0) return std::to_string(size_bytes / kMiB) + " MiB";
  return std::to_string(size_bytes) + " B";
}

std::string Plural(long long count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

const BandwidthRow* RowAt(const BandwidthTable& table, long long size_bytes) {
  for (const auto& row : table.rows) {
    if (row.size_bytes == size_bytes) return &row;
  }
  return nullptr;
}

std::string NodeCounts(const std::vector<CollectiveFloor>& floors) {
  std::vector<std::string> counts;
  for (const auto& floor : floors) {
    const std::string count = std::to_string(floor.nodes);
    if (std::find(counts.begin(), counts.end(), count) == counts.end()) counts.push_back(count);
  }
  return Join(counts, ", ");
}

// Why the collective is slow, as far as the number says: a busbw no higher than twice the
// management NIC's line rate is that NIC's signature (the fabric is tens of times faster);
// otherwise the links these collectives cross and allreduce rings do not.
std::string LikelyCause(const std::string& collective, double busbw_gb_per_s, const Profile& profile,
                        const CollectiveBackend& backend) {
  const std::string fabric =
      profile.nccl && !profile.nccl->socket_ifname.empty() ? profile.nccl->socket_ifname : "the fabric interface";
  // What makes the ranks use the fabric: Open MPI's TCP interface, or NCCL's NICs.
  const std::string pin = backend.nccl ? "NCCL_IB_HCA and NCCL_SOCKET_IFNAME (NcclTransport says which transport "
                                         "NCCL chose)"
                                       : "OMPI_MCA_btl_tcp_if_include";
  if (profile.nccl && profile.nccl->management_rate_gbit_per_s > 0) {
    const double rate_gb_per_s = profile.nccl->management_rate_gbit_per_s / 8;
    if (busbw_gb_per_s <= 2 * rate_gb_per_s) {
      const std::string management = profile.nccl->forbidden_ifnames.empty() ? "the management interface"
                                                                              : profile.nccl->forbidden_ifnames.front();
      return "busbw is at most the " + management + " rate (" + FormatGbPerS(rate_gb_per_s) + " GB/s): the ranks " +
             "probably sent over " + management + "; " +
             (backend.nccl ? "set NCCL_SOCKET_IFNAME=" + fabric + " and check NCCL_IB_HCA"
                           : "set OMPI_MCA_btl_tcp_if_include=" + fabric);
    }
  }
  return collective + " sends every rank's blocks to every other rank, across rails and through the spine, where " +
         "allreduce rings stay inside a rail: if AllreduceBandwidth passes, look at the cross-rail and spine links "
         "(switch port counters, ibstat on every node) and check that the ranks used " + fabric + " (" + pin + ")";
}

}  // namespace

const CollectiveBackend& MpiBackend() {
  static const CollectiveBackend kMpi{"the MPI collectives step", CollectiveFloors::kKey, false};
  return kMpi;
}

const CollectiveBackend& NcclBackend() {
  static const CollectiveBackend kNccl{"gpuconform's NCCL run", nccl_run::NcclCollectiveFloors::kKey, true};
  return kNccl;
}

CheckResult CheckCollectiveBusbwAtFloors(const std::string& collective, const CollectiveTables& tables,
                                         const Profile& profile) {
  return CheckCollectiveBusbwAtFloors(collective, FloorsOf(profile.GetOrDefault<CollectiveFloors>(), collective),
                                      tables, profile, MpiBackend());
}

CheckResult CheckCollectiveBusbwAtFloors(const std::string& collective, const std::vector<CollectiveFloor>& floors,
                                         const CollectiveTables& tables, const Profile& profile,
                                         const CollectiveBackend& backend) {
  if (floors.empty()) {
    return Skipped("profile " + profile.name + " sets no " + collective + " busbw floor (" + backend.section +
                   " section)");
  }
  const auto found = tables.find(collective);
  if (found == tables.end()) {
    return Errored("not-measured", backend.run + " printed no " + collective +
                                       " table although the profile has floors for it");
  }
  const BandwidthTable& table = found->second;
  if (table.ranks == 1) return Skipped(table.origin + ": one rank: " + collective + " crossed no link");
  std::vector<CollectiveFloor> judged;
  for (const auto& floor : floors) {
    if (floor.nodes == table.nodes) judged.push_back(floor);
  }
  if (judged.empty()) {
    return Skipped("profile " + profile.name + " sets no " + collective + " busbw floor for " +
                   Plural(table.nodes, "node") + " (it has floors for " + NodeCounts(floors) + " nodes)");
  }
  std::vector<Measurement> measurements;
  for (const auto& row : table.rows) {
    measurements.push_back({"busbw@" + std::to_string(row.size_bytes) + "B", FormatGbPerS(row.busbw_gb_per_s),
                            "GB/s", "", ""});
  }
  std::vector<Finding> below;
  std::vector<std::string> missing;
  for (const auto& floor : judged) {
    // The worker measured the floor's size rounded down to a whole block per rank.
    const long long size = allreduce_sweep::CollectiveSizeBytes(floor.size_bytes, std::max(table.ranks, 1));
    const BandwidthRow* row = RowAt(table, size);
    if (row == nullptr) {
      missing.push_back("no " + collective + " row at " + SizeLabel(floor.size_bytes) + " (" + std::to_string(size) +
                        " B over " + Plural(table.ranks, "rank") + "): the floor's size is past the sweep's cap "
                        "(1 GiB, or --allreduce-max-bytes)");
      continue;
    }
    for (auto& measurement : measurements) {
      if (measurement.name == "busbw@" + std::to_string(size) + "B") {
        measurement.threshold = ">= " + fmt::format("{:g}", floor.busbw_floor_gb_per_s);
        measurement.source = floor.source;
      }
    }
    if (row->busbw_gb_per_s >= floor.busbw_floor_gb_per_s) continue;
    below.push_back({"collective-busbw-below-floor", "cluster",
                     table.origin + ": " + collective + " busbw " + FormatGbPerS(row->busbw_gb_per_s) + " GB/s at " +
                         SizeLabel(floor.size_bytes) + " (" + std::to_string(size) + " B) across " +
                         Plural(table.nodes, "node") + ", " + Plural(table.ranks, "rank") +
                         ", is below the floor of " + fmt::format("{:g}", floor.busbw_floor_gb_per_s) +
                         " GB/s (source: " + floor.source + "); " +
                         LikelyCause(collective, row->busbw_gb_per_s, profile, backend)});
  }
  // A size not measured is an error unless a measured one already fails.
  CheckResult result = below.empty() && !missing.empty()
                           ? Errored("size-not-measured", table.origin + ": " + Join(missing, "; "))
                           : Passed();
  if (!below.empty()) {
    for (const auto& gap : missing) below.push_back({"size-not-measured", "cluster", table.origin + ": " + gap});
    result = FromFindings(std::move(below));
  }
  result.measurements = std::move(measurements);
  return result;
}

CheckResult CheckCollectivesCorrect(const CollectiveTables& tables, const CollectiveBackend& backend) {
  if (tables.empty()) return Errored("not-measured", backend.run + " printed no table");
  std::vector<Finding> wrong;
  long long verified = 0;
  long long rows = 0;
  for (const auto& collective : allreduce_sweep::BeyondAllreduce()) {
    const auto found = tables.find(collective.name);
    if (found == tables.end()) continue;
    for (const auto& row : found->second.rows) {
      ++rows;
      if (!row.checked) continue;
      ++verified;
      if (row.correct) continue;
      wrong.push_back({"collective-results-wrong", "cluster",
                       found->second.origin + ": " + collective.name + " delivered " +
                           Plural(row.wrong_elements, "wrong element") + " at " + std::to_string(row.size_bytes) +
                           " B: a block went missing, to the wrong rank or corrupted; look for NIC errors "
                           "(ethtool -S, ibstat) on the nodes and rerun to find the pair with AllreduceBandwidth's "
                           "MpiNoSlowNode"});
    }
  }
  CheckResult result = wrong.empty() ? Passed() : Failed(std::move(wrong));
  if (verified < rows && result.verdict == Verdict::kPass) {
    result = Errored("not-measured", Plural(rows - verified, "row") + " of the tables of " + backend.run +
                                         " were not verified (#wrong N/A)");
  }
  result.measurements.push_back(
      {"rows_verified", std::to_string(verified), "rows", "== " + std::to_string(rows), "the worker's #wrong column"});
  return result;
}

CheckResult CheckNcclInitWithinCeiling(const std::vector<nccl_run::NodeInit>& nodes,
                                       const nccl_run::NcclInitCeiling& ceiling) {
  if (nodes.empty()) return Errored("not-measured", "gpuconform's NCCL run recorded no node's init time");
  std::vector<const nccl_run::NodeInit*> timed;
  std::vector<std::string> failed;
  std::vector<Measurement> measurements;
  for (const auto& node : nodes) {
    if (!node.seconds) {
      failed.push_back(node.host + ": NCCL communicator init did not complete: " + node.problem);
      continue;
    }
    timed.push_back(&node);
    measurements.push_back({node.host + ".init_s", fmt::format("{:.2f}", *node.seconds), "s", "", ""});
  }
  std::sort(timed.begin(), timed.end(), [](const auto* a, const auto* b) { return *a->seconds > *b->seconds; });
  const std::string ceiling_text = fmt::format("{:g}", ceiling.ceiling_s);
  if (!timed.empty()) {
    measurements.insert(measurements.begin(), {"slowest_init_s", fmt::format("{:.2f}", *timed.front()->seconds), "s",
                                               "<= " + ceiling_text, ceiling.source});
  }
  std::vector<Finding> slow;
  for (const auto* node : timed) {
    if (*node->seconds <= ceiling.ceiling_s) break;
    slow.push_back({"nccl-init-slow", node->host,
                    fmt::format("{}: NCCL communicator init (ncclCommInitRank on every GPU of the node) took {:.1f} s, "
                                "above the ceiling of {} s (source: {}){}; check that NCCL_SOCKET_IFNAME names a fast "
                                "NIC that reaches every node (the bootstrap), that every node resolves the others' "
                                "names quickly (DNS), and whether this node started late",
                                node->host, *node->seconds, ceiling_text, ceiling.source,
                                node == timed.front() && timed.size() > 1
                                    ? fmt::format(", the slowest of {} nodes (fastest {:.1f} s)", timed.size(),
                                                  *timed.back()->seconds)
                                    : std::string())});
  }
  CheckResult result = Passed();
  if (!slow.empty()) {
    result = Failed(std::move(slow));
  } else if (!failed.empty()) {
    result = ErroredEach("not-measured", failed);
  }
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::collectives
