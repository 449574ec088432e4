#include "app/launch_verb.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "harness/core/process_runner.h"
#include "harness/core/termination.h"
#include "harness/util/text_util.h"
#include "probes/slurm/slurm_parse.h"
#include "probes/slurm/slurm_profile.h"
#include "probes/slurm/srun_parse.h"
#include "probes/slurm/srun_step.h"

namespace gpuconform {

namespace {

std::string SelfExecutable() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "gpuconform" : self.string();
}

// The hidden run options that tell the run it was started by launch, and without which nodes.
void AppendLaunchFacts(const LaunchStep& step, std::vector<std::string>& argv) {
  argv.push_back("--launched");
  for (const auto& node : step.refused) {
    argv.push_back("--launch-refused");
    argv.push_back(node.node + "=" + node.slurm_error);
  }
}

}  // namespace

Result<std::string> RerunNodelist(const std::string& pool, const std::vector<RefusedNode>& refused, int nodes) {
  auto hosts = slurm::ExpandHostlist(pool);
  if (!hosts) return Error("node list " + pool + ": " + hosts.error());
  std::vector<std::string> kept;
  for (const auto& host : *hosts) {
    if (static_cast<int>(kept.size()) < nodes && !IsRefused(host, refused)) kept.push_back(host);
  }
  return Join(kept, ",");
}

std::vector<RefusedNode> LostNodes(const std::vector<RefusedNode>& refusals, const std::vector<RefusedNode>& exited,
                                   const std::vector<RefusedNode>& already) {
  std::vector<RefusedNode> lost;
  for (const auto* nodes : {&refusals, &exited}) {
    for (const auto& node : *nodes) {
      if (!IsRefused(node.node, already) && !IsRefused(node.node, lost)) lost.push_back(node);
    }
  }
  return lost;
}

std::vector<std::pair<std::string, std::string>> SrunEnvironment(const LaunchStep& step) {
  if (step.refused.empty() || step.nodelist.empty()) return {};
  return {{"SLURM_JOB_NODELIST", step.nodelist}, {"SLURM_NODELIST", step.nodelist}};
}

std::vector<std::string> SrunArgv(const LaunchStep& step) {
  std::vector<std::string> argv = {"srun", "--immediate=" + std::to_string(step.immediate_s),
                                   "--nodes=" + std::to_string(step.nodes), "--ntasks-per-node=1"};
  if (step.gpus_per_node > 0) argv.push_back("--gpus-per-node=" + std::to_string(step.gpus_per_node));
  // A rerun shares the nodes with the failed step, which Slurm may still be cleaning up.
  if (!step.refused.empty()) argv.push_back("--overlap");
  if (!step.nodelist.empty()) argv.push_back("--nodelist=" + step.nodelist);
  if (!step.partition.empty()) argv.push_back("--partition=" + step.partition);
  std::vector<std::string> excluded;
  for (const auto& node : step.refused) excluded.push_back(node.node);
  // With a nodelist the refused nodes are already left out of it; srun refuses both at once.
  if (!excluded.empty() && step.nodelist.empty()) argv.push_back("--exclude=" + Join(excluded, ","));
  argv.push_back(step.executable);
  argv.push_back("run");
  argv.insert(argv.end(), step.run_args.begin(), step.run_args.end());
  AppendLaunchFacts(step, argv);
  return argv;
}

std::string ProfileOfRun(const std::vector<std::string>& run_args, const std::string& fallback) {
  std::string profile = fallback;
  for (std::size_t i = 0; i < run_args.size(); ++i) {
    if (run_args[i] == "--profile" && i + 1 < run_args.size()) {
      profile = run_args[++i];
    } else if (StartsWith(run_args[i], "--profile=")) {
      profile = run_args[i].substr(10);
    }
  }
  return profile;
}

int GpusPerNodeToAsk(const std::optional<int>& requested, const Profile& profile) {
  if (requested) return *requested;
  const slurm::SlurmExpectation* slurm = profile.Get<slurm::SlurmExpectation>();
  return slurm ? slurm->gpus_per_node : 0;
}

// Outside an allocation: the same launch again under `salloc --immediate`, so that every
// attempt is a step of one job. A rerun as a new job would wait for the nodes the failed
// step still holds while Slurm cleans up a node that does not answer. --no-kill: once the
// controller declares the refusing node failed (SlurmdTimeout after the refusal), Slurm
// would otherwise revoke the whole allocation and kill the rerun on the healthy nodes.
std::vector<std::string> SallocArgv(const LaunchRequest& request, int gpus_per_node, const std::string& executable) {
  std::vector<std::string> argv = {"salloc", "--no-kill", "--immediate=" + std::to_string(request.immediate_s),
                                   "--nodes=" + std::to_string(request.nodes)};
  if (gpus_per_node > 0) argv.push_back("--gpus-per-node=" + std::to_string(gpus_per_node));
  if (!request.nodelist.empty()) argv.push_back("--nodelist=" + request.nodelist);
  if (!request.partition.empty()) argv.push_back("--partition=" + request.partition);
  argv.insert(argv.end(), {executable, "launch", "--immediate-s", std::to_string(request.immediate_s),
                           "--gpus-per-node", gpus_per_node > 0 ? std::to_string(gpus_per_node) : "none"});
  if (!request.nodelist.empty()) argv.insert(argv.end(), {"--nodelist", request.nodelist});
  argv.push_back("--");
  argv.insert(argv.end(), request.run_args.begin(), request.run_args.end());
  return argv;
}

namespace {

int LaunchInNewAllocation(const LaunchRequest& request, int gpus_per_node) {
  const auto argv = SallocArgv(request, gpus_per_node, SelfExecutable());
  std::cerr << "gpuconform launch: " << CommandText(argv) << "\n";
  // The launch inside the allocation watches its own steps.
  const slurm::StepOutcome outcome = slurm::RunStep(argv, {}, false);
  if (!outcome.start_error.empty()) {
    std::cerr << "gpuconform launch: " << outcome.start_error << "\n";
    return 2;
  }
  return outcome.exit_code;
}

// No node could start the task (Slurm refused it, or it ended before the ranks met): the run
// goes on here, alone, so the report still names each node (Launch.TaskStarted) beside the
// controller's view of them (SlurmNodes).
int ReportWithoutTasks(const LaunchStep& step) {
  std::cerr << "gpuconform launch: no node could start the task; reporting from this host alone\n";
  std::vector<std::string> argv = {step.executable, "run"};
  argv.insert(argv.end(), step.run_args.begin(), step.run_args.end());
  AppendLaunchFacts(step, argv);
  argv.push_back("--launch-no-task");
  std::vector<char*> pointers;
  for (auto& arg : argv) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  ::execv(step.executable.c_str(), pointers.data());
  std::cerr << "gpuconform launch: cannot run " << step.executable << ": " << std::strerror(errno) << "\n";
  return 2;
}

// The GPUs per node to ask for, or the profile's error (exit-2 material, as it is to `run`).
Result<int> ResolveGpusPerNode(const LaunchRequest& request, const RunOptions& options) {
  if (request.gpus_per_node) return *request.gpus_per_node;
  const auto profile = LoadProfile(ProfileOfRun(request.run_args, options.profile));
  if (!profile) return Error{profile.error()};
  return GpusPerNodeToAsk(std::nullopt, *profile);
}

}  // namespace

int LaunchMain(const LaunchRequest& request, const RunOptions& options) {
  // Told to stop (a CI job's timeout, Ctrl-C, scancel of the allocation): the step running now
  // ends in order, so its rank 0 writes the report of what it judged, and launch starts no other.
  InstallTerminationSignals();
  OnTermination([](const TerminationNotice& notice) {
    std::cerr << "gpuconform launch: " << notice.Describe() << "; ending the step so that it reports" << std::endl;
    slurm::EndRunningStep(std::chrono::seconds(20));
    std::_Exit(notice.ExitStatus());
  });
  const auto gpus_per_node = ResolveGpusPerNode(request, options);
  if (!gpus_per_node) {
    std::cerr << "gpuconform launch: " << gpus_per_node.error() << "\n";
    return 2;
  }
  if (!options.slurm_job_id && request.nodes > 0) return LaunchInNewAllocation(request, *gpus_per_node);
  LaunchStep step;
  step.nodes = request.nodes;
  if (step.nodes == 0 && options.slurm_job_num_nodes) step.nodes = std::atoi(options.slurm_job_num_nodes->c_str());
  if (step.nodes <= 0) {
    std::cerr << "gpuconform launch: how many nodes? Give -N (outside an allocation), or run it inside one "
                 "(salloc, sbatch), where SLURM_JOB_NUM_NODES says\n";
    return 2;
  }
  step.nodelist = request.nodelist;
  step.partition = request.partition;
  step.immediate_s = request.immediate_s;
  step.gpus_per_node = *gpus_per_node;
  step.executable = SelfExecutable();
  step.run_args = request.run_args;
  const int requested_nodes = step.nodes;
  for (int attempt = 1;; ++attempt) {
    const auto argv = SrunArgv(step);
    std::cerr << "gpuconform launch: " << CommandText(argv) << "\n";
    const slurm::StepOutcome outcome = slurm::RunStep(argv, SrunEnvironment(step), true);
    // Ending: the termination handler waits for this step and ends launch; no rerun.
    while (TerminationRequested()) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (!outcome.start_error.empty()) {
      std::cerr << "gpuconform launch: " << outcome.start_error << "\n";
      return 2;
    }
    const auto lost = LostNodes(slurm::ParseSrunLaunchRefusals(outcome.srun_stderr), outcome.exited_at_start, step.refused);
    // A step that launch ended must run again; one that ended on its own stands unless Slurm refused a node.
    if (lost.empty() || (outcome.exit_code == 0 && outcome.exited_at_start.empty())) return outcome.exit_code;
    for (const auto& node : lost) {
      std::cerr << "gpuconform launch: " << (slurm::IsSrunTaskExit(node.slurm_error) ? "the task ended before the ranks met on "
                                                                                : "Slurm could not start the task on ")
                << node.node << " (" << node.slurm_error << ")\n";
    }
    step.refused.insert(step.refused.end(), lost.begin(), lost.end());
    step.nodes = requested_nodes - static_cast<int>(step.refused.size());
    if (step.nodes <= 0) return ReportWithoutTasks(step);
    if (attempt == kMaxLaunchAttempts) {
      std::cerr << "gpuconform launch: no step could start after " << attempt
                << " attempts; the nodes left out are named above\n";
      return 1;
    }
    // An explicit node list for the rerun (see SrunEnvironment); without one to start
    // from, srun picks the nodes and --exclude leaves the refused ones out.
    const std::string pool =
        !request.nodelist.empty() ? request.nodelist : options.slurm_job_nodelist.value_or("");
    if (!pool.empty()) {
      auto kept = RerunNodelist(pool, step.refused, step.nodes);
      if (!kept) {
        std::cerr << "gpuconform launch: " << kept.error() << "\n";
        return 2;
      }
      step.nodelist = *kept;
    }
    std::cerr << "gpuconform launch: starting the step again on " << step.nodes << " node(s), without "
              << step.refused.size() << " that could not start\n";
  }
}

}  // namespace gpuconform
