// SlurmGres and SlurmNodes checks. Pure: parsed Slurm records + profile in, CheckResults out.
// A node whose GRES is wrong is drained by slurmctld, and jobs that need it pend forever
// without an error; these checks say which node, what Slurm recorded and how to fix it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform::slurm {

inline constexpr char kGresSuite[] = "SlurmGres";
inline constexpr char kNodesSuite[] = "SlurmNodes";

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
// "node addr:port ok|failed <error>"). A dead slurmd keeps running steps alive but takes no
// new ones, and the controller notices only after SlurmdTimeout; this catches it first.
struct SlurmdProbeResult {
  std::string node;
  std::string endpoint;  // "10.10.0.2:6818"
  bool reachable = false;
  std::string error;     // "Connection refused"
};
std::vector<SlurmdProbeResult> ParseSlurmdReachability(const std::string& text);
CheckResult CheckSlurmdReachable(const std::string& node, const std::vector<SlurmdProbeResult>& probes);
// No pending job waits on nodes that are down, drained or otherwise unavailable.
CheckResult CheckNoJobsPendingOnBrokenNodes(const std::vector<PendingJob>& jobs);

// `srun --gpus-per-node=N` gave every node of the allocation N entries in
// CUDA_VISIBLE_DEVICES. `lines` is "host devices" per task, as the probe printed.
struct AllocationTask {
  std::string host;
  std::string visible_devices;  // "0,1,2,3" or "unset"
};
std::vector<AllocationTask> ParseAllocationReport(const std::string& text);
CheckResult CheckAllocationGivesGpus(const std::vector<AllocationTask>& tasks, const std::vector<std::string>& nodes,
                                     int gpus_per_node);

}  // namespace gpuconform::slurm
