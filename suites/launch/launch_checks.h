// Launch suite: the job's ranks were started the way the job asked. Pure: the per-rank
// launch facts (rank, host, environment: facts/launch_facts.h) and the nodes' addresses in,
// one judgement per check out (the suite's glue says where a check does not apply). The
// classic trap it catches is oversubscription — a node running more tasks than requested, so
// ranks fight over GPUs and NICs while every single-node test still passes.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "facts/launch_facts.h"
#include "harness/core/profile.h"
#include "harness/core/run_options.h"
#include "harness/core/verdict.h"
#include "harness/world/gather.h"

namespace gpuconform::launch {

inline constexpr char kSuite[] = "Launch";

using facts::ParseRanks;
using facts::RankLaunch;

// The ranks formed one world: `world_problem` says why they did not (MPI_Init timed out), and
// is empty when they did.
GPUCONFORM_CHECK_NAME(WorldFormed);
CheckResult CheckWorldFormed(const std::string& world_problem);

// SLURM_PROCID is the MPI rank, SLURM_NTASKS the world size, SLURM_NODEID one per host.
GPUCONFORM_CHECK_NAME(SlurmIdsConsistent);
CheckResult CheckSlurmIdsConsistent(const std::vector<RankLaunch>& ranks);
// No node runs more tasks than --ntasks-per-node asked (one, when nothing was asked:
// gpuconform drives all of a node's GPUs from one task).
GPUCONFORM_CHECK_NAME(TasksPerNodeAsRequested);
CheckResult CheckTasksPerNodeAsRequested(const std::vector<RankLaunch>& ranks);
// Each node's interfaces and their addresses as `ip -o addr show` prints them:
// node -> [(ifname, "10.20.0.1/24"), (ifname, "fe80::1/64"), ...].
using NodeInterfaceAddresses = std::map<std::string, std::vector<std::pair<std::string, std::string>>>;

// MASTER_ADDR/MASTER_PORT, when set, are the same on every rank (set on some ranks only is a
// disagreement) and name a node of the allocation with a valid port. MASTER_ADDR in every form
// it takes in the field: a short name or an FQDN (compared by its first label), or an IPv4 or
// IPv6 address (with or without brackets), which must be an address of one of the nodes, and
// of the node with SLURM_NODEID 0 where the ranks say which that is (torchrun's static
// rendezvous is hosted there). PRIMARY_ADDR/PRIMARY_PORT count as aliases where MASTER_* is
// unset. An address that cannot be compared (no node's addresses known) is an error, never a
// pass.
GPUCONFORM_CHECK_NAME(MasterAddrInAllocation);
CheckResult CheckMasterAddrInAllocation(const std::vector<RankLaunch>& ranks, const NodeInterfaceAddresses& interfaces);

// The launch environment pins collectives to the fabric: NCCL_SOCKET_IFNAME and Open MPI's
// btl_tcp_if_include never name a forbidden (management) interface, and where the profile
// names the fabric interface, MPI is pinned to it — unpinned, Open MPI's TCP transport
// stripes over every interface and the slowest one sets the pace.
// Open MPI's btl_tcp_if_include and btl_tcp_if_exclude take interface names or IPv4 subnets
// ("10.10.0.0/24"); a subnet stands for the node's interfaces with an address in it
// (`interfaces`), and one that cannot be resolved (the node's addresses unknown) is an error.
GPUCONFORM_CHECK_NAME(FabricPinnedInEnvironment);
CheckResult CheckFabricPinnedInEnvironment(const std::vector<RankLaunch>& ranks, const Profile& profile,
                                           const NodeInterfaceAddresses& interfaces = {});

// One node: Slurm started the run's task there and it lived until the ranks met. Only
// `gpuconform launch` knows the nodes it left out (`refused`), which are outside the run's
// nodes; a node not among them passes. Each node left out fails, quoting srun's words:
// slurm-launch-refused where Slurm could not start the task, task-exited-at-start where the
// task ended (an exit status or a signal) before the world formed.
GPUCONFORM_CHECK_NAME(TaskStarted);
CheckResult CheckTaskStarted(const std::string& node, const std::vector<RefusedNode>& refused);

}  // namespace gpuconform::launch
