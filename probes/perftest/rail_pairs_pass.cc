#include "probes/perftest/rail_pairs_pass.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <map>
#include <thread>

#include "probes/gpu_devices/gpu_devices_probe.h"
#include "harness/core/live_source.h"
#include "harness/core/process_runner.h"
#include "harness/util/hostlist.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/perftest/pair_error.h"
#include "probes/perftest/perftest_parse.h"
#include "probes/perftest/rail_floor.h"
#include "probes/perftest/rail_pair_plan.h"

namespace gpuconform::perftest {

namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

constexpr int kDurationS = 5;           // each pair's ib_write_bw -D
constexpr int kFirstTcpPort = 18515;    // perftest's default; one port per round after it
constexpr seconds kServerTimeout{kDurationS + 40};
constexpr seconds kClientTimeout{kDurationS + 15};
constexpr seconds kConnectWindow{20};   // a client tries to reach its server this long
constexpr std::chrono::milliseconds kNoDeviceProbeTimeout{10000};

std::string Clean(std::string text) {
  for (char& c : text) {
    if (c == '"') c = '\'';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return std::string(Trim(text));
}

// This node's active RDMA ports: /sys/class/infiniband/<hca>/ports/<n>/state says "4: ACTIVE".
std::vector<Rail> ActiveRails(const std::string& sysfs_root) {
  std::vector<Rail> rails;
  std::error_code ec;
  const fs::path root = fs::path(sysfs_root) / "class/infiniband";
  for (const auto& hca : fs::directory_iterator(root, ec)) {
    for (const auto& port : fs::directory_iterator(hca.path() / "ports", ec)) {
      std::ifstream state(port.path() / "state");
      std::string text;
      std::getline(state, text);
      if (text.find("ACTIVE") == std::string::npos) continue;
      rails.push_back({hca.path().filename().string(), std::atoi(port.path().filename().c_str())});
    }
  }
  std::sort(rails.begin(), rails.end());
  return rails;
}

std::string RailList(const std::vector<Rail>& rails) {
  std::string list;
  for (const Rail& rail : rails) list += (list.empty() ? "" : ",") + rail.hca + ":" + std::to_string(rail.port);
  return list;
}

// This node's part of the plan: its active rails, or why it takes no part, in perftest's words.
// A node without ib_write_bw lists its active rails too: those are the rails left unmeasured.
std::string NodePart(const CollectiveContext& context) {
  const std::vector<Rail> rails = ActiveRails(context.options.sysfs_root);
  if (!FindOnPath("ib_write_bw")) {
    return FormatRecord("absent", {{"node", context.host},
                                   {"status", "missing"},
                                   {"rails", RailList(rails)},
                                   {"why", "ib_write_bw is not installed (Debian's perftest package provides it)"}});
  }
  if (rails.empty()) {
    // perftest exits at once, in its own words, where there is no RDMA device.
    const CommandResult run = RunCommand({"ib_write_bw"}, kNoDeviceProbeTimeout);
    const std::string said(Trim(run.stdout_text + "\n" + run.stderr_text));
    return FormatRecord(
        "absent", {{"node", context.host},
                   {"status", "failed"},
                   {"why", Clean("no RDMA device, in perftest's own words: " +
                                 (said.empty() ? "(it printed nothing, exit " + std::to_string(run.exit_code) + ")"
                                               : QuoteForMessage(said.substr(0, 400))))}});
  }
  return FormatRecord("rails", {{"node", context.host}, {"list", RailList(rails)}});
}

// An exchange of the pass, under the collective deadline, naming the ranks' hosts.
Exchange Named(const CollectiveContext& context, const std::string& what) {
  Exchange exchange{what, seconds(context.options.collective_timeout_s)};
  exchange.rank_names = context.rank_hosts;
  return exchange;
}

struct Absent {
  std::string node, status, rails, why;
};

// Where this node's side of a pair keeps its buffers. With GPUs on the node and a perftest built
// with CUDA, the k-th active rail uses GPU k (--use_cuda=k), as an HGX board pairs NIC k with
// GPU k under one PCIe switch, so the pass measures GPUDirect RDMA; otherwise host memory. The
// topology itself is not read.
struct BufferPlacement {
  std::vector<Rail> rails;  // this node's active rails, sorted
  int gpus = 0;
  bool perftest_has_cuda = false;

  std::vector<std::string> Flags(const Rail& rail) const {
    const auto at = std::find(rails.begin(), rails.end(), rail);
    if (!perftest_has_cuda || gpus <= 0 || at == rails.end()) return {};
    return {"--use_cuda=" + std::to_string((at - rails.begin()) % gpus)};
  }
};

BufferPlacement PlacementOf(const CollectiveContext& context) {
  BufferPlacement placement;
  if (!context.node_owner || !FindOnPath("ib_write_bw")) return placement;
  placement.rails = ActiveRails(context.options.sysfs_root);
  const RawOutput devices = gpu_devices::GpuDevicesOutput(LiveContext{context.host, context.profile, context.options});
  for (std::string_view line : SplitLines(devices.text)) placement.gpus += StartsWith(line, "device ") ? 1 : 0;
  if (placement.gpus > 0 && !placement.rails.empty()) {
    const CommandResult help = RunCommand({"ib_write_bw", "--help"}, kNoDeviceProbeTimeout);
    placement.perftest_has_cuda = Contains(help.stdout_text + help.stderr_text, "use_cuda");
  }
  return placement;
}

// Both sides of a pair run the same command; the client adds its server's host name. The
// latency run listens on its own port, so a bandwidth server killed late cannot hold it.
std::vector<std::string> BandwidthArguments(const Rail& rail, int tcp_port, const BufferPlacement& placement) {
  std::vector<std::string> argv = {"ib_write_bw", "-d", rail.hca, "-i", std::to_string(rail.port), "-p",
                                   std::to_string(tcp_port), "-D", std::to_string(kDurationS), "-F", "--report_gbits"};
  for (auto& flag : placement.Flags(rail)) argv.push_back(std::move(flag));
  return argv;
}

std::vector<std::string> LatencyArguments(const Rail& rail, int tcp_port, const BufferPlacement& placement) {
  std::vector<std::string> argv = {"ib_write_lat", "-d", rail.hca, "-i", std::to_string(rail.port),
                                   "-p", std::to_string(tcp_port + 500), "-F"};
  for (auto& flag : placement.Flags(rail)) argv.push_back(std::move(flag));
  return argv;
}

struct ClientRun {
  std::optional<double> value;
  std::string error;  // perftest's own words, or how the run ended
};

// A perftest client against `server`, tried again while it could not connect (its server may
// not listen yet) until the connect window passes; `read` takes the number from its report.
ClientRun RunClient(std::vector<std::string> argv, const std::string& client, const std::string& server,
                    const std::function<std::optional<double>(const PerftestReport&)>& read) {
  argv.push_back(server);
  const auto give_up_at = std::chrono::steady_clock::now() + kConnectWindow;
  ClientRun result;
  for (;;) {
    const CommandResult run = RunCommand(argv, kClientTimeout);
    auto report = ParsePerftest(run.stdout_text + "\n" + run.stderr_text, client + ": " + CommandText(argv));
    result.value = report ? read(*report) : std::nullopt;
    if (result.value) {
      result.error.clear();
    } else if (run.outcome == CommandOutcome::kTimedOut) {
      result.error = ToolKilledAtDeadline(argv[0], static_cast<int>(kClientTimeout.count()));
    } else if (run.outcome == CommandOutcome::kNotFound) {
      result.error = ToolNotInstalled(argv[0], client);
    } else if (report && !report->errors.empty()) {
      result.error = report->errors.front().line;
    } else {
      result.error = argv[0] + " ended with exit status " + std::to_string(run.exit_code) + " and printed no result" +
                     (report ? "" : ": " + report.error());
    }
    const bool refused = report && report->FirstError(PerftestErrorKind::kConnectFailed) != nullptr;
    if (result.value || !refused || std::chrono::steady_clock::now() >= give_up_at) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

// The client's side of one pair, bandwidth then latency, as a cluster/perftest-rail-pairs.txt line.
std::string MeasureAsClient(const PlannedPair& pair, int tcp_port, const BufferPlacement& placement) {
  const ClientRun bandwidth =
      RunClient(BandwidthArguments(pair.rail, tcp_port, placement), pair.client, pair.server, [](const PerftestReport& report) {
        return report.bandwidth.empty() ? std::nullopt : std::optional(report.bandwidth.back().bw_average_gbit_per_s);
      });
  ClientRun latency;
  if (bandwidth.value) {
    latency = RunClient(LatencyArguments(pair.rail, tcp_port, placement), pair.client, pair.server, [](const PerftestReport& report) {
      return report.latency.empty() ? std::nullopt : std::optional(report.latency.back().t_avg_us);
    });
  }
  std::vector<std::pair<std::string, std::string>> fields = {
      {"pass", std::to_string(pair.pass)}, {"client", pair.client}, {"server", pair.server},
      {"hca", pair.rail.hca},             {"port", std::to_string(pair.rail.port)}};
  if (bandwidth.value) {
    fields.emplace_back("bw_average_gbit_per_s", std::to_string(*bandwidth.value));
    if (latency.value) {
      fields.emplace_back("lat_average_us", std::to_string(*latency.value));
    } else {
      fields.emplace_back("lat_error", Clean(latency.error));
    }
  } else {
    fields.emplace_back("error", Clean(bandwidth.error));
  }
  return FormatRecord("pair", fields) + "\n";
}

// One round, on every rank: servers start, the ranks meet, clients measure, the ranks meet.
std::string RunRound(const CollectiveContext& context, const Round& round, int tcp_port,
                     const BufferPlacement& placement) {
  const PlannedPair* as_server = nullptr;
  const PlannedPair* as_client = nullptr;
  for (const auto& pair : round) {
    if (context.node_owner && pair.server == context.host) as_server = &pair;
    if (context.node_owner && pair.client == context.host) as_client = &pair;
  }
  std::thread server;
  if (as_server != nullptr) {
    // The latency server starts as soon as the bandwidth run ends (its client runs next).
    server = std::thread([bandwidth = BandwidthArguments(as_server->rail, tcp_port, placement),
                          latency = LatencyArguments(as_server->rail, tcp_port, placement)] {
      (void)RunCommand(bandwidth, kServerTimeout);
      (void)RunCommand(latency, kServerTimeout);
    });
  }
  const seconds collective(context.options.collective_timeout_s);
  context.world.SleepingBarrier({"the start of an ib_write_bw round's servers", collective});
  std::string line;
  if (as_client != nullptr) line = MeasureAsClient(*as_client, tcp_port, placement);
  if (server.joinable()) server.join();
  context.world.SleepingBarrier({"the end of an ib_write_bw round", collective + kConnectWindow + 2 * kServerTimeout,
                                 "a rank's ib_write_bw outlived its deadline, or a rank stopped answering"});
  return line;
}

std::string RunRounds(const CollectiveContext& context, const std::vector<Round>& rounds, int& tcp_port,
                      const BufferPlacement& placement) {
  std::string lines;
  for (const Round& round : rounds) {
    lines += RunRound(context, round, tcp_port, placement);
    tcp_port = tcp_port + 1 > kFirstTcpPort + 200 ? kFirstTcpPort : tcp_port + 1;
  }
  return lines;
}

}  // namespace

RawOutput RunRailPairsPass(const CollectiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": ib_write_bw pairing pass";
  const auto floor = context.profile ? RailFloorOf(*context.profile) : std::nullopt;
  if (!floor) {  // the same on every rank: nobody measures
    out.status = ProbeStatus::kAbsent;
    out.detail = "the profile expects no InfiniBand or RoCE rails: no ib_write_bw pairs to measure";
    return out;
  }
  const seconds collective(context.options.collective_timeout_s);
  const auto parts = context.world.AllGather(context.node_owner ? NodePart(context) : "",
                                             {"the exchange of every node's active RDMA ports", collective + seconds(15),
                                              "a rank stopped answering, or ib_write_bw hung on a node without a device",
                                              context.rank_hosts});
  RailsByNode nodes;
  std::vector<Absent> absent;
  for (const auto& part : parts) {
    auto records = ParseRecordLines(part, "a node's RDMA ports");
    if (!records) continue;
    for (const auto& record : *records) {
      if (record.kind == "absent") {
        absent.push_back({record.Get("node"), record.Get("status"), record.Get("rails"), record.Get("why")});
      }
      if (record.kind != "rails") continue;
      std::vector<Rail> rails;
      for (const std::string& item : SplitOn(record.Get("list"), ',')) {
        const auto colon = item.rfind(':');
        if (colon == std::string::npos) continue;
        rails.push_back({item.substr(0, colon), std::atoi(item.substr(colon + 1).c_str())});
      }
      nodes.emplace_back(record.Get("node"), rails);
    }
  }
  const std::vector<Round> ring = RingRounds(nodes);
  if (ring.empty()) {
    out.status = ProbeStatus::kFailed;
    // Nodes that give the same reason are named once, as a hostlist: "node[1-3]: no RDMA device ...".
    std::map<std::string, std::vector<std::string>> nodes_by_why;
    bool all_missing = !absent.empty();
    for (const auto& node : absent) {
      all_missing = all_missing && node.status == "missing";
      nodes_by_why[node.why].push_back(node.node);
    }
    if (all_missing) out.status = ProbeStatus::kToolMissing;
    std::vector<std::string> reasons;
    for (const auto& [reason, hosts] : nodes_by_why) reasons.push_back(ShortHostlist(hosts) + ": " + reason);
    std::string why = Join(reasons, "; ");
    if (why.empty()) why = "fewer than two nodes share an active RDMA port (HCA and port)";
    out.detail = why;
    return out;
  }
  int tcp_port = kFirstTcpPort;
  const BufferPlacement placement = PlacementOf(context);
  const std::string first = RunRounds(context, ring, tcp_port, placement);
  // Every rank needs pass 1's results to plan pass 2 the same way.
  std::string pass1;
  for (const auto& part : context.world.AllGather(first, Named(context, "the exchange of ib_write_bw pass 1"))) {
    pass1 += part;
  }
  std::vector<RailPair> measured;
  if (auto file = ParseRailPairs(pass1, "ib_write_bw pass 1")) measured = std::move(file).value().pairs;
  const std::string second = RunRounds(context, ConfirmationRounds(measured, floor->gbit_per_s), tcp_port, placement);
  const auto seconds_parts =
      context.world.GatherToRoot(second, Named(context, "the gather of ib_write_bw pass 2"));
  if (!context.world.is_root()) return out;
  out.text = "# perftest-rail-pairs v1\n";
  for (const auto& node : absent) {
    std::vector<std::pair<std::string, std::string>> fields = {{"node", node.node}, {"status", node.status}};
    if (!node.rails.empty()) fields.emplace_back("rails", node.rails);
    fields.emplace_back("why", node.why);
    out.text += FormatRecord("unpaired", fields) + "\n";
  }
  out.text += pass1;
  for (const auto& part : seconds_parts) out.text += part;
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace gpuconform::perftest
