// SlurmGres and SlurmNodes checks. Pure: Slurm records already read (probes/slurm/slurm_facts.h)
// + profile in, a judgement out, one function per check; the harness names each case by its
// check and node (the controller's nodes, which include nodes that ran no gpuconform task).
// A node whose GRES is wrong is drained by slurmctld, and jobs that need it pend forever
// without an error; these checks say which node, what Slurm recorded and how to fix it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/slurm/slurm_parse.h"
#include "probes/slurm/slurm_profile.h"

namespace gpuconform::slurm {

inline constexpr char kGresSuite[] = "SlurmGres";
inline constexpr char kNodesSuite[] = "SlurmNodes";

// The checks' names (both suites judge every node the controller lists).
GPUCONFORM_CHECK_NAME(GresMatchesProfile);
GPUCONFORM_CHECK_NAME(GresRegistered);
GPUCONFORM_CHECK_NAME(GresConfMatchesSlurmConf);
GPUCONFORM_CHECK_NAME(GresMatchesHardware);
GPUCONFORM_CHECK_NAME(AllocationGivesGpus);
GPUCONFORM_CHECK_NAME(NodeUsable);
GPUCONFORM_CHECK_NAME(SlurmdReachable);
GPUCONFORM_CHECK_NAME(NoJobsPendingOnBrokenNodes);

// The GPUs a node has, as the hardware (driver or device files) says.
struct HardwareGpus {
  std::optional<long long> count;
  std::string evidence;   // "nvidia-smi lists 8 GPUs" or "8 GPU devices (/dev/nvidia0 ... /dev/nvidia7)"
  std::string problem;    // why there is no count, naming node and command
};

// Configured GRES (scontrol Gres=) equals the profile's slurm.gres.
CheckResult CheckGresMatchesProfile(const SlurmNode& node, const Profile& profile);
// slurmctld accepted the node's GRES: no INVAL / INVALID_REG state, no GRES drain reason.
CheckResult CheckGresRegistered(const SlurmNode& node);
// The node's gres.conf declares as many GPUs as slurm.conf's Gres= says.
CheckResult CheckGresConfMatchesSlurmConf(const SlurmNode& node, const GresConf& conf, const std::string& conf_origin);
// Configured GPU count equals the GPUs present on the node.
CheckResult CheckGresMatchesHardware(const SlurmNode& node, const HardwareGpus& hardware);

// The node takes jobs: not down, drained, failed, invalid, or not responding.
CheckResult CheckNodeUsable(const SlurmNode& node);
// The node's slurmd accepts connections from rank 0 (`slurmd-reachable` probe line
// "node addr:port ok|failed <error>"; null where the probe has no line for the node). A dead
// slurmd keeps running steps alive but takes no new ones, and the controller notices only
// after SlurmdTimeout; this catches it first.
CheckResult CheckSlurmdReachable(const std::string& node, const SlurmdProbeResult* probe);
// No pending job waits on nodes that are down, drained or otherwise unavailable.
CheckResult CheckNoJobsPendingOnBrokenNodes(const std::vector<PendingJob>& jobs);

// `srun --gpus-per-node=N` gave every node of the allocation N entries in
// CUDA_VISIBLE_DEVICES. `tasks` are the allocation probe's, one per task.
CheckResult CheckAllocationGivesGpus(const std::vector<AllocationTask>& tasks, const std::vector<std::string>& nodes,
                                     int gpus_per_node);

}  // namespace gpuconform::slurm
