// Launch suite glue: the per-rank facts come from the live gather, or from a snapshot that
// kept them (facts/launch_facts.h); the nodes' addresses (for a MASTER_ADDR given as an IP)
// from `ip -o addr show` (probes/iproute/iproute_facts.h).
#include <optional>
#include <string>
#include <vector>

#include "facts/launch_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/iproute/iproute_facts.h"
#include "probes/iproute/iproute_probes.h"
#include "suites/launch/launch_checks.h"

namespace gpuconform::launch {

namespace {

// Why the run has no ranks to judge, most telling first: they never formed a world (which
// WorldFormed reports as its error), Slurm started no task, or the run kept no launch facts.
std::optional<std::string> NoRanks(const SuiteContext& context) {
  if (!context.world_problem.empty()) return std::string("the ranks did not form a world; see ") + kWorldFormed;
  if (context.options.launch_no_task) {
    return std::string("Slurm started no task on any node (see ") + kTaskStarted + "), so no rank was launched";
  }
  if (context.ranks.empty()) {
    return "launch facts exist only in a live run under srun or mpirun, or in a snapshot it captured "
           "(cluster/launch-ranks.txt)";
  }
  return std::nullopt;
}

// A ranks check applies where there are ranks to judge.
std::optional<std::string> RanksCheckNotApplicable(const SuiteContext& context, const std::string&) {
  return NoRanks(context);
}

// WorldFormed judges a world that did not form (an error), so it is skipped only for the
// other reasons there are no ranks.
std::optional<std::string> WorldFormedNotApplicable(const SuiteContext& context, const std::string&) {
  if (!context.world_problem.empty()) return std::nullopt;
  return NoRanks(context);
}

const std::vector<RankLaunch>& Ranks(const SuiteContext& context) {
  return facts::ReadRankLaunches(context.raw, context.ranks);
}

// Each node's interfaces and addresses (ip -o addr show): a MASTER_ADDR given as an IP, and
// an Open MPI interface list given as a subnet, are judged against them. Read once per run for
// both checks; a node whose addresses cannot be read is left out.
const NodeInterfaceAddresses& NodeAddresses(const SuiteContext& context) {
  return context.raw.facts.Get<NodeInterfaceAddresses>("launch-node-addresses", "", [&] {
    NodeInterfaceAddresses addresses;
    for (const auto& node : context.raw.nodes) {
      const auto& interfaces = iproute::ReadIpAddr(context.raw, node);
      if (!interfaces) continue;
      auto& mine = addresses[node];
      for (const auto& interface : *interfaces) {
        for (const auto& ipv4 : interface.ipv4) mine.emplace_back(interface.name, ipv4.text);
        for (const auto& ipv6 : interface.ipv6) mine.emplace_back(interface.name, ipv6);
      }
    }
    return addresses;
  });
}

// TaskStarted judges the nodes whose task ran and those `gpuconform launch` left out (in that
// order). Elsewhere no run knows the nodes left out: one case for the cluster then says so.
JudgedNodes TaskStartedNodes(const SuiteContext& context) {
  if (!context.options.launched) return JudgedNodes::ForTheCluster();
  std::vector<std::string> nodes = context.raw.nodes;
  for (const auto& refused : context.options.launch_refused) nodes.push_back(refused.node);
  return {nodes, std::nullopt};
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "ranks were launched as the job asked: ids consistent, no oversubscribed node, rendezvous valid",
    .checks = {
        {.name = kTaskStarted,
         .requirement = "Slurm started the run's task on every node asked for and it lived until the ranks met "
                        "(judged under gpuconform launch)",
         .per_node = true,
         .judge = [](const SuiteContext& context,
                     const std::string& node) { return CheckTaskStarted(node, context.options.launch_refused); },
         .not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
           if (context.options.launched) return std::nullopt;
           return "only `gpuconform launch` knows which nodes Slurm could not start a task on";
         }},
        {.name = kWorldFormed,
         .requirement = "every rank joined one world through the launcher's PMIx in time (GPUCONFORM_WORLD_TIMEOUT_S)",
         .judge = [](const SuiteContext& context, const std::string&) { return CheckWorldFormed(context.world_problem); },
         .not_applicable = WorldFormedNotApplicable},
        {.name = kSlurmIdsConsistent,
         .requirement = "SLURM_PROCID = MPI rank, SLURM_NTASKS = world size, one SLURM_NODEID per host",
         .judge = [](const SuiteContext& context, const std::string&) { return CheckSlurmIdsConsistent(Ranks(context)); },
         .not_applicable = RanksCheckNotApplicable},
        {.name = kTasksPerNodeAsRequested,
         .requirement = "no node runs more tasks than --ntasks-per-node asked (one by default)",
         .judge = [](const SuiteContext& context,
                     const std::string&) { return CheckTasksPerNodeAsRequested(Ranks(context)); },
         .not_applicable = RanksCheckNotApplicable},
        {.name = kMasterAddrInAllocation,
         .requirement = "MASTER_ADDR/MASTER_PORT, when set, agree on every rank and name an allocated node",
         .judge = [](const SuiteContext& context,
                     const std::string&) { return CheckMasterAddrInAllocation(Ranks(context), NodeAddresses(context)); },
         .not_applicable = RanksCheckNotApplicable},
        {.name = kFabricPinnedInEnvironment,
         .requirement = "NCCL_SOCKET_IFNAME and OMPI_MCA_btl_tcp_if_include pin traffic to the fabric, never a "
                        "forbidden interface",
         .judge =
             [](const SuiteContext& context, const std::string&) {
               return CheckFabricPinnedInEnvironment(Ranks(context), context.profile, NodeAddresses(context));
             },
         .not_applicable = RanksCheckNotApplicable},
    },
    .probes = {iproute::IpAddrProbe()},
    .judged_nodes = TaskStartedNodes,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::launch
