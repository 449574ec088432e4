#include "suites/nccl_transport/nccl_transport_checks.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"
#include "probes/nccl_log/nccl_log_facts.h"

namespace gpuconform::nccl_transport {

using namespace gpuconform::nccl_log;

namespace {

constexpr char kRerunHint[] =
    "rerun the job on at least two nodes with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV and keep the "
    "whole output";

std::optional<std::string> GpuSkipReason(const Profile& profile) {
  return gpuconform::GpuSkipReason(profile, "NCCL does not run");
}

std::optional<std::string> NetworkSkipReason(const Profile& profile) {
  if (auto gpu = GpuSkipReason(profile)) return gpu;
  if (!profile.nccl || profile.nccl->network.empty()) {
    return "profile " + profile.name + " does not say which network NCCL must use (no nccl.network)";
  }
  return std::nullopt;
}

std::string RankText(std::optional<int> rank) { return rank ? "rank " + std::to_string(*rank) : "rank unknown"; }

bool Truthy(const std::string& value) { return !value.empty() && value != "0"; }

// NCCL's interface selection (NCCL_SOCKET_IFNAME): a comma list of prefixes; "=" makes
// them exact, "^" turns the list into exclusions.
bool IfnameSelects(std::string_view value, std::string_view ifname) {
  bool exclude = false;
  bool exact = false;
  if (StartsWith(value, "^")) {
    exclude = true;
    value.remove_prefix(1);
  }
  if (StartsWith(value, "=")) {
    exact = true;
    value.remove_prefix(1);
  }
  bool matched = false;
  std::size_t start = 0;
  while (start <= value.size()) {
    auto end = value.find(',', start);
    if (end == std::string_view::npos) end = value.size();
    const std::string_view item = Trim(value.substr(start, end - start));
    if (!item.empty() && (exact ? ifname == item : StartsWith(ifname, item))) matched = true;
    start = end + 1;
  }
  return exclude ? !matched : matched;
}

// Channels grouped by who printed them and how they ran, so a finding says "channels 00/0,
// 01/0 of rank 7 on node1" once instead of once per channel.
struct ChannelGroup {
  std::string host;
  int rank = -1;
  std::string via;
  std::string direction;
  std::vector<std::string> channels;
  std::set<int> peers;
  int first_line = 0;
};

std::vector<ChannelGroup> GroupChannels(const std::vector<const Channel*>& channels) {
  std::map<std::tuple<std::string, int, std::string, std::string>, ChannelGroup> groups;
  for (const Channel* channel : channels) {
    const int rank = PrintingRank(*channel);
    auto& group = groups[{channel->source.host, rank, channel->via, channel->direction}];
    if (group.channels.empty()) {
      group = {channel->source.host, rank, channel->via, channel->direction, {}, {}, channel->source.line};
    }
    if (group.channels.size() < 32) group.channels.push_back(channel->channel);
    group.peers.insert(rank == channel->from_rank ? channel->to_rank : channel->from_rank);
  }
  std::vector<ChannelGroup> out;
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

std::string Describe(const NcclLog& log, const ChannelGroup& group) {
  std::vector<std::string> peers;
  for (int peer : group.peers) {
    const auto host = log.HostOfRank(peer);
    peers.push_back(std::to_string(peer) + (host ? " (" + *host + ")" : ""));
  }
  return HostOr(group.host) + " rank " + std::to_string(group.rank) + ": channel" +
         (group.channels.size() == 1 ? " " : "s ") + Join(group.channels, ", ") +
         (group.direction.empty() ? "" : " [" + group.direction + "]") + " with rank" + (peers.size() == 1 ? " " : "s ") +
         Join(peers, ", ") + " via " + group.via + " (first at line " + std::to_string(group.first_line) + ")";
}

std::string GroupEntity(const ChannelGroup& group) {
  return HostOr(group.host) + "/rank" + std::to_string(group.rank) + "/channel" +
         (group.channels.empty() ? std::string("?") : group.channels.front());
}

// The catalogue code for a kind of problem line the log parser finds (ErrorKind); every
// code carries the nccl- prefix, so NCCL's internal error is not gpuconform's own.
ReasonCode ProblemReason(std::string_view kind) {
  if (kind == "timeout") return "nccl-timeout";
  if (kind == "remote-error") return "nccl-remote-error";
  if (kind == "system-error") return "nccl-system-error";
  if (kind == "internal-error") return "nccl-internal-error";
  if (kind == "cuda-error") return "nccl-cuda-error";
  if (kind == "invalid-usage") return "nccl-invalid-usage";
  if (kind == "crash") return "nccl-crash";
  if (kind == "nccl-error") return "nccl-error";
  return "nccl-warn";
}

CheckResult WithMeasurements(CheckResult result, std::vector<Measurement> measurements) {
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace

std::optional<std::string> NotApplicable(const std::string& check, const Profile& profile) {
  if (check == kInterNodeChannelsUseProfileNetwork) return NetworkSkipReason(profile);
  if (check == kNetIbDevicesMatchRails) {
    if (auto reason = NetworkSkipReason(profile)) return reason;
    if (NetFamily(profile.nccl->network) != "IB") {
      return "profile " + profile.name + " expects NCCL on " + profile.nccl->network + ", not NET/IB";
    }
    if (!profile.infiniband || !profile.infiniband->present) {
      return "profile " + profile.name + " has no InfiniBand rails (no infiniband section or present: false)";
    }
    return std::nullopt;
  }
  if (check == kGpuDirectRdmaOnInterNodeChannels) {
    if (auto gpu = GpuSkipReason(profile)) return gpu;
    if (!profile.nccl || !profile.nccl->gpudirect_rdma) {
      return "profile " + profile.name + " does not ask for GPUDirect RDMA (nccl.gpudirect_rdma)";
    }
    return std::nullopt;
  }
  if (check == kIntraNodeChannelsOverNvlink) {
    if (auto gpu = GpuSkipReason(profile)) return gpu;
    if (!profile.nvlink || profile.nvlink->links_per_gpu <= 0) {
      return "profile " + profile.name + " has no NVLink (no nvlink.links_per_gpu)";
    }
    return std::nullopt;
  }
  if (check == kSocketInterfaceIsFabric) {
    if (auto gpu = GpuSkipReason(profile)) return gpu;
    if (!profile.nccl) return "profile " + profile.name + " says nothing about NCCL's interfaces (no nccl section)";
    return std::nullopt;
  }
  return GpuSkipReason(profile);
}

CheckResult CheckInterNodeChannelsUseProfileNetwork(const NcclLog& log, const Profile& profile) {
  const std::string expected = profile.nccl->network;
  const std::string family = NetFamily(expected);
  const std::string note = " (profile " + profile.name + " nccl.network " + expected + ")";
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  const auto channels = InterNodeNetChannels(log);
  if (!channels.empty()) {
    std::vector<const Channel*> wrong;
    for (const Channel* channel : channels) {
      if (NetFamily(channel->net) != family) wrong.push_back(channel);
    }
    measurements.push_back({"inter_node_channels", std::to_string(channels.size()), "", "", ""});
    measurements.push_back({"inter_node_channels_off_network", std::to_string(wrong.size()), "", "== 0", ""});
    for (const auto& group : GroupChannels(wrong)) {
      const std::string observed = group.via.substr(4, group.via.find('/', 4) - 4);
      findings.push_back({"wrong-network", GroupEntity(group),
                          Describe(log, group) + ", expected NET/" + expected + note + "; " +
                              NetworkFix(log, expected, observed)});
    }
    return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
  }
  // An excerpt without channel lines: judge the network NCCL said it chose.
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& network : log.networks) {
    if (NetFamily(network.text) == family || !seen.insert({network.source.host, network.text}).second) continue;
    findings.push_back({"wrong-network", HostOr(network.source.host),
                        HostOr(network.source.host) + " " + RankText(log.RankOf(network.source)) + ": 'Using network " +
                            network.text + "' at " + LineText(network.source) + ", expected " + expected + note + "; " +
                            NetworkFix(log, expected, network.text)});
  }
  for (const auto& none : log.no_device) {
    if (NetFamily(none.text) != family || !seen.insert({none.source.host, "none:" + none.text}).second) continue;
    findings.push_back({"no-device", HostOr(none.source.host),
                        HostOr(none.source.host) + ": 'NET/" + none.text + " : No device found' at " +
                            LineText(none.source) + ", so NCCL cannot use " + expected + note + "; " +
                            SocketFallbackCause(log)});
  }
  std::string evidence;
  if (!log.networks.empty()) {
    evidence = "'Using network' lines (the log has no channel lines)";
  } else if (!log.net_inits.empty()) {
    evidence = "'NET/... : Using' lines (no channel or 'Using network' line)";
    bool expected_loaded = false;
    for (const auto& init : log.net_inits) expected_loaded = expected_loaded || NetFamily(init.net) == family;
    if (!expected_loaded && findings.empty()) {
      const auto& init = log.net_inits.front();
      findings.push_back({"wrong-network", HostOr(init.source.host),
                          HostOr(init.source.host) + ": NCCL initialised only NET/" + init.net + " at " +
                              LineText(init.source) + ", expected NET/" + expected + note + "; " +
                              NetworkFix(log, expected, init.net)});
    }
  } else if (findings.empty()) {
    return Errored("not-in-log",
                   "the log has no inter-node channel line, no 'Using network' line and no 'NET/... : Using' line, "
                   "so it does not say which network NCCL used; " + std::string(kRerunHint));
  }
  if (!evidence.empty()) measurements.push_back({"evidence", evidence, "", "", ""});
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult CheckNetIbDevicesMatchRails(const NcclLog& log, const Profile& profile) {
  const auto& ib = *profile.infiniband;
  const std::string want_layer = ib.link_layer == "Ethernet" ? "RoCE" : "IB";
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  std::set<std::string> judged;  // every rank prints the same list; judge each distinct list per host once
  for (const auto& init : log.net_inits) {
    if (NetFamily(init.net) != "IB") continue;
    std::string signature = init.source.host + "|";
    for (const auto& device : init.devices) signature += device.name + "/" + device.link_layer + " ";
    if (!judged.insert(signature).second) continue;
    const std::string where = HostOr(init.source.host) + " " + RankText(log.RankOf(init.source)) + " (" +
                              LineText(init.source) + ")";
    measurements.push_back({HostOr(init.source.host) + ".net_ib_devices", std::to_string(init.devices.size()), "",
                            "== " + std::to_string(ib.rail_nics_per_node), ib.source});
    if (static_cast<int>(init.devices.size()) != ib.rail_nics_per_node) {
      std::vector<std::string> names;
      for (const auto& device : init.devices) names.push_back(device.name + ":" + device.port + "/" + device.link_layer);
      findings.push_back({"ib-device-count", HostOr(init.source.host),
                          where + ": NET/IB uses " + std::to_string(init.devices.size()) + " device(s) [" +
                              Join(names, " ") + "], expected " + std::to_string(ib.rail_nics_per_node) +
                              " (profile " + profile.name + " infiniband.rail_nics_per_node); restrict NCCL to the "
                              "rails with NCCL_IB_HCA=" + (init.devices.empty() ? "mlx5" : "=<rail HCAs>") +
                              " and check ibstat for missing ports"});
    }
    for (const auto& device : init.devices) {
      if (device.link_layer.empty() || device.link_layer == want_layer) continue;
      findings.push_back({"ib-link-layer", HostOr(init.source.host) + "/" + device.name,
                          where + ": " + device.name + " port " + device.port + " is " + device.link_layer +
                              ", expected " + want_layer + " (profile " + profile.name + " infiniband.link_layer " +
                              ib.link_layer + "); an Ethernet or RoCE device among the rails (often the front-end "
                              "NIC under an IB-like name when persistent RDMA naming is missing): exclude it with "
                              "NCCL_IB_HCA"});
    }
  }
  if (judged.empty()) {
    for (const auto& none : log.no_device) {
      if (NetFamily(none.text) != "IB") continue;
      findings.push_back({"no-device", HostOr(none.source.host),
                          HostOr(none.source.host) + ": 'NET/IB : No device found' at " + LineText(none.source) +
                              ", expected " + std::to_string(ib.rail_nics_per_node) + " " + want_layer +
                              " devices; " + SocketFallbackCause(log)});
      break;
    }
    if (findings.empty()) {
      return Errored("not-in-log",
                     "the log has no 'NET/IB : Using' line, so it does not say which HCAs NCCL opened; " +
                         std::string(kRerunHint));
    }
  }
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult CheckGpuDirectRdmaOnInterNodeChannels(const NcclLog& log, const Profile& profile) {
  const std::string fix =
      "load nvidia-peermem (modprobe nvidia-peermem) or use DMA-BUF, check NCCL_NET_GDR_LEVEL, and keep each GPU's NIC "
      "under its PCIe switch (see NcclTopology.GpuHasNicUnderPcieSwitch)";
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  const auto channels = InterNodeNetChannels(log);
  if (!channels.empty()) {
    std::vector<const Channel*> without;
    for (const Channel* channel : channels) {
      if (!channel->gdr) without.push_back(channel);
    }
    measurements.push_back({"inter_node_channels", std::to_string(channels.size()), "", "", ""});
    measurements.push_back({"inter_node_channels_without_gdrdma", std::to_string(without.size()), "", "== 0", ""});
    const std::string mixed = without.size() < channels.size()
                                  ? " (mixed: " + std::to_string(channels.size() - without.size()) + " of " +
                                        std::to_string(channels.size()) + " inter-node channels do use GDRDMA)"
                                  : "";
    for (const auto& group : GroupChannels(without)) {
      findings.push_back({"no-gdrdma", GroupEntity(group),
                          Describe(log, group) + ": no GDRDMA, expected GPUDirect RDMA on every inter-node channel "
                              "(profile " + profile.name + " nccl.gpudirect_rdma)" + mixed + "; " + fix});
    }
    return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
  }
  if (log.gdr.empty()) {
    return Errored("not-in-log",
                   "the log has no inter-node channel line and no 'GPU Direct RDMA ... for HCA' line, so it does not "
                   "say whether GPUDirect RDMA was used; " + std::string(kRerunHint));
  }
  std::map<std::string, std::set<std::string>> stated;  // host -> HCAs with a GDR line
  for (const auto& status : log.gdr) {
    stated[status.source.host].insert(status.hca);
    if (status.enabled) continue;
    findings.push_back({"gdr-disabled", HostOr(status.source.host) + "/" + status.hca,
                        HostOr(status.source.host) + ": GPU Direct RDMA disabled for HCA " + QuoteForMessage(status.hca) + " at " +
                            LineText(status.source) + ", expected enabled (profile " + profile.name +
                            " nccl.gpudirect_rdma); " + fix});
  }
  if (!findings.empty()) return FromFindings(std::move(findings));
  std::vector<std::string> unstated;
  for (const auto& init : log.net_inits) {
    if (NetFamily(init.net) != "IB") continue;
    for (const auto& device : init.devices) {
      const std::string name = HostOr(init.source.host) + ":" + device.name;
      if (stated[init.source.host].count(device.name) == 0 &&
          std::find(unstated.begin(), unstated.end(), name) == unstated.end()) {
        unstated.push_back(name);
      }
    }
  }
  if (!unstated.empty()) {
    return Errored("not-in-log",
                   "the log says GPU Direct RDMA is enabled for some HCAs but says nothing for " + Join(unstated, ", ") +
                       " and has no channel lines; " + std::string(kRerunHint));
  }
  measurements.push_back({"evidence", "'GPU Direct RDMA enabled' lines (the log has no channel lines)", "", "", ""});
  return WithMeasurements(Passed(), std::move(measurements));
}

CheckResult CheckIntraNodeChannelsOverNvlink(const NcclLog& log, const Profile& profile) {
  std::vector<const Channel*> intra;
  std::vector<const Channel*> wrong;
  for (const auto& channel : log.channels) {
    const bool net = channel.kind == TransportKind::kNet || channel.kind == TransportKind::kCollNet;
    if (net && IsInterNode(log, channel)) continue;
    if (channel.kind == TransportKind::kOther) continue;
    intra.push_back(&channel);
    if (channel.kind == TransportKind::kShm || net) wrong.push_back(&channel);
  }
  std::vector<Measurement> measurements = {
      {"intra_node_channels", std::to_string(intra.size()), "", "", ""},
      {"intra_node_channels_off_nvlink", std::to_string(wrong.size()), "", "== 0", ""},
      {"nvls_connected", log.nvls_connected ? "yes" : "no", "", "", ""}};
  if (intra.empty() && !log.nvls_connected) {
    return Errored("not-in-log",
                   "the log has no intra-node channel line (P2P, SHM, NVLS): one GPU per node in this run, or INIT was "
                   "not logged; run with several GPUs per node and " + std::string(kRerunHint));
  }
  std::vector<Finding> findings;
  for (const auto& group : GroupChannels(wrong)) {
    findings.push_back({"not-nvlink", GroupEntity(group),
                        Describe(log, group) + ", expected P2P or NVLS over NVLink (profile " + profile.name +
                            " nvlink.links_per_gpu " + std::to_string(profile.nvlink->links_per_gpu) +
                            "); NCCL could not use NVLink P2P: check NCCL_P2P_DISABLE / NCCL_P2P_LEVEL, that "
                            "nvidia-fabricmanager runs, that `nvidia-smi topo -m` shows NV" +
                            std::to_string(profile.nvlink->links_per_gpu) +
                            ", and that containers share IPC (--ipc=host) for CUDA IPC"});
  }
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult CheckSocketInterfaceIsFabric(const NcclLog& log, const Profile& profile) {
  const auto& nccl = *profile.nccl;
  const bool sockets_carry_data = NetFamily(nccl.network) == "Socket";
  const std::string fix = nccl.socket_ifname.empty()
                              ? "set NCCL_SOCKET_IFNAME to the fabric interface (never " +
                                    Join(nccl.forbidden_ifnames, ", ") + ")"
                              : "set NCCL_SOCKET_IFNAME=" + nccl.socket_ifname;
  auto forbidden = [&](const std::string& ifname) {
    return std::find(nccl.forbidden_ifnames.begin(), nccl.forbidden_ifnames.end(), ifname) !=
           nccl.forbidden_ifnames.end();
  };
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  std::set<std::string> seen;
  auto judge = [&](const Source& source, const std::string& ifname, const std::string& role, bool carries_data) {
    if (ifname.empty() || !seen.insert(source.host + "|" + ifname + "|" + role).second) return;
    measurements.push_back({HostOr(source.host) + "." + role, ifname, "", "", ""});
    const std::string where = HostOr(source.host) + " " + RankText(log.RankOf(source)) + ": " + role + " over " +
                              ifname + " (" + LineText(source) + ")";
    if (carries_data && forbidden(ifname)) {
      findings.push_back({"forbidden-interface", HostOr(source.host) + "/" + ifname,
                          where + ", which profile " + profile.name + " forbids (nccl.forbidden_ifnames): collectives "
                                  "run over the management network, an order of magnitude slower; " + fix});
    } else if (carries_data && !nccl.socket_ifname.empty() && ifname != nccl.socket_ifname) {
      findings.push_back({"not-fabric-interface", HostOr(source.host) + "/" + ifname,
                          where + ", expected " + nccl.socket_ifname + " (profile " + profile.name +
                              " nccl.socket_ifname); " + fix});
    }
  };
  for (const auto& init : log.net_inits) {
    if (NetFamily(init.net) == "Socket") {
      for (const auto& device : init.devices) judge(init.source, device.name, "NET/Socket data", true);
    } else {
      judge(init.source, init.oob_ifname, "NET/" + init.net + " out-of-band", sockets_carry_data);
    }
  }
  for (const auto& bootstrap : log.bootstraps) judge(bootstrap.source, bootstrap.text, "bootstrap", sockets_carry_data);
  for (const auto& setting : log.env) {
    if (setting.name != "NCCL_SOCKET_IFNAME" || !seen.insert("env|" + setting.source.host + "|" + setting.value).second) {
      continue;
    }
    measurements.push_back({HostOr(setting.source.host) + ".NCCL_SOCKET_IFNAME", setting.value, "", "", ""});
    const std::string where = HostOr(setting.source.host) + ": NCCL_SOCKET_IFNAME=" + setting.value + " (" +
                              LineText(setting.source) + ")";
    if (!nccl.socket_ifname.empty() && !IfnameSelects(setting.value, nccl.socket_ifname)) {
      findings.push_back({"nccl-socket-not-fabric", HostOr(setting.source.host),
                          where + " does not select " + nccl.socket_ifname + " (profile " + profile.name +
                              " nccl.socket_ifname); " + fix});
      continue;
    }
    for (const auto& bad : nccl.forbidden_ifnames) {
      if (sockets_carry_data && IfnameSelects(setting.value, bad)) {
        findings.push_back({"nccl-socket-forbidden", HostOr(setting.source.host),
                            where + " selects " + bad + ", which profile " + profile.name +
                                " forbids (nccl.forbidden_ifnames); " + fix});
      }
    }
  }
  if (measurements.empty()) {
    return Errored("not-in-log",
                   "the log names no socket interface (no NET/Socket, Bootstrap, OOB or NCCL_SOCKET_IFNAME line); " +
                       std::string(kRerunHint));
  }
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult CheckEnvironmentAudit(const NcclLog& log, const Profile& profile) {
  const std::string family = profile.nccl ? NetFamily(profile.nccl->network) : "";
  const bool want_gdr = profile.nccl && profile.nccl->gpudirect_rdma;
  const bool want_nvlink = profile.nvlink && profile.nvlink->links_per_gpu > 0;
  // Every setting once, with the hosts that logged it.
  std::map<std::pair<std::string, std::string>, std::pair<std::set<std::string>, int>> settings;
  for (const auto& setting : log.env) {
    auto& entry = settings[{setting.name, setting.value}];
    if (entry.first.empty()) entry.second = setting.source.line;
    entry.first.insert(HostOr(setting.source.host));
  }
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto& [key, where] : settings) {
    const auto& [name, value] = key;
    measurements.push_back({"env." + name, value, "", "", ""});
    const std::string upper_value = [&] {
      std::string v = value;
      for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return v;
    }();
    std::string why;
    std::optional<ReasonCode> code;
    if (name == "NCCL_IB_DISABLE" && Truthy(value) && family == "IB") {
      why = "disables InfiniBand, so collectives fall back to TCP sockets; unset it";
      code = ReasonCode("env-nccl-ib-disable");
    } else if (name == "NCCL_NET" && !family.empty() && NetFamily(value) != family &&
               Lowercase(value) != Lowercase(profile.nccl->network)) {
      why = "forces the " + value + " network, expected " + profile.nccl->network + "; unset it";
      code = ReasonCode("env-nccl-net");
    } else if (name == "NCCL_P2P_DISABLE" && Truthy(value) && want_nvlink) {
      why = "disables NVLink P2P, so intra-node traffic goes through host memory (SHM); unset it";
      code = ReasonCode("env-nccl-p2p-disable");
    } else if (name == "NCCL_P2P_LEVEL" && (upper_value == "LOC" || value == "0") && want_nvlink) {
      why = "restricts P2P to nothing, so NVLink is not used; unset it";
      code = ReasonCode("env-nccl-p2p-level");
    } else if ((name == "NCCL_NET_GDR_LEVEL" || name == "NCCL_IB_GDR_LEVEL") && (upper_value == "LOC" || value == "0") &&
               want_gdr) {
      why = "disables GPUDirect RDMA; unset it (the default allows GDR up to PXB)";
      code = ReasonCode("env-nccl-gdr-level");
    } else if (name == "NCCL_SHM_DISABLE" && Truthy(value) && !want_nvlink) {
      why = "disables shared memory, so GPUs of one node talk through the network; unset it";
      code = ReasonCode("env-nccl-shm-disable");
    }
    if (!code) continue;
    const std::vector<std::string> hosts(where.first.begin(), where.first.end());
    findings.push_back({*code, hosts.size() == 1 ? hosts.front() : "cluster",
                        Join(hosts, ", ") + ": " + name + "=" + value + " (first at line " +
                            std::to_string(where.second) + ") " + why + " (profile " + profile.name + ")"});
  }
  measurements.push_back({"env_settings_logged", std::to_string(settings.size()), "", "", ""});
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult CheckNoNcclErrors(const NcclLog& log) {
  struct Group {
    const Problem* first = nullptr;
    std::optional<int> rank;
    std::string host;
    int count = 0;
  };
  std::map<std::tuple<std::string, std::string, int>, Group> groups;
  std::vector<std::tuple<std::string, std::string, int>> order;
  for (const auto& problem : log.problems) {
    std::optional<int> rank = problem.rank ? problem.rank : log.RankOf(problem.source);
    std::string host = problem.source.host;
    if (host.empty() && rank) host = log.HostOfRank(*rank).value_or("");
    const auto key = std::make_tuple(problem.kind, host, rank.value_or(-1));
    auto& group = groups[key];
    if (group.count++ == 0) {
      group = {&problem, rank, host, 1};
      order.push_back(key);
    }
  }
  std::vector<Finding> findings;
  for (const auto& key : order) {
    const Group& group = groups[key];
    const Problem& problem = *group.first;
    std::string hint;
    if (problem.kind == "remote-error") {
      hint = "a peer rank exited or the network dropped: the root cause is on another rank; find the first rank that "
             "died (OOM kill, GPU XID, preemption, segfault)";
    } else if (problem.kind == "timeout") {
      hint = "a collective did not finish: a rank hung or a link is down; compare every rank's last line and check "
             "ibstat and dmesg for XID errors";
    } else if (problem.kind == "crash") {
      hint = "a process crashed; its peers will report remote errors";
    } else if (problem.kind == "internal-error") {
      hint = "NCCL internal error: often an NCCL_TOPO_FILE that does not fit the machine, or mixed NCCL versions";
    } else if (problem.kind == "system-error") {
      hint = "a system call failed (sockets, shared memory, ulimit -l); read the WARN lines around it";
    } else if (problem.kind == "cuda-error") {
      hint = "a CUDA call failed: check the driver, nvidia-smi and dmesg for XID errors";
    } else if (Contains(problem.text, "xml") || Contains(problem.text, "Attribute") || Contains(problem.text, "topo")) {
      hint = "NCCL could not use the topology it read: the NCCL_TOPO_FILE does not match this machine; unset it or use "
             "the file for this machine type";
    } else if (Contains(problem.text, "NET/IB") || Contains(problem.text, "ibv_")) {
      hint = "an InfiniBand problem: check ibstat and the HCA's port state";
    } else {
      hint = "read the line: NCCL logs a WARN before it degrades or fails";
    }
    const std::string entity = HostOr(group.host) + (group.rank ? "/rank" + std::to_string(*group.rank) : "");
    findings.push_back({ProblemReason(problem.kind), entity,
                        HostOr(group.host) + " " + RankText(group.rank) + ": " + std::to_string(group.count) + " " +
                            problem.kind + " line" + (group.count == 1 ? "" : "s") + ", first at " +
                            LineText(problem.source) + ": " + problem.text + "; " + hint});
  }
  std::vector<Measurement> measurements = {{"nccl_problem_lines", std::to_string(log.problems.size()), "", "== 0", ""}};
  if (!log.versions.empty()) measurements.push_back({"nccl_versions", Join(log.versions, ", "), "", "", ""});
  return WithMeasurements(FromFindings(std::move(findings)), std::move(measurements));
}

CheckResult WithUnjudgedPartOfLog(CheckResult judgement, const NcclLog& log) {
  if (log.dropped > 0) judgement.measurements.push_back({"facts_beyond_caps", std::to_string(log.dropped), "", "", ""});
  if (log.cut_last_line > 0) {
    judgement.measurements.push_back({"log_cut_off", "inside line " + std::to_string(log.cut_last_line) +
                                                         " (no final newline): that line is not judged",
                                      "", "", ""});
  }
  return judgement;
}

}  // namespace gpuconform::nccl_transport
