#include "probes/nccl_log/nccl_log_facts.h"

#include <algorithm>
#include <set>

#include "harness/core/raw_lines.h"
#include "harness/util/text_util.h"
#include "probes/nccl_log/nccl_debug_log_probe.h"

namespace gpuconform::nccl_log {

namespace {

int parse_count = 0;

}  // namespace

const Result<NcclLog>& ReadNcclLog(const ClusterRaw& raw) {
  return raw.facts.Get<Result<NcclLog>>("nccl-log", "", [&]() -> Result<NcclLog> {
    const RawOutput out = raw.ClusterOutput(DebugLogProbe().id);
    if (!out.ok()) return Error{out.detail};
    // Streamed: a snapshot's log (or an operator's, live) is read a chunk at a time.
    auto lines = RawLines(out);
    if (!lines) return Error{lines.error()};
    ++parse_count;
    return ParseNcclLog(**lines, out.origin);
  });
}

int NcclLogParseCount() { return parse_count; }

std::string HostOr(const std::string& host) { return host.empty() ? "(host not in the line)" : host; }

std::string LineText(const Source& source) { return "line " + std::to_string(source.line); }

bool IsInterNode(const NcclLog& log, const Channel& channel) {
  const auto from = log.HostOfRank(channel.from_rank);
  const auto to = log.HostOfRank(channel.to_rank);
  return !(from && to && *from == *to);
}

int PrintingRank(const Channel& channel) {
  return channel.direction == "receive" ? channel.to_rank : channel.from_rank;
}

std::vector<const Channel*> InterNodeNetChannels(const NcclLog& log) {
  std::vector<const Channel*> out;
  for (const auto& channel : log.channels) {
    if ((channel.kind == TransportKind::kNet || channel.kind == TransportKind::kCollNet) && IsInterNode(log, channel)) {
      out.push_back(&channel);
    }
  }
  return out;
}

std::string SocketFallbackCause(const NcclLog& log) {
  std::set<std::string> hosts;
  for (const auto& none : log.no_device) {
    if (NetFamily(none.text) == "IB") hosts.insert(HostOr(none.source.host));
  }
  std::string cause = "NCCL fell back to TCP sockets";
  if (!hosts.empty()) {
    cause += " because NET/IB found no device on " + Join(std::vector<std::string>(hosts.begin(), hosts.end()), ", ");
  }
  return cause +
         ": check ibstat / ibv_devinfo on the node and inside the job's container (rdma-core, /dev/infiniband), "
         "NCCL_IB_HCA, and that NCCL_IB_DISABLE=1 or NCCL_NET=Socket is not set";
}

std::string NetworkFix(const NcclLog& log, const std::string& expected, const std::string& observed) {
  if (NetFamily(observed) == "Socket") return SocketFallbackCause(log);
  return "NCCL chose " + observed + " instead of " + expected +
         ": check NCCL_NET, NCCL_NET_PLUGIN and which libnccl-net*.so the job loads";
}

InterNodeTransport SummarizeInterNodeTransport(const NcclLog& log, const Profile& profile) {
  InterNodeTransport summary;
  const std::string expected = profile.nccl && !profile.nccl->network.empty() ? profile.nccl->network : "IB";
  const std::string family = NetFamily(expected);
  const std::string fabric = profile.nccl && !profile.nccl->socket_ifname.empty() ? profile.nccl->socket_ifname : "";
  auto forbidden = [&](const std::string& ifname) {
    return profile.nccl && std::find(profile.nccl->forbidden_ifnames.begin(), profile.nccl->forbidden_ifnames.end(),
                                     ifname) != profile.nccl->forbidden_ifnames.end();
  };
  // The interface NET/Socket carried data on: the printing host's "NET/Socket : Using" line.
  auto socket_ifname = [&](const std::string& host) {
    std::string any;
    for (const auto& init : log.net_inits) {
      if (NetFamily(init.net) != "Socket" || init.devices.empty()) continue;
      if (init.source.host == host) return init.devices.front().name;
      if (any.empty()) any = init.devices.front().name;
    }
    return any;
  };
  auto wrong_network = [&](const std::string& net, const std::string& ifname, std::string evidence) {
    summary.kind = NetFamily(net) == "Socket" ? InterNodeTransport::Kind::kSocket : InterNodeTransport::Kind::kOtherNetwork;
    if (!ifname.empty() && forbidden(ifname)) evidence += ", an interface profile " + profile.name + " forbids";
    summary.evidence = std::move(evidence);
    summary.fix = NetworkFix(log, expected, net);
    if (summary.kind == InterNodeTransport::Kind::kSocket) {
      summary.fix += fabric.empty() ? "; pin the fabric with NCCL_SOCKET_IFNAME" : "; set NCCL_SOCKET_IFNAME=" + fabric;
    }
    return summary;
  };
  const std::string right =
      "the transport was right, so look at the fabric: find the slow node or link with pairwise runs, and check link "
      "rates (ibstat), port error counters (perfquery) and cables";
  const auto channels = InterNodeNetChannels(log);
  std::size_t off_network = 0;
  const Channel* first_wrong = nullptr;
  for (const Channel* channel : channels) {
    if (NetFamily(channel->net) == family) continue;
    ++off_network;
    if (first_wrong == nullptr) first_wrong = channel;
  }
  if (first_wrong != nullptr) {
    const std::string ifname = NetFamily(first_wrong->net) == "Socket" ? socket_ifname(first_wrong->source.host) : "";
    return wrong_network(first_wrong->net, ifname,
                         "NCCL log: NET/" + first_wrong->net + (ifname.empty() ? "" : " on " + ifname) +
                             " for channel " + first_wrong->channel + " (rank " +
                             std::to_string(PrintingRank(*first_wrong)) + ", " + HostOr(first_wrong->source.host) +
                             ", " + LineText(first_wrong->source) + "; " + std::to_string(off_network) + " of " +
                             std::to_string(channels.size()) + " inter-node channels off NET/" + expected + ")");
  }
  if (!channels.empty()) {
    const Channel& example = *channels.front();
    summary.kind = InterNodeTransport::Kind::kAsProfiled;
    summary.evidence = "NCCL log: all " + std::to_string(channels.size()) + " inter-node channels on NET/" + expected +
                       " (e.g. channel " + example.channel + " of rank " + std::to_string(PrintingRank(example)) +
                       " on " + HostOr(example.source.host) + " via " + example.via + ")";
    summary.fix = right;
    return summary;
  }
  for (const auto& network : log.networks) {
    if (NetFamily(network.text) == family) continue;
    const std::string ifname = NetFamily(network.text) == "Socket" ? socket_ifname(network.source.host) : "";
    return wrong_network(network.text, ifname,
                         "NCCL log: 'Using network " + network.text + "'" + (ifname.empty() ? "" : " on " + ifname) +
                             " (" + HostOr(network.source.host) + ", " + LineText(network.source) + ")");
  }
  if (!log.networks.empty()) {
    summary.kind = InterNodeTransport::Kind::kAsProfiled;
    summary.evidence = "NCCL log: 'Using network " + log.networks.front().text + "' on every host that says (" +
                       LineText(log.networks.front().source) + "; the log has no channel lines)";
    summary.fix = right;
  }
  return summary;
}

}  // namespace gpuconform::nccl_log
