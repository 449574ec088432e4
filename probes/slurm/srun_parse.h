// Parsers for what `srun` prints on stderr while `gpuconform launch` runs the step.
// - Refusals: Slurm cannot start a task on a node ("srun: error: Task launch for StepId=6.0
//   failed on node node1: Socket timed out on send/recv operation").
// - Task exits before the ranks met: the task started but its process ended before the world
//   formed ("srun: error: node3: task 2: Exited with exit code 127", or a signal's name such
//   as "Segmentation fault (core dumped)"), with what the task printed on its way out (the
//   loader's "error while loading shared libraries", slurmstepd's execve error).
// `gpuconform launch` reads both to rerun the step without those nodes. Pure: text in, the
// nodes (each once, in order) with srun's words out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/run_options.h"

namespace gpuconform::slurm {

std::vector<RefusedNode> ParseSrunLaunchRefusals(const std::string& srun_stderr);

// The line rank 0 prints once every rank has joined (harness/world/gather.cc): after it, a task
// that ends is the run's business, not a start failure.
inline constexpr std::string_view kWorldFormedMarker = "gpuconform: gathering probes on ";

// One line of srun's task-exit report: the nodes named (a hostlist of one node with one task
// per node) and srun's whole line. Empty for any other line, a clean exit included.
struct SrunTaskExit {
  std::vector<std::string> nodes;
  std::string words;
};
std::optional<SrunTaskExit> ParseSrunTaskExit(std::string_view line);

// Whether `srun_words` (a RefusedNode's) are srun's report of a task that exited or was
// killed, rather than Slurm refusing to start it.
bool IsSrunTaskExit(std::string_view srun_words);

// Reads srun's stderr line by line as it comes and keeps the nodes whose task ended before
// the world formed. Once srun gives the step up ("Task launch for StepId=... failed on node",
// "Application launch failed", "Job step aborted"), the tasks it kills ("task 2: Killed") are
// its consequence, not start failures of their nodes. What the tasks printed in that time (not srun's own lines) is added to
// the node's words when one node alone failed, since srun does not say whose lines they are.
class StartFailureWatch {
 public:
  void Feed(std::string_view line);
  bool world_formed() const { return world_formed_; }
  // The nodes whose task ended before the world formed, each with srun's words.
  std::vector<RefusedNode> ExitedAtStart() const;

 private:
  bool world_formed_ = false;
  // srun gave up the step (a node refused the launch): the tasks it kills then did not fail.
  bool step_aborted_ = false;
  std::vector<RefusedNode> exited_;
  std::vector<std::string> task_lines_;  // the tasks' own lines before the world formed (a few)
};

}  // namespace gpuconform::slurm
