// Torchrun checks: pure judgements of every node's Torchrun probe output (the launch path
// training jobs use: one `torchrun` per node under srun, one worker per GPU), read already.
// Each launcher and each worker's records are judged as a training job would depend on them:
// the launcher starts (not missing, not crashing, not stuck at the rendezvous), one per node;
// the rendezvous port is free on the node with SLURM_NODEID 0 and reachable from every node;
// the ranks torchrun hands out are the ones a job computes with; each worker has its own GPU;
// the process group forms and an allreduce gives the exact sum at the expected speed;
// DistributedSampler shards are disjoint and cover the data; the DataLoader reads fast enough;
// only rank 0 writes the checkpoint and every rank loads the same step.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/node_facts.h"
#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/torchrun/torchrun_parse.h"

namespace gpuconform::torchrun {

inline constexpr char kSuite[] = "Torchrun";
inline constexpr char kLauncherStarted[] = "LauncherStarted";
inline constexpr char kOneLauncherPerNode[] = "OneLauncherPerNode";
inline constexpr char kMasterPortOpen[] = "MasterPortOpen";
inline constexpr char kRanksConsistent[] = "RanksConsistent";
inline constexpr char kDevicesDistinct[] = "DevicesDistinct";
inline constexpr char kCollectiveCorrect[] = "CollectiveCorrect";
inline constexpr char kSamplerShards[] = "SamplerShardsDisjoint";
inline constexpr char kDataLoaderThroughput[] = "DataLoaderThroughput";
inline constexpr char kCheckpointRankZero[] = "CheckpointRankZero";

// The same run's own allreduce sweep, to compare the backend's busbw with: gpuconform's NCCL
// run where the workers use NCCL (judged: the same library on the same GPUs should match it),
// the MPI sweep where they use gloo (recorded only: gloo and Open MPI differ by design).
struct SweepReference {
  std::string tool;                                    // "gpuconform's NCCL run", "the MPI sweep"
  std::vector<std::pair<long long, double>> busbw_by_size;  // size in bytes -> busbw GB/s
  bool judged = false;
};
// A backend below this fraction of the sweep's busbw at the same size is named.
inline constexpr double kBackendBelowSweepFraction = 0.5;

// Why the suite does not apply (the profile has no torchrun section), or nullopt.
std::optional<std::string> NotApplicable(const Profile& profile);

// Every check of the probe's output, judged together: per-node checks once per node of the
// run (`nodes`), cluster checks once. A node whose output could not be read is an error in
// each of its cases and in the cluster checks, never a pass.
std::vector<CheckResult> CheckTorchrun(const NodeFacts<NodeTorchrunReport>& reports, const std::vector<std::string>& nodes,
                                       const Profile& profile, const std::optional<SweepReference>& sweep = std::nullopt);

}  // namespace gpuconform::torchrun
