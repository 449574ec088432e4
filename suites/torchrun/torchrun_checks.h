// Torchrun checks: pure judgements of every node's Torchrun probe output (the launch path
// training jobs use: one `torchrun` per node under srun, one worker per GPU), read already.
// Each launcher and each worker's records are judged as a training job would depend on them:
// the launcher starts (not missing, not crashing, not stuck at the rendezvous), one per node;
// the rendezvous port is free on the node with SLURM_NODEID 0 and reachable from every node;
// the ranks torchrun hands out are the ones a job computes with; each worker has its own GPU;
// the process group forms and an allreduce gives the exact sum at the expected speed;
// DistributedSampler shards are disjoint and cover the data; the DataLoader reads fast enough;
// only rank 0 writes the checkpoint and every rank loads the same step.
// Contract: pure, one function per check: reports and profile in, one judgement out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/node_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/torchrun/torchrun_parse.h"
#include "probes/torchrun/torchrun_profile.h"

namespace gpuconform::torchrun {

inline constexpr char kSuite[] = "Torchrun";
GPUCONFORM_CHECK_NAME(LauncherStarted);
GPUCONFORM_CHECK_NAME(OneLauncherPerNode);
GPUCONFORM_CHECK_NAME(MasterPortOpen);
GPUCONFORM_CHECK_NAME(RanksConsistent);
GPUCONFORM_CHECK_NAME(DevicesDistinct);
GPUCONFORM_CHECK_NAME(CollectiveCorrect);
GPUCONFORM_CHECK_NAME(SamplerShardsDisjoint);
GPUCONFORM_CHECK_NAME(DataLoaderThroughput);
GPUCONFORM_CHECK_NAME(CheckpointRankZero);

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

// What a node's checks read of the other nodes' reports, summarised once from every node's
// (SummarizeNodes): a node is judged on its own report and this.
struct AcrossNodes {
  std::string skipped;                          // the probe's reason for launching nothing; empty: it launched
  std::vector<std::string> never_joined;        // "node3 (its launcher crashed)": what a rendezvous waits for
  std::string data_problem;                     // why the shared data was not prepared; empty: it was
  std::optional<std::string> no_process_group;  // why the stages inside the process group did not run
};
AcrossNodes SummarizeNodes(const NodeFacts<NodeTorchrunReport>& reports);

// One function per check. The suite skips every one of them where `skipped` is set. The
// per-node checks judge `report`, the node's own; the cluster checks judge every node's report,
// and a node whose report could not be read makes a pass their error (a failure found on the
// other nodes stays the verdict).
CheckResult CheckLauncherStarted(const NodeTorchrunReport& report, const AcrossNodes& across);
CheckResult CheckOneLauncherPerNode(const NodeTorchrunReport& report);
CheckResult CheckMasterPortOpen(const NodeFacts<NodeTorchrunReport>& reports);
CheckResult CheckRanksConsistent(const NodeFacts<NodeTorchrunReport>& reports);
CheckResult CheckDevicesDistinct(const NodeTorchrunReport& report);
CheckResult CheckCollectiveCorrect(const NodeFacts<NodeTorchrunReport>& reports, const Profile& profile,
                                   const std::optional<SweepReference>& sweep = std::nullopt);
CheckResult CheckSamplerShards(const NodeFacts<NodeTorchrunReport>& reports);
CheckResult CheckDataLoaderThroughput(const NodeTorchrunReport& report, const AcrossNodes& across,
                                      const Profile& profile);
CheckResult CheckCheckpointRankZero(const NodeFacts<NodeTorchrunReport>& reports);

}  // namespace gpuconform::torchrun
