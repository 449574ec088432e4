#include "harness/gather.h"

#include <chrono>
#include <nlohmann/json.hpp>

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

}  // namespace

GatheredRun GatherLive(const World& world, LiveSource& live, const std::vector<ProbeSpec>& probes,
                       const std::function<void(const std::string&)>& progress, const Profile* profile) {
  const std::string host = live.Nodes().front();
  const RunOptions& options = live.context().options;
  const std::chrono::seconds collective_timeout(options.collective_timeout_s);
  const std::vector<std::string> hosts = world.AllGather(host, {"the exchange of host names", collective_timeout});
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
        mine.node[host][spec.id] = live.Fetch(spec, host);
      }
    }
  }
  if (world.is_root()) {
    for (const auto& spec : probes) {
      if (spec.scope == ProbeScope::kCluster && spec.method != ProbeMethod::kCollective) {
        mine.cluster[spec.id] = live.Fetch(spec, "");
      }
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
      if (world.is_root()) mine.cluster[spec.id] = std::move(out);
    } else if (node_owner) {
      mine.node[host][spec.id] = std::move(out);
    }
  }

  nlohmann::json envelope = {{"raw", mine.ToJson()}, {"rank", world.rank()}, {"host", host},
                             {"env", LaunchEnvironment(options)}};
  // Only rank 0 judges and reports, so only rank 0 receives the raw outputs. A rank arrives
  // here after its own node probes, so the others may wait here for the slowest node's.
  const Exchange raw_outputs{"the gather of every node's raw outputs", collective_timeout + NodeProbeBudget(probes),
                             "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server), "
                             "or a node's probes ran past their timeouts",
                             hosts};
  GatheredRun run;
  std::vector<std::string> parts =
      world.GatherToRoot(envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), raw_outputs);
  envelope = nullptr;
  // Each envelope is released once parsed, and the parts are merged at once (one sort of the
  // node list, not one per rank), so rank 0 holds the fleet's outputs about once, not twice.
  std::vector<ClusterRaw> raws;
  raws.reserve(parts.size());
  for (std::string& part : parts) {
    const auto j = nlohmann::json::parse(part);
    std::string().swap(part);
    auto raw = ClusterRaw::FromJson(j.at("raw").get_ref<const std::string&>());
    if (raw) raws.push_back(std::move(raw).value());
    run.ranks.push_back({j.at("rank").get<int>(), j.at("host").get<std::string>(), j.at("env").get<std::string>()});
  }
  run.raw.MergeAll(std::move(raws));
  if (world.is_root()) progress("gathered " + std::to_string(run.raw.nodes.size()) + " node(s)");
  return run;
}

}  // namespace gpuconform
