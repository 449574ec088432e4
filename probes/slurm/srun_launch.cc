#include "probes/slurm/srun_launch.h"

#include <unistd.h>

#include <boost/process.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "harness/child_verbs.h"
#include "harness/process_runner.h"
#include "harness/text_util.h"
#include "probes/slurm/slurm_parse.h"
#include "probes/slurm/srun_parse.h"

namespace gpuconform::slurm {

namespace bp = boost::process;

namespace {

struct StepOutcome {
  int exit_code = 2;
  std::string srun_stderr;
  std::string start_error;  // srun could not be started at all
};

// Runs srun with stdout passed through and stderr echoed line by line as it comes (the
// user watches progress) and kept (launch reads Slurm's errors from it).
StepOutcome RunStep(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& environment = {}) {
  StepOutcome outcome;
  SurviveBrokenPipes();
  const auto srun = bp::search_path(argv.front());
  if (srun.empty()) {
    outcome.start_error = argv.front() + " is not on PATH: run gpuconform launch where Slurm's client commands are";
    return outcome;
  }
  bp::ipstream errors;
  std::error_code error;
  // The child inherits this process's environment with `environment` set on top.
  bp::environment child_environment = boost::this_process::environment();
  for (const auto& [name, value] : environment) child_environment[name] = value;
  bp::child child(srun, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_err > errors,
                  child_environment, error);
  if (error) {
    outcome.start_error = "could not start " + CommandText(argv) + ": " + error.message();
    return outcome;
  }
  for (std::string line; std::getline(errors, line);) {
    std::cerr << line << std::endl;
    outcome.srun_stderr += line + "\n";
  }
  child.wait(error);
  outcome.exit_code = error ? 2 : child.exit_code();
  return outcome;
}

std::string SelfExecutable() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "gpuconform" : self.string();
}

}  // namespace

namespace {

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
  auto hosts = ExpandHostlist(pool);
  if (!hosts) return Error("node list " + pool + ": " + hosts.error());
  std::vector<std::string> kept;
  for (const auto& host : *hosts) {
    if (static_cast<int>(kept.size()) < nodes && !IsRefused(host, refused)) kept.push_back(host);
  }
  return Join(kept, ",");
}

std::vector<std::pair<std::string, std::string>> SrunEnvironment(const LaunchStep& step) {
  if (step.refused.empty() || step.nodelist.empty()) return {};
  return {{"SLURM_JOB_NODELIST", step.nodelist}, {"SLURM_NODELIST", step.nodelist}};
}

std::vector<std::string> SrunArgv(const LaunchStep& step) {
  std::vector<std::string> argv = {"srun", "--immediate=" + std::to_string(step.immediate_s),
                                   "--nodes=" + std::to_string(step.nodes), "--ntasks-per-node=1"};
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

namespace {

// Outside an allocation: the same launch again under `salloc --immediate`, so that every
// attempt is a step of one job. A rerun as a new job would wait for the nodes the failed
// step still holds while Slurm cleans up a node that does not answer. --no-kill: once the
// controller declares the refusing node failed (SlurmdTimeout after the refusal), Slurm
// would otherwise revoke the whole allocation and kill the rerun on the healthy nodes.
int LaunchInNewAllocation(const LaunchRequest& request) {
  std::vector<std::string> argv = {"salloc", "--no-kill", "--immediate=" + std::to_string(request.immediate_s),
                                   "--nodes=" + std::to_string(request.nodes)};
  if (!request.nodelist.empty()) argv.push_back("--nodelist=" + request.nodelist);
  if (!request.partition.empty()) argv.push_back("--partition=" + request.partition);
  argv.insert(argv.end(), {SelfExecutable(), "launch", "--immediate-s", std::to_string(request.immediate_s)});
  if (!request.nodelist.empty()) argv.insert(argv.end(), {"--nodelist", request.nodelist});
  argv.push_back("--");
  argv.insert(argv.end(), request.run_args.begin(), request.run_args.end());
  std::cerr << "gpuconform launch: " << CommandText(argv) << "\n";
  const StepOutcome outcome = RunStep(argv);
  if (!outcome.start_error.empty()) {
    std::cerr << "gpuconform launch: " << outcome.start_error << "\n";
    return 2;
  }
  return outcome.exit_code;
}

}  // namespace

namespace {

// Slurm refused every node: the run goes on here, alone, so the report still names each
// refused node (Launch.TaskStarted) beside the controller's view of them (SlurmNodes).
int ReportWithoutTasks(const LaunchStep& step) {
  std::cerr << "gpuconform launch: Slurm started the task on no node; reporting from this host alone\n";
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

}  // namespace

int LaunchMain(const LaunchRequest& request, const RunOptions& options) {
  if (!options.slurm_job_id && request.nodes > 0) return LaunchInNewAllocation(request);
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
  step.executable = SelfExecutable();
  step.run_args = request.run_args;
  const int requested_nodes = step.nodes;
  for (int attempt = 1;; ++attempt) {
    const auto argv = SrunArgv(step);
    std::cerr << "gpuconform launch: " << CommandText(argv) << "\n";
    const StepOutcome outcome = RunStep(argv, SrunEnvironment(step));
    if (!outcome.start_error.empty()) {
      std::cerr << "gpuconform launch: " << outcome.start_error << "\n";
      return 2;
    }
    std::vector<RefusedNode> lost;
    for (const auto& node : ParseSrunLaunchRefusals(outcome.srun_stderr)) {
      if (!IsRefused(node.node, step.refused)) lost.push_back(node);
    }
    if (outcome.exit_code == 0 || lost.empty()) return outcome.exit_code;
    for (const auto& node : lost) {
      std::cerr << "gpuconform launch: Slurm could not start the task on " << node.node << " (" << node.slurm_error
                << ")\n";
    }
    step.refused.insert(step.refused.end(), lost.begin(), lost.end());
    step.nodes = requested_nodes - static_cast<int>(step.refused.size());
    if (step.nodes <= 0) return ReportWithoutTasks(step);
    if (attempt == kMaxLaunchAttempts) {
      std::cerr << "gpuconform launch: no step could start after " << attempt
                << " attempts; the nodes Slurm refused are named above\n";
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
              << step.refused.size() << " refused\n";
  }
}

}  // namespace gpuconform::slurm
