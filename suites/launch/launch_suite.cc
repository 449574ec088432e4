// Launch suite glue: the per-rank facts come from the live gather, or from a snapshot that
// kept them (facts/launch_facts.h); the nodes' addresses (for a MASTER_ADDR given as an IP)
// from `ip -o addr show` (probes/iproute/iproute_facts.h).
#include "facts/launch_facts.h"
#include "harness/suite_registry.h"
#include "probes/iproute/iproute_facts.h"
#include "probes/iproute/iproute_probes.h"
#include "suites/launch/launch_checks.h"

namespace gpuconform::launch {

namespace {

std::vector<CheckResult> SkipRankChecks(CheckResult world, const std::string& reason) {
  return {Judged("WorldFormed", "", std::move(world)), Judged("SlurmIdsConsistent", "", Skipped(reason)),
          Judged("TasksPerNodeAsRequested", "", Skipped(reason)), Judged("MasterAddrInAllocation", "", Skipped(reason)),
          Judged("FabricPinnedInEnvironment", "", Skipped(reason))};
}

// Each node's interfaces and addresses (ip -o addr show): a MASTER_ADDR given as an IP, and
// an Open MPI interface list given as a subnet, are judged against them.
NodeInterfaceAddresses NodeAddresses(const SuiteContext& context) {
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
}

std::vector<CheckResult> JudgeRanks(const SuiteContext& context) {
  if (!context.world_problem.empty()) {
    return SkipRankChecks(Errored("world-not-formed", context.world_problem),
                          "the ranks did not form a world; see WorldFormed");
  }
  if (context.options.launch_no_task) {
    const std::string reason = "Slurm started no task on any node (see TaskStarted), so no rank was launched";
    return SkipRankChecks(Skipped(reason), reason);
  }
  if (context.ranks.empty()) {
    const std::string reason =
        "launch facts exist only in a live run under srun or mpirun, or in a snapshot it captured "
        "(cluster/launch-ranks.txt)";
    return SkipRankChecks(Skipped(reason), reason);
  }
  const auto& ranks = facts::ReadRankLaunches(context.raw, context.ranks);
  const NodeInterfaceAddresses addresses = NodeAddresses(context);
  return {Judged("WorldFormed", "", Passed()), Judged("SlurmIdsConsistent", "", CheckSlurmIdsConsistent(ranks)),
          Judged("TasksPerNodeAsRequested", "", CheckTasksPerNodeAsRequested(ranks)),
          Judged("MasterAddrInAllocation", "", CheckMasterAddrInAllocation(ranks, addresses)),
          Judged("FabricPinnedInEnvironment", "", CheckFabricPinnedInEnvironment(ranks, context.profile, addresses))};
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results =
      CheckTaskStarted(context.raw.nodes, context.options.launched, context.options.launch_refused);
  for (auto& result : JudgeRanks(context)) results.push_back(std::move(result));
  return results;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "ranks were launched as the job asked: ids consistent, no oversubscribed node, rendezvous valid",
    .checks = {
        {kTaskStarted,
         "Slurm started the run's task on every node asked for and it lived until the ranks met (judged under "
         "gpuconform launch)",
         true},
        {"WorldFormed", "every rank joined one world through the launcher's PMIx in time (GPUCONFORM_WORLD_TIMEOUT_S)", false},
        {"SlurmIdsConsistent", "SLURM_PROCID = MPI rank, SLURM_NTASKS = world size, one SLURM_NODEID per host", false},
        {"TasksPerNodeAsRequested", "no node runs more tasks than --ntasks-per-node asked (one by default)", false},
        {"MasterAddrInAllocation", "MASTER_ADDR/MASTER_PORT, when set, agree on every rank and name an allocated node",
         false},
        {"FabricPinnedInEnvironment",
         "NCCL_SOCKET_IFNAME and OMPI_MCA_btl_tcp_if_include pin traffic to the fabric, never a forbidden interface", false},
    },
    .probes = {iproute::IpAddrProbe()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::launch
