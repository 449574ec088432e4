// SlurmGres and SlurmNodes glue: which facts (probes/slurm/slurm_facts.h) feed which check,
// each judgement named by its check and node, and registration.
// Both suites judge every node the controller lists (restricted to profile.slurm.partition
// when set), so a node that is down or drained — and so runs no gpuconform task — is still
// named in the report.

#include "facts/gpu_facts.h"
#include "probes/gpu_devices/gpu_devices_probe.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "harness/suite_registry.h"
#include "harness/text_util.h"
#include "probes/slurm/slurm_facts.h"
#include "probes/slurm/slurm_probes.h"
#include "suites/slurm/slurm_checks.h"

namespace gpuconform::slurm {

namespace {

struct ControllerView {
  std::vector<SlurmNode> nodes;
  std::string problem;  // set when the controller's view is unavailable
};

ControllerView ReadControllerView(const SuiteContext& context) {
  const auto& listed = ReadScontrolNodes(context.raw);
  if (!listed) return {{}, listed.error()};
  ControllerView view;
  const std::string partition = context.profile.slurm ? context.profile.slurm->partition : "";
  for (const auto& node : *listed) {
    const auto partitions = node.Partitions();
    if (partition.empty() || std::find(partitions.begin(), partitions.end(), partition) != partitions.end()) {
      view.nodes.push_back(node);
    }
  }
  if (view.nodes.empty()) {
    view.problem = context.raw.ClusterOutput(ScontrolShowNodes().id).origin + ": no node in partition '" + partition + "'";
  }
  return view;
}

// Without the controller's view, every check is an error that says why.
std::vector<CheckResult> AllErrored(const SuiteDefinition& suite, const std::string& problem) {
  std::vector<CheckResult> results;
  for (const auto& check : suite.checks) results.push_back(Judged(check.name, "", Errored("no-controller-view", problem)));
  return results;
}

HardwareGpus CountHardwareGpus(const SuiteContext& context, const std::string& node) {
  HardwareGpus hardware;
  const RawOutput smi = context.raw.NodeOutput(node, nvidia_smi::NvidiaSmiQueryXml().id);
  const RawOutput devices = context.raw.NodeOutput(node, gpu_devices::GpuDevices().id);
  if (smi.status == ProbeStatus::kAbsent && devices.status == ProbeStatus::kAbsent) {
    hardware.problem = node + ": no gpuconform task ran on " + node +
                       " (not in this allocation, or down), so its GPUs could not be counted";
    return hardware;
  }
  if (smi.ok()) {
    if (auto listed = facts::ReadNvidiaSmiQuery(context.raw, node)) {
      hardware.count = static_cast<long long>(listed->gpus.size());
      hardware.evidence = "nvidia-smi lists " + std::to_string(listed->gpus.size()) + " GPUs";
      return hardware;
    }
  }
  if (devices.ok()) {
    std::vector<std::string> paths;
    for (auto line : SplitLines(devices.text)) {
      const auto words = SplitWords(line);
      if (words.size() >= 2 && words[0] == "device") paths.emplace_back(words[1]);
    }
    if (!paths.empty()) {
      hardware.count = static_cast<long long>(paths.size());
      hardware.evidence = "the node has " + std::to_string(paths.size()) + " GPU devices (" + paths.front() +
                          (paths.size() > 1 ? " … " + paths.back() : "") + ")";
      return hardware;
    }
  }
  hardware.problem = node + ": no NVIDIA GPU found: " + (smi.ok() ? "nvidia-smi output unreadable" : smi.detail) +
                     ", and " + (devices.ok() ? "no nvidia<N> device files" : devices.detail) +
                     " (no NVIDIA driver on this node?)";
  return hardware;
}

// What `srun --gpus-per-node=N` gave the run's nodes (those its ranks ran on, else the run's).
CheckResult JudgeAllocation(const SuiteContext& context) {
  if (!context.profile.slurm) return Skipped("profile has no slurm section");
  const RawOutput allocation = context.raw.ClusterOutput(GpuAllocation().id);
  if (allocation.ok()) {
    std::vector<std::string> nodes;
    for (const auto& rank : context.ranks) {
      if (std::find(nodes.begin(), nodes.end(), rank.host) == nodes.end()) nodes.push_back(rank.host);
    }
    if (nodes.empty()) nodes = context.raw.nodes;
    return CheckAllocationGivesGpus(ReadAllocationReport(context.raw), nodes, context.profile.slurm->gpus_per_node);
  }
  if (allocation.status == ProbeStatus::kToolMissing || allocation.status == ProbeStatus::kAbsent) {
    return Skipped("needs a live run inside a Slurm allocation: " + allocation.detail);
  }
  return Errored("allocation-failed", allocation.detail);
}

std::vector<CheckResult> EvaluateGres(const SuiteContext& context, const SuiteDefinition& suite) {
  const ControllerView view = ReadControllerView(context);
  if (!view.problem.empty()) return AllErrored(suite, view.problem);
  std::vector<CheckResult> results;
  for (const auto& node : view.nodes) {
    results.push_back(Judged(kGresMatchesProfile, node.name, CheckGresMatchesProfile(node, context.profile)));
  }
  for (const auto& node : view.nodes) results.push_back(Judged(kGresRegistered, node.name, CheckGresRegistered(node)));
  for (const auto& node : view.nodes) {
    const auto& conf = ReadGresConf(context.raw, node.name);
    results.push_back(Judged(kGresConfMatchesSlurmConf, node.name,
                             conf ? CheckGresConfMatchesSlurmConf(node, conf->conf, conf->origin)
                                  : Errored("no-gres-conf", conf.error())));
  }
  for (const auto& node : view.nodes) {
    results.push_back(
        Judged(kGresMatchesHardware, node.name, CheckGresMatchesHardware(node, CountHardwareGpus(context, node.name))));
  }
  results.push_back(Judged(kAllocationGivesGpus, "", JudgeAllocation(context)));
  return results;
}

// No pending job waits on a broken node; the queue not read is an error saying why.
CheckResult JudgePendingJobs(const SuiteContext& context) {
  const RawOutput pending = context.raw.ClusterOutput(PendingJobs().id);
  if (!pending.ok()) return Errored("no-queue", pending.detail);
  const auto& jobs = ReadPendingJobs(context.raw);
  return jobs ? CheckNoJobsPendingOnBrokenNodes(*jobs) : Errored("unparseable", jobs.error());
}

std::vector<CheckResult> EvaluateNodes(const SuiteContext& context, const SuiteDefinition& suite) {
  const ControllerView view = ReadControllerView(context);
  if (!view.problem.empty()) return AllErrored(suite, view.problem);
  std::vector<CheckResult> results;
  for (const auto& node : view.nodes) results.push_back(Judged(kNodeUsable, node.name, CheckNodeUsable(node)));
  const RawOutput reachability = context.raw.ClusterOutput(SlurmdReachability().id);
  const auto& probes = ReadSlurmdReachability(context.raw);
  for (const auto& node : view.nodes) {
    results.push_back(Judged(kSlurmdReachable, node.name,
                             reachability.ok() ? CheckSlurmdReachable(node.name, probes)
                                               : Errored("not-probed", reachability.detail)));
  }
  results.push_back(Judged(kNoJobsPendingOnBrokenNodes, "", JudgePendingJobs(context)));
  return results;
}

SuiteDefinition GresDefinition() {
  return {
      .name = kGresSuite,
      .summary = "Slurm's GPU GRES agrees with the profile, gres.conf, the hardware and what jobs get",
      .checks =
          {
              {kGresMatchesProfile, "the node's configured Gres= equals the profile's slurm.gres", true},
              {kGresRegistered, "slurmctld accepted the node's GRES (no INVAL/INVALID_REG, no gres drain reason)",
               true},
              {kGresConfMatchesSlurmConf, "gres.conf declares as many GPUs for the node as slurm.conf's Gres=", true},
              {kGresMatchesHardware,
               "the configured GPU count equals the GPUs on the node (nvidia-smi or device files)", true},
              {kAllocationGivesGpus, "srun --gpus-per-node=N gives every node N entries in CUDA_VISIBLE_DEVICES",
               false},
          },
      .probes = {ScontrolShowNodes(), GresConfFile(), nvidia_smi::NvidiaSmiQueryXml(), gpu_devices::GpuDevices(),
                 GpuAllocation()},
  };
}

SuiteDefinition NodesDefinition() {
  return {
      .name = kNodesSuite,
      .summary = "every node of the partition is usable, and no job waits on a broken node",
      .checks =
          {
              {kNodeUsable, "the node is not down, drained, failed, invalid or not responding", true},
              {kSlurmdReachable, "the node's slurmd accepts connections (NodeAddr:SlurmdPort)", true},
              {kNoJobsPendingOnBrokenNodes, "no pending job's reason points at unavailable nodes", false},
          },
      .probes = {ScontrolShowNodes(), PendingJobs(), SlurmdReachability()},
  };
}

SuiteDefinition WithEvaluate(SuiteDefinition suite,
                             std::vector<CheckResult> (*evaluate)(const SuiteContext&, const SuiteDefinition&)) {
  const SuiteDefinition described = suite;
  suite.evaluate = [evaluate, described](const SuiteContext& context) { return evaluate(context, described); };
  return suite;
}

const SuiteRegistration kGresRegistration(WithEvaluate(GresDefinition(), EvaluateGres));
const SuiteRegistration kNodesRegistration(WithEvaluate(NodesDefinition(), EvaluateNodes));

}  // namespace

}  // namespace gpuconform::slurm
