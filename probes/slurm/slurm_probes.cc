#include "probes/slurm/slurm_probes.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "harness/core/live_source.h"
#include "harness/core/process_runner.h"
#include "harness/util/tcp_probe.h"
#include "harness/util/text_util.h"
#include "probes/slurm/slurm_profile.h"

namespace gpuconform::slurm {

namespace {

std::string SlurmConfDirectory(const RunOptions& options) {
  const std::string conf = options.slurm_conf.value_or("");
  const std::filesystem::path path = !conf.empty() ? conf : "/etc/slurm/slurm.conf";
  return path.parent_path().string();
}

RawOutput RunAllocation(const LiveContext& context) {
  RawOutput out;
  const auto& job = context.options.slurm_job_id;
  const auto& nodes = context.options.slurm_job_num_nodes;
  if (!job || !nodes) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": not inside a Slurm allocation (no SLURM_JOB_ID); run under srun or sbatch";
    return out;
  }
  const SlurmExpectation* slurm = context.profile == nullptr ? nullptr : context.profile->Get<SlurmExpectation>();
  if (slurm == nullptr || slurm->gpus_per_node <= 0) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = "the profile gives no slurm.gpus_per_node to request";
    return out;
  }
  const std::string gpus = std::to_string(slurm->gpus_per_node);
  // --overlap: the step shares the resources of the step gpuconform itself runs in;
  // --immediate: a node that cannot give the GPUs fails the step instead of pending forever.
  const std::vector<std::string> argv = {"srun", "--overlap", "--immediate=10", "--nodes=" + *nodes,
                                         "--ntasks-per-node=1", "--gpus-per-node=" + gpus, "sh", "-c",
                                         "echo \"$(hostname -s) ${CUDA_VISIBLE_DEVICES:-unset}\""};
  out.origin = context.host + ": `" + CommandText(argv) + "`";
  const CommandResult run = RunCommand(argv, std::chrono::seconds(60));
  out.text = run.stdout_text;
  if (run.outcome == CommandOutcome::kTimedOut) {
    out.status = ProbeStatus::kTimedOut;
    out.detail = context.host + ": `" + CommandText(argv) + "` did not finish within 60 s";
  } else if (!run.Succeeded()) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": `" + CommandText(argv) + "` failed: " +
                 (run.error.empty() ? run.stderr_text.substr(0, 400) : run.error);
    if (run.stderr_text.find("doesn't have GRES") != std::string::npos) {
      out.detail += " — the job was allocated without GPUs: submit it with --gpus-per-node=" + gpus +
                    " (as ci/slurm/gpuconform.sbatch does)";
    }
  } else {
    out.status = ProbeStatus::kOk;
  }
  return out;
}

int SlurmdPort(const std::string& config_text) {
  for (auto line : SplitLines(config_text)) {
    const auto words = SplitWords(line);
    if (words.size() >= 3 && words[0] == "SlurmdPort" && words[1] == "=") return std::atoi(std::string(words[2]).c_str());
  }
  return 6818;  // Slurm's default
}

RawOutput ProbeSlurmdReachability(const LiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": TCP connect to each node's slurmd";
  const CommandResult nodes = RunCommand({"scontrol", "show", "node", "--oneliner"}, std::chrono::seconds(30));
  if (!nodes.Succeeded()) {
    out.status = nodes.outcome == CommandOutcome::kNotFound ? ProbeStatus::kToolMissing : ProbeStatus::kFailed;
    out.detail = context.host + ": `scontrol show node --oneliner` failed: " +
                 (nodes.error.empty() ? std::string(Trim(nodes.stderr_text)).substr(0, 300) : nodes.error);
    return out;
  }
  const CommandResult config = RunCommand({"scontrol", "show", "config"}, std::chrono::seconds(30));
  const int port = SlurmdPort(config.stdout_text);
  for (auto line : SplitLines(nodes.stdout_text)) {
    std::string name;
    std::string addr;
    for (auto word : SplitWords(line)) {
      if (StartsWith(word, "NodeName=")) name = std::string(word.substr(9));
      if (StartsWith(word, "NodeAddr=")) addr = std::string(word.substr(9));
    }
    if (name.empty()) continue;
    if (addr.empty()) addr = name;
    const TcpProbeResult probe = TcpConnect(addr, port, std::chrono::milliseconds(3000));
    out.text += name + " " + addr + ":" + std::to_string(port) + (probe.connected ? " ok" : " failed " + probe.error) + "\n";
  }
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace

// A dead slurmctld costs MessageTimeout per client call, hence the long deadlines.
ProbeSpec ScontrolShowNodes() {
  return CommandProbe("scontrol-show-node", ProbeScope::kCluster, "scontrol-show-node.txt",
                      {"scontrol", "show", "node"}, 30000);
}

ProbeSpec PendingJobs() {
  return CommandProbe("squeue-pending", ProbeScope::kCluster, "squeue-pending.txt",
                      {"squeue", "-h", "-t", "PD", "-o", "%i|%P|%u|%r"}, 30000);
}

ProbeSpec GresConfFile() {
  // Built in rather than a file probe: the path comes from the run's options, which do not
  // exist yet when the spec is registered.
  return BuiltinProbe("gres.conf", ProbeScope::kNode, "gres.conf", [](const LiveContext& context) {
    return ReadFileOutput(context.host, SlurmConfDirectory(context.options) + "/gres.conf");
  });
}

ProbeSpec SlurmdReachability() {
  return BuiltinProbe("slurmd-reachable", ProbeScope::kCluster, "slurmd-reachable.txt", ProbeSlurmdReachability);
}

ProbeSpec GpuAllocation() {
  return BuiltinProbe("srun-gpus-per-node", ProbeScope::kCluster, "srun-gpus-per-node.txt", RunAllocation);
}

}  // namespace gpuconform::slurm
