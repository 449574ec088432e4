#include "harness/world/gather.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "harness/core/termination.h"
#include "harness/world/tcp_gather.h"

namespace gpuconform {

namespace {

// The launch variables of the options, as "NAME=value" lines.
std::string LaunchEnvironment(const RunOptions& options) {
  std::string text;
  for (const auto& [name, value] : options.launch_environment) text += name + "=" + value + "\n";
  return text;
}

// The longest a rank may spend on its node and cluster probes: each command's own timeout.
std::chrono::seconds NodeProbeBudget(const std::vector<ProbeSpec>& probes) {
  std::chrono::milliseconds budget{0};
  for (const auto& spec : probes) {
    if (spec.method != ProbeMethod::kCollective) budget += std::chrono::milliseconds(spec.timeout_ms);
  }
  return std::chrono::duration_cast<std::chrono::seconds>(budget) + std::chrono::seconds(1);
}

// The one part a rank sends to rank 0: its outputs, rank, host and launch environment.
std::string Envelope(const ClusterRaw& mine, int rank, const std::string& host, const RunOptions& options) {
  const nlohmann::json envelope = {
      {"raw", mine.ToJson()}, {"rank", rank}, {"host", host}, {"env", LaunchEnvironment(options)}};
  return envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Every part parsed and merged. Each envelope is released once parsed, and the parts are merged
// at once (one sort of the node list, not one per rank), so rank 0 holds the fleet's outputs
// about once, not twice. An empty part (a rank that sent nothing) is skipped.
GatheredRun OpenEnvelopes(std::vector<std::string> parts) {
  GatheredRun run;
  std::vector<ClusterRaw> raws;
  raws.reserve(parts.size());
  for (std::string& part : parts) {
    if (part.empty()) continue;
    const auto j = nlohmann::json::parse(part, nullptr, false);
    std::string().swap(part);
    if (j.is_discarded() || !j.contains("raw")) continue;
    auto raw = ClusterRaw::FromJson(j.at("raw").get_ref<const std::string&>());
    if (raw) raws.push_back(std::move(raw).value());
    run.ranks.push_back({j.at("rank").get<int>(), j.at("host").get<std::string>(), j.at("env").get<std::string>()});
  }
  run.raw.MergeAll(std::move(raws));
  return run;
}

// The time left before the run's armed deadline (termination.h), where one is armed.
std::optional<std::chrono::seconds> TimeLeft() {
  const auto end = TerminationTime();
  if (!end) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::seconds>(*end - std::chrono::steady_clock::now());
}

// The outputs of `ids` only, for every node `raw` holds.
ClusterRaw OnlyProbes(const ClusterRaw& raw, const std::set<std::string>& ids) {
  ClusterRaw subset;
  subset.nodes = raw.nodes;
  for (const auto& [node, outputs] : raw.node) {
    for (const auto& [id, out] : outputs) {
      if (ids.count(id) != 0) subset.node[node][id] = out;
    }
  }
  for (const auto& [id, out] : raw.cluster) {
    if (ids.count(id) != 0) subset.cluster[id] = out;
  }
  return subset;
}

// Rank 0's host-exchange value carries its termination inbox after a newline.
constexpr char kInboxSeparator = '\n';

}  // namespace

// Probes whose timeout is at most this are not planned around the deadline (see below).
constexpr std::chrono::seconds kPlannedProbeS{60};

std::optional<RawOutput> NotStartedForLackOfTime(const ProbeSpec& spec, const std::string& node,
                                                 std::optional<std::chrono::seconds> left) {
  if (!left) return std::nullopt;
  const auto may_take = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::milliseconds(spec.timeout_ms));
  // A command's timeout is its worst case, and most take milliseconds: only a long measurement
  // (a DCGM diagnostic, nvbandwidth) is left out ahead; a short one that hangs is stopped when
  // the deadline comes.
  if (may_take <= kPlannedProbeS || *left >= may_take) return std::nullopt;
  const std::string where = node.empty() ? "" : node + ": ";
  return RawOutput{ProbeStatus::kFailed, "", where + spec.id,
                   where + spec.file + " " + kNoTimeMarker + std::to_string(std::max<long long>(0, left->count())) +
                       " s were left before the run's deadline, and it may take up to " +
                       std::to_string(may_take.count()) + " s"};
}

GatherProgress::GatherProgress() = default;
GatherProgress::~GatherProgress() = default;

std::string GatherProgress::OpenInbox() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (listener_) return GatherRendezvous{LocalHostname(), listener_->port(), inbox_nonce_}.Encode();
  auto listener = GatherListener::Open();
  if (!listener) return "";
  inbox_nonce_ = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  listener_ = std::make_unique<GatherListener>(std::move(listener).value());
  return GatherRendezvous{LocalHostname(), listener_->port(), inbox_nonce_}.Encode();
}

void GatherProgress::Start(int rank, int size, std::vector<std::string> hosts, std::string inbox,
                           std::vector<ProbeSpec> probes, const RunOptions& options) {
  std::lock_guard<std::mutex> lock(mutex_);
  options_ = &options;
  rank_ = rank;
  size_ = size;
  hosts_ = std::move(hosts);
  inbox_ = std::move(inbox);
  probes_ = std::move(probes);
}

void GatherProgress::KeepNode(const std::string& host, const std::string& probe_id, const RawOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::find(mine_.nodes.begin(), mine_.nodes.end(), host) == mine_.nodes.end()) mine_.nodes.push_back(host);
  mine_.node[host][probe_id] = out;
}

void GatherProgress::KeepCluster(const std::string& probe_id, const RawOutput& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  mine_.cluster[probe_id] = out;
}

void GatherProgress::MarkGathered() {
  std::lock_guard<std::mutex> lock(mutex_);
  gathered_ = true;
  mine_ = ClusterRaw{};
}

bool GatherProgress::gathered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gathered_;
}

Result<bool> GatherProgress::SendToInbox(const std::string& inbox, int rank, const std::string& host,
                                         const ClusterRaw& taken, const RunOptions& options,
                                         std::chrono::milliseconds deadline) {
  auto root = GatherRendezvous::Decode(inbox);
  if (!root) return Error{root.error()};
  return SendPartToRoot(*root, rank, Envelope(taken, rank, host, options), deadline);
}

void GatherProgress::SendWhatWeHave(std::chrono::milliseconds deadline) {
  std::string part;
  GatherRendezvous root;
  int rank = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (gathered_ || rank_ == 0) return;
    auto decoded = GatherRendezvous::Decode(inbox_);
    if (!decoded) return;  // rank 0 has no inbox: nothing to send to
    root = *decoded;
    rank = rank_;
    const std::string host = rank_ < static_cast<int>(hosts_.size()) ? hosts_[rank_] : LocalHostname();
    part = Envelope(mine_, rank_, host, *options_);
  }
  (void)SendPartToRoot(root, rank, part, deadline);
}

GatheredRun GatherProgress::CollectWhatWeHave(std::chrono::milliseconds deadline, const std::string& notice) {
  std::string mine;
  int size = 1;
  std::vector<std::string> hosts;
  std::vector<ProbeSpec> probes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    size = size_;
    hosts = hosts_;
    probes = probes_;
    mine = Envelope(mine_, 0, hosts_.empty() ? LocalHostname() : hosts_[0], *options_);
  }
  std::vector<std::string> parts = {std::move(mine)};
  if (listener_ && size > 1) parts = listener_->ReceiveWhatArrives(size, inbox_nonce_, std::move(parts[0]), deadline).parts;
  GatheredRun run = OpenEnvelopes(std::move(parts));
  // What was not taken says so, by node: every host of the step, every probe of the run.
  std::set<std::string> arrived(run.raw.nodes.begin(), run.raw.nodes.end());
  std::set<std::string> step_hosts(hosts.begin(), hosts.end());
  std::set<std::string> every_host = step_hosts;
  every_host.insert(arrived.begin(), arrived.end());
  for (const auto& host : every_host) {
    const bool whole_node_lost = arrived.count(host) == 0;
    for (const auto& spec : probes) {
      if (spec.scope != ProbeScope::kNode) continue;
      auto& outputs = run.raw.node[host];
      if (outputs.count(spec.id) != 0) continue;
      const std::string why =
          whole_node_lost ? host + ": its outputs did not reach rank 0 before the run ended: " + notice
                          : host + ": " + spec.file + " was not taken: " + notice;
      outputs[spec.id] = RawOutput{ProbeStatus::kFailed, "", host + ": " + spec.id, why};
    }
  }
  for (const auto& spec : probes) {
    if (spec.scope != ProbeScope::kCluster || run.raw.cluster.count(spec.id) != 0) continue;
    run.raw.cluster[spec.id] =
        RawOutput{ProbeStatus::kFailed, "", spec.id, spec.file + " was not taken: " + notice};
  }
  std::vector<std::string> nodes(step_hosts.begin(), step_hosts.end());
  for (const auto& node : run.raw.nodes) {
    if (step_hosts.count(node) == 0) nodes.push_back(node);
  }
  std::sort(nodes.begin(), nodes.end());
  run.raw.nodes = std::move(nodes);
  return run;
}

GatheredRun GatherLive(const World& world, LiveSource& live, const std::vector<ProbeSpec>& probes,
                       const std::function<void(const std::string&)>& progress, const Profile* profile,
                       GatherProgress* so_far) {
  const std::string host = live.Nodes().front();
  const RunOptions& options = live.context().options;
  const std::chrono::seconds collective_timeout(options.collective_timeout_s);
  std::string exchanged = host;
  if (so_far != nullptr && world.is_root() && world.size() > 1) exchanged += kInboxSeparator + so_far->OpenInbox();
  std::vector<std::string> hosts = world.AllGather(exchanged, {"the exchange of host names", collective_timeout});
  std::string inbox;
  if (const auto separator = hosts[0].find(kInboxSeparator); separator != std::string::npos) {
    inbox = hosts[0].substr(separator + 1);
    hosts[0].resize(separator);
  }
  if (so_far != nullptr) {
    so_far->Start(world.rank(), world.size(), hosts, inbox, probes, options);
    if (world.is_root() && so_far->on_hosts_known && !options.launch_no_task) {
      const std::set<std::string> unique(hosts.begin(), hosts.end());
      so_far->on_hosts_known(std::vector<std::string>(unique.begin(), unique.end()));
    }
  }
  auto keep_node = [&](ClusterRaw& raw, const ProbeSpec& spec, RawOutput out) {
    if (so_far != nullptr) so_far->KeepNode(host, spec.id, out);
    raw.node[host][spec.id] = std::move(out);
  };
  auto keep_cluster = [&](ClusterRaw& raw, const ProbeSpec& spec, RawOutput out) {
    if (so_far != nullptr) so_far->KeepCluster(spec.id, out);
    raw.cluster[spec.id] = std::move(out);
  };
  // Under `launch --launch-no-task` this host is not one of the run's nodes.
  bool node_owner = !options.launch_no_task;
  for (int r = 0; r < world.rank(); ++r) {
    if (hosts[r] == host) node_owner = false;
  }
  if (world.is_root()) {
    progress("gathering probes on " + std::to_string(world.size()) + " rank(s): " + world.Describe());
  }

  ClusterRaw mine;
  if (node_owner) {
    mine.nodes = {host};
    for (const auto& spec : probes) {
      if (spec.scope == ProbeScope::kNode && spec.method != ProbeMethod::kCollective) {
        if (auto no_time = NotStartedForLackOfTime(spec, host, TimeLeft())) {
          keep_node(mine, spec, std::move(*no_time));
          continue;
        }
        keep_node(mine, spec, live.Fetch(spec, host));
      }
    }
  }
  if (world.is_root()) {
    for (const auto& spec : probes) {
      if (spec.scope == ProbeScope::kCluster && spec.method != ProbeMethod::kCollective) {
        if (auto no_time = NotStartedForLackOfTime(spec, "", TimeLeft())) {
          keep_cluster(mine, spec, std::move(*no_time));
          continue;
        }
        keep_cluster(mine, spec, live.Fetch(spec, ""));
      }
    }
  }
  // The suites that need no measurement are judged from a first gather (GatherProgress).
  const bool two_gathers = so_far != nullptr && !so_far->early_probe_ids.empty();
  if (two_gathers) {
    const Exchange node_outputs{"the gather of every node's probe outputs", collective_timeout + NodeProbeBudget(probes),
                                "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server), "
                                "or a node's probes ran past their timeouts",
                                hosts};
    std::vector<std::string> first = world.GatherToRoot(
        Envelope(OnlyProbes(mine, so_far->early_probe_ids), world.rank(), host, options), node_outputs);
    if (world.is_root()) {
      progress("gathered the node probes of " + std::to_string(first.size()) + " rank(s); judging the suites that "
               "need no measurement");
      if (so_far->on_early_gathered) so_far->on_early_gathered(OpenEnvelopes(std::move(first)));
    }
  }
  // Collective probes last, on every rank in the same order (they talk to each other).
  const CollectiveContext context{world, profile, host, node_owner, hosts, options};
  for (const auto& spec : probes) {
    if (spec.method != ProbeMethod::kCollective || !spec.collective) continue;
    if (options.launch_no_task) continue;  // no node to measure on
    if (world.is_root()) progress("running " + spec.id + " across all ranks");
    RawOutput out = spec.collective(context);
    // A cluster-scope collective (a measurement) is judged from rank 0's answer.
    if (spec.scope == ProbeScope::kCluster) {
      if (world.is_root()) keep_cluster(mine, spec, std::move(out));
    } else if (node_owner) {
      keep_node(mine, spec, std::move(out));
    }
  }

  std::string envelope =
      Envelope(two_gathers ? OnlyProbes(mine, so_far->final_probe_ids) : mine, world.rank(), host, options);
  // Only rank 0 judges and reports, so only rank 0 receives the raw outputs. A rank arrives
  // here after its own node probes, so the others may wait here for the slowest node's.
  const Exchange raw_outputs{"the gather of every node's raw outputs", collective_timeout + NodeProbeBudget(probes),
                             "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server), "
                             "or a node's probes ran past their timeouts",
                             hosts};
  std::vector<std::string> parts = world.GatherToRoot(envelope, raw_outputs);
  std::string().swap(envelope);
  if (so_far != nullptr) so_far->MarkGathered();
  GatheredRun run = OpenEnvelopes(std::move(parts));
  if (world.is_root()) progress("gathered " + std::to_string(run.raw.nodes.size()) + " node(s)");
  return run;
}

}  // namespace gpuconform
