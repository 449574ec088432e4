// The launch verb, `gpuconform launch`: starts the run step itself with srun, one `gpuconform run` per node,
// asking for the profile's GPUs per node, and when Slurm cannot start the task on some nodes
// (their slurmd or munged does not answer) or their task ends before the ranks meet (a
// binary that cannot start in that node's image), starts the step again without them and
// tells the run which nodes it lost and srun's words for why, so the report names them
// (Launch.TaskStarted/<node>).
// Contract: the argv builder is pure; LaunchMain runs srun (stderr echoed as it comes)
// at most kMaxLaunchAttempts times and returns the last step's exit status. Outside an
// allocation it first takes one (salloc --immediate) and runs itself inside it, so every
// attempt is a step of that one job and a rerun overlaps the failed step's nodes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/profile.h"
#include "harness/core/run_options.h"
#include "harness/util/result.h"

namespace gpuconform {

// Each attempt can only lose nodes; three covers a second node failing on the rerun.
inline constexpr int kMaxLaunchAttempts = 3;

struct LaunchStep {
  int nodes = 0;                  // srun --nodes
  std::string nodelist;           // srun --nodelist (already without the refused nodes)
  std::string partition;          // srun --partition
  int immediate_s = 30;           // srun --immediate
  int gpus_per_node = 0;          // srun --gpus-per-node; 0: none asked for
  std::string executable;         // this gpuconform binary
  std::vector<std::string> run_args;
  std::vector<RefusedNode> refused;  // excluded from this step, reported by the run
};

// srun --immediate=S --nodes=N --ntasks-per-node=1 [--gpus-per-node=G] [--overlap]
// [--nodelist=L] [--partition=P] [--exclude=a,b] EXECUTABLE run RUN_ARGS --launched
// [--launch-refused NODE=ERROR ...]
std::vector<std::string> SrunArgv(const LaunchStep& step);

// The variables a rerun's srun sets in its tasks' environment (empty for the first step).
// Slurm's PMIx plugin (22.05) finds a peer's host by the peer's index in SLURM_JOB_NODELIST,
// not in the step's node list: in a step that leaves out the allocation's first node its
// messages go to the wrong nodes and a fence can hang (measured: 3 of 5 reruns without
// node1). Giving the rerun its node list as the job's makes the two lists the same.
std::vector<std::pair<std::string, std::string>> SrunEnvironment(const LaunchStep& step);

// The nodes the step lost that earlier steps had not: those Slurm refused, then those whose
// task ended before the ranks met, each once (a refusal's words first).
std::vector<RefusedNode> LostNodes(const std::vector<RefusedNode>& refusals, const std::vector<RefusedNode>& exited,
                                   const std::vector<RefusedNode>& already);

// The nodes a rerun starts on: the first `nodes` of `pool` (a Slurm hostlist: the asked-for
// --nodelist, else the allocation's) that were not refused, comma-separated.
Result<std::string> RerunNodelist(const std::string& pool, const std::vector<RefusedNode>& refused, int nodes);

// What `gpuconform launch` was asked (app/cli.h parses its command line).
struct LaunchRequest {
  int nodes = 0;           // -N; 0: every node of the allocation
  std::string nodelist;    // -w
  std::string partition;   // -p
  int immediate_s = 30;    // srun --immediate: give up rather than wait for nodes
  std::vector<std::string> run_args;  // the `run` options after `--`
  std::optional<int> gpus_per_node;   // --gpus-per-node N|none (0); unset: the profile's
};

// The profile the run will judge with: the last --profile NAME|FILE (or --profile=...) of
// the run options, else `fallback` (GPUCONFORM_PROFILE, else the default: RunOptions).
std::string ProfileOfRun(const std::vector<std::string>& run_args, const std::string& fallback);

// The GPUs per node the step asks for: the request's, else the profile's slurm.gpus_per_node
// (what Slurm.AllocationGivesGpus expects), else none.
int GpusPerNodeToAsk(const std::optional<int>& requested, const Profile& profile);

// Outside an allocation: salloc --no-kill --immediate=S --nodes=N [--gpus-per-node=G]
// [--nodelist=L] [--partition=P] EXECUTABLE launch --immediate-s S --gpus-per-node G|none
// [--nodelist L] -- RUN_ARGS, so every attempt is a step of that one job.
std::vector<std::string> SallocArgv(const LaunchRequest& request, int gpus_per_node, const std::string& executable);

int LaunchMain(const LaunchRequest& request, const RunOptions& options);

}  // namespace gpuconform
