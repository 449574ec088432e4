#include "suites/infiniband/infiniband_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "facts/ib_port_facts.h"
#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"

namespace gpuconform::infiniband {

namespace {

std::string RateName(double rate_gbit_per_s) {
  static const std::map<int, std::string> kNames = {{800, "XDR"}, {400, "NDR"}, {200, "HDR"}, {100, "EDR"},
                                                    {56, "FDR"},  {40, "QDR"},  {20, "DDR"},  {10, "SDR"}};
  const auto it = kNames.find(static_cast<int>(rate_gbit_per_s));
  return it == kNames.end() ? "" : " " + it->second;
}

std::string PortList(const std::vector<const IbPort*>& ports) {
  std::string out;
  for (const auto* port : ports) out += (out.empty() ? "" : ", ") + port->ca;
  return out;
}

// Why a rail port is not Active/LinkUp, and what an operator does about it.
std::string PortStateCause(const IbPort& port) {
  if (port.physical_state == "Polling") {
    return "the port is trying to train but sees no peer: check the cable, the transceiver and the switch port";
  }
  if (port.physical_state == "Disabled") {
    return "the port is disabled or has no cable: check the cable and the switch port, and whether the port was "
           "disabled (`ibportstate`)";
  }
  if (port.physical_state == "LinkUp") {
    return "the link is up but the subnet manager has not activated the port: check that the SM (opensm/UFM) "
           "runs and sees this port";
  }
  return "the link did not come up: check the cable, the transceiver and the switch port";
}

// Lower is nearer: the order of the topo -m legend, from one PCIe bridge to across sockets.
int PathRank(const std::string& cell) {
  static const std::map<std::string, int> kRank = {{"PIX", 0}, {"PXB", 1}, {"PHB", 2},
                                                   {"NODE", 3}, {"SYS", 4}, {"SOC", 4}};
  const auto it = kRank.find(cell);
  return it == kRank.end() ? 5 : it->second;
}

}  // namespace

std::optional<std::string> InfinibandSkipReason(const Profile& profile) {
  if (!profile.infiniband) return "profile " + profile.name + " has no infiniband section, so it expects no rails";
  if (!profile.infiniband->present) {
    return "profile " + profile.name + " has no InfiniBand (infiniband.present: false), so there is nothing to check";
  }
  return std::nullopt;
}

std::optional<std::string> GpuLocalNicSkipReason(const Profile& profile) {
  if (auto reason = InfinibandSkipReason(profile)) return reason;
  if (auto reason = GpuSkipReason(profile, "there is nothing to check")) return reason;
  if (!profile.infiniband->gpu_local_nic_required) {
    return "profile " + profile.name +
           " does not require a rail NIC per GPU under its PCIe switch (infiniband.gpu_local_nic_required is false)";
  }
  return std::nullopt;
}

CheckResult CheckRailNicsWithoutPortListing(const std::string& node, const std::string& unread, const Profile& profile,
                                            std::optional<int> topo_nic_count) {
  const InfinibandExpectation& expected = *profile.infiniband;
  // topo -m does not say which NICs are rails, so only too few NICs in all contradicts.
  if (!topo_nic_count || *topo_nic_count >= expected.rail_nics_per_node) return Errored("unavailable", unread);
  return Failed({{"rail-count", node,
                    fmt::format("{}: {} NIC(s) in all in nvidia-smi topo -m, expected {} {} rail NICs (profile {}): "
                                "an HCA is missing or failed to probe (see `dmesg | grep mlx5`) (the port listing "
                                "itself: {})",
                                node, *topo_nic_count, expected.rail_nics_per_node, expected.link_layer, profile.name,
                                unread)}});
}

CheckResult CheckRailNicsPresent(const std::string& node, const IbPortReport& ports, const Profile& profile) {
  const InfinibandExpectation& expected = *profile.infiniband;
  const auto rails = facts::RailPorts(ports, expected);
  std::vector<const IbPort*> others;
  for (const auto& port : ports.ports) {
    if (std::find(rails.begin(), rails.end(), &port) == rails.end()) others.push_back(&port);
  }
  std::vector<Finding> findings;
  const int count = static_cast<int>(rails.size());
  if (count != expected.rail_nics_per_node) {
    std::string message = fmt::format("{}: {} {} rail ports{}, expected {} (profile {})", node, count,
                                      expected.link_layer, rails.empty() ? "" : " (" + PortList(rails) + ")",
                                      expected.rail_nics_per_node, profile.name);
    if (!others.empty()) {
      std::set<std::string> layers;
      for (const auto* port : others) layers.insert(port->link_layer);
      std::string layer_list;
      for (const auto& layer : layers) layer_list += (layer_list.empty() ? "" : "/") + layer;
      message += fmt::format("; not counted: {} port(s) with link layer {} ({})", others.size(), layer_list,
                             PortList(others));
    }
    if (rails.empty() && !others.empty()) {
      message += ": the HCAs run another link layer (RoCE instead of InfiniBand, or the reverse): set the port "
                 "type with `mlxconfig ... LINK_TYPE_P1`, or use a profile for this fabric";
    } else if (count < expected.rail_nics_per_node) {
      message += ": an HCA is missing, failed to probe (see `dmesg | grep mlx5`), or runs the wrong link layer";
    } else {
      message += ": more rails than the profile says: wrong profile?";
    }
    findings.push_back({"rail-count", node, message});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".rail_ports", std::to_string(count), "",
                                 "== " + std::to_string(expected.rail_nics_per_node), expected.source});
  return result;
}

CheckResult CheckPortsActiveAtRate(const std::string& node, const IbPortReport& ports, const Profile& profile) {
  if (!ports.ShowsPortState()) {
    return Errored("no-port-state",
                   node + ": the port listing is " + PortListingFormatName(ports.format) +
                       " output, which shows the state of each netdev (IPoIB), not of the port, and no rate: "
                       "'(Down)' there does not mean the port is down; capture `ibstat` to judge the ports");
  }
  const InfinibandExpectation& expected = *profile.infiniband;
  const auto rails = facts::RailPorts(ports, expected);
  if (rails.empty()) {
    return Errored("no-rails",
                   node + ": no port with link layer " + expected.link_layer +
                       " to judge (RailNicsPresent says what is there instead)");
  }
  std::vector<Finding> findings;
  std::vector<std::string> rate_unknown;
  for (const IbPort* port : rails) {
    const std::string entity = node + "/" + port->ca + "/port" + std::to_string(port->port);
    if (port->state != "Active" || port->physical_state != "LinkUp") {
      findings.push_back({"port-state", entity,
                          fmt::format("{}: {} is State {}, Physical state {}, expected Active / LinkUp: {}", node,
                                      port->Name(), port->state.empty() ? "(not shown)" : port->state,
                                      port->physical_state.empty() ? "(not shown)" : port->physical_state,
                                      PortStateCause(*port))});
      continue;
    }
    if (!port->rate_gbit_per_s) {
      rate_unknown.push_back(port->Name());
      continue;
    }
    if (*port->rate_gbit_per_s != expected.rate_gbit_per_s) {
      findings.push_back({"port-rate", entity,
                          fmt::format("{}: {} Rate {} Gb/s{}, expected {} Gb/s{} (profile {}): the link trained at "
                                      "another speed: a cable, transceiver or switch port of another generation, "
                                      "or a degraded cable (`mlxlink -d {}`)",
                                      node, port->Name(), *port->rate_gbit_per_s, RateName(*port->rate_gbit_per_s),
                                      expected.rate_gbit_per_s, RateName(expected.rate_gbit_per_s), profile.name,
                                      port->ca)});
    }
  }
  if (!ports.tool_error.empty()) {
    if (findings.empty()) {
      return Errored("tool-error",
                     node + ": the listed rail ports conform, but the listing reported an error, so devices may be "
                            "missing from it: " + ports.tool_error);
    }
    findings.push_back({"tool-error", node, node + ": the listing also reported an error: " + ports.tool_error});
  }
  if (findings.empty() && !rate_unknown.empty()) {
    std::string names;
    for (const auto& name : rate_unknown) names += (names.empty() ? "" : ", ") + name;
    return Errored("rate-not-shown",
                   node + ": the listing shows no rate for " + names + "; capture `ibstat` or `ibv_devinfo -v`");
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckGpuHasLocalRailNic(const std::string& node, const nvidia_smi::TopoMatrix& matrix,
                                    const IbPortReport* ports, const Profile& profile) {
  if (matrix.nics.empty()) {
    return Failed({{"no-nic", node,
                    node + ": nvidia-smi topo -m shows no NIC at all, expected a rail NIC at PIX/PXB for every GPU: "
                           "no RDMA NIC is visible next to the GPUs (mlx5 driver not loaded, or devices hidden from "
                           "this container), so GPUDirect RDMA cannot work"}});
  }
  // Where the legend names the NICs and the port listing is readable, only rail NICs count:
  // an Ethernet front-end NIC under the GPU's switch does not carry the GPU's traffic.
  std::set<std::string> rail_names;
  if (ports && !matrix.nic_names.empty()) {
    for (const auto* port : facts::RailPorts(*ports, *profile.infiniband)) rail_names.insert(port->ca);
  }
  auto is_rail = [&](const std::string& nic) {
    if (rail_names.empty()) return true;
    const auto it = matrix.nic_names.find(nic);
    return it == matrix.nic_names.end() || rail_names.count(it->second) > 0;
  };
  std::vector<Finding> findings;
  for (const auto& gpu : matrix.gpus) {
    std::string nearest_nic;
    std::string nearest_cell;
    bool local = false;
    for (const auto& nic : matrix.nics) {
      if (!is_rail(nic)) continue;
      const std::string cell = matrix.Between(gpu, nic);
      if (PathRank(cell) <= 1) {
        local = true;
        break;
      }
      if (nearest_nic.empty() || PathRank(cell) < PathRank(nearest_cell)) {
        nearest_nic = nic;
        nearest_cell = cell;
      }
    }
    if (local) continue;
    const std::string nearest = nearest_nic.empty()
                                    ? "no rail NIC appears in the matrix"
                                    : "nearest rail NIC " + matrix.NicDisplayName(nearest_nic) + " at " +
                                          (nearest_cell.empty() ? "an unknown path" : nearest_cell);
    findings.push_back({"no-local-nic", node + "/" + gpu,
                        node + ": " + gpu + " has no rail NIC at PIX/PXB (under its own PCIe switch); " + nearest +
                            ": its RDMA traffic crosses the CPU root complex, which slows GPUDirect RDMA; check that "
                            "every rail HCA is seated in the slot beside its GPU"});
  }
  return FromFindings(std::move(findings));
}

namespace {

// The rate limit of a kind of counter; nothing for load, which is never judged.
std::optional<double> RateLimitPerHour(ib_counters::CounterKind kind, const LinkCounterRates& rates) {
  switch (kind) {
    case ib_counters::CounterKind::kPhysical:
    case ib_counters::CounterKind::kLinkDown:
      return rates.ib_signal_errors_per_hour;
    case ib_counters::CounterKind::kDiscard:
      return rates.ib_discards_per_hour;
    case ib_counters::CounterKind::kCongestion:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

CheckResult CheckPortErrorCounters(const std::string& node, const ib_counters::CounterReport& report,
                                   const LinkCounterRates& rates, const NodeCounterReadings* previous) {
  using ib_counters::CounterKind;
  if (report.ports.empty()) {
    return Skipped(node + ": no RDMA port counters (" + report.origin + "): RailNicsPresent judges the NICs");
  }
  const std::string check = std::string(kSuite) + "." + kPortErrorCountersWithinLimits;
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto& port : report.ports) {
    if (port.port == "ALL") continue;
    const std::string where = (port.node.empty() ? "" : port.node + " ") + port.device + " port " + port.port;
    const std::string link = port.device + "/port" + port.port;
    const std::string entity = node + "/" + link;
    std::map<CounterKind, std::vector<std::string>> over;
    std::vector<std::string> rising;
    for (const auto& info : ib_counters::KnownCounters()) {
      const auto found = port.counters.find(info.name);
      if (found == port.counters.end()) continue;
      const auto& [value, saturated] = found->second;
      if (info.kind == CounterKind::kCongestion) {
        if (value > 0) {
          measurements.push_back({entity + "." + info.name, std::to_string(value), saturated ? "(saturated)" : "",
                                  "", "load (time waiting to send), recorded, not judged"});
        }
        continue;
      }
      // The profile's count limit where it sets one, else the counter's default.
      const std::optional<std::uint64_t> profile_limit = rates.CountLimit(info.name);
      const std::uint64_t count_limit = profile_limit.value_or(info.default_limit);
      if (value > 0) {
        measurements.push_back({entity + "." + info.name, std::to_string(value),
                                saturated ? kSaturatedCounterUnit : kCounterUnit, "<= " + std::to_string(count_limit),
                                profile_limit ? rates.source : std::string(ib_counters::kDefaultLimitSource)});
      }
      if (value > count_limit) {
        over[info.kind].push_back(fmt::format("{} {}{} > {}", info.name, saturated ? "at least " : "", value,
                                              count_limit));
      }
      const double limit = *RateLimitPerHour(info.kind, rates);
      const CounterRise rise = JudgeCounterRise(previous, check, link + "." + info.name, static_cast<double>(value),
                                                saturated, limit);
      if (auto rate = RiseMeasurement(entity + "." + info.name, rise, limit, rates.source)) {
        measurements.push_back(std::move(*rate));
      }
      if (rise.kind == CounterRise::Kind::kOver) {
        rising.push_back(fmt::format("{} {} ({:.2f}/h > {:g}/h; now {}{})", info.name, rise.note, rise.per_hour, limit,
                                     value, value <= count_limit
                                                ? fmt::format(", within its count limit {}", count_limit)
                                                : ""));
      }
    }
    const auto physical = over.find(CounterKind::kPhysical);
    if (physical != over.end()) {
      findings.push_back({"ib-link-errors", entity,
                          fmt::format("{}: {}: {}: the link's signal is marginal; reseat or replace the cable or "
                                      "transceiver of {} and check its switch port (clear the counters with "
                                      "perfquery -x -R and watch the rate)",
                                      node, where, Join(physical->second, ", "), where)});
    }
    const auto downed = over.find(CounterKind::kLinkDown);
    if (downed != over.end()) {
      findings.push_back({"ib-link-downed", entity,
                          fmt::format("{}: {}: {}: the link went down and retrained since its counters were "
                                      "cleared; check the cable's seating and the peer port's log",
                                      node, where, Join(downed->second, ", "))});
    }
    const auto discards = over.find(CounterKind::kDiscard);
    if (discards != over.end()) {
      findings.push_back({"ib-port-discards", entity,
                          fmt::format("{}: {}: {}: packets dropped at the port{}: congestion, routing or a peer "
                                      "that went away; check the subnet manager's routing and the fabric's load",
                                      node, where, Join(discards->second, ", "),
                                      physical == over.end() ? " with no signal errors (not the cable)" : "")});
    }
    if (!rising.empty()) {
      findings.push_back({"ib-link-error-rate", entity,
                          fmt::format("{}: {}: error counters rising: {}: the link is degrading; reseat or replace "
                                      "the cable or transceiver of {} and check its switch port before it fails",
                                      node, where, Join(rising, "; "), where)});
    }
  }
  CheckResult result = findings.empty() ? Passed() : Failed(std::move(findings));
  result.measurements = std::move(measurements);
  if (result.verdict == Verdict::kFail) result.measurements.push_back({"limits", "", "", "", ib_counters::kDefaultLimitSource});
  return result;
}

}  // namespace gpuconform::infiniband
