// SlurmGres and SlurmNodes glue: which facts (probes/slurm/slurm_facts.h) feed which check,
// and registration.
// Both suites judge every node the controller lists (restricted to profile.slurm.partition
// when set), so a node that is down or drained — and so runs no gpuconform task — is still
// named in the report. Without the controller's list, every check is an error saying why.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "facts/gpu_facts.h"
#include "harness/core/suite_registry.h"
#include "harness/util/text_util.h"
#include "probes/gpu_devices/gpu_devices_probe.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/slurm/slurm_facts.h"
#include "probes/slurm/slurm_probes.h"
#include "probes/slurm/slurm_profile.h"
#include "suites/slurm/slurm_checks.h"

namespace gpuconform::slurm {

namespace {

// The nodes both suites judge: the controller's, in its order, within the profile's partition.
JudgedNodes ControllerNodes(const SuiteContext& context) {
  const auto& listed = ReadScontrolNodes(context.raw);
  if (!listed) return {{}, Errored("no-controller-view", listed.error())};
  JudgedNodes judged;
  const SlurmExpectation* slurm = context.profile.Get<SlurmExpectation>();
  const std::string partition = slurm ? slurm->partition : "";
  for (const auto& node : *listed) {
    const auto partitions = node.Partitions();
    if (partition.empty() || std::find(partitions.begin(), partitions.end(), partition) != partitions.end()) {
      judged.nodes.push_back(node.name);
    }
  }
  if (judged.nodes.empty()) {
    judged.unavailable = Errored("no-controller-view", context.raw.ClusterOutput(ScontrolShowNodes().id).origin +
                                                           ": no node in partition '" + partition + "'");
  }
  return judged;
}

// Where each name's first record is in a cluster fact's list, indexed once per run under
// `kind`: a fleet's per-node checks look their node up here rather than each scanning the
// list of 10,000 records.
template <typename Record>
const std::unordered_map<std::string, std::size_t>& IndexByName(const ClusterRaw& raw, const std::string& kind,
                                                                const std::vector<Record>& records,
                                                                std::string Record::*name) {
  return raw.facts.Get<std::unordered_map<std::string, std::size_t>>(kind, "", [&] {
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < records.size(); ++i) index.emplace(records[i].*name, i);
    return index;
  });
}

// A per-node check of the controller's record of the node: `judge(record, context)`. The
// judged nodes are the controller's, so its list was read and names the node (a name it lists
// twice is judged by its first record).
template <typename Judge>
CheckJudge OnControllerRecord(Judge judge) {
  return [judge](const SuiteContext& context, const std::string& node) {
    const std::vector<SlurmNode>& listed = *ReadScontrolNodes(context.raw);
    return judge(listed[IndexByName(context.raw, "scontrol-nodes-by-name", listed, &SlurmNode::name).at(node)],
                 context);
  };
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

CheckResult JudgeGresConf(const SlurmNode& node, const SuiteContext& context) {
  const auto& conf = ReadGresConf(context.raw, node.name);
  return conf ? CheckGresConfMatchesSlurmConf(node, conf->conf, conf->origin) : Errored("no-gres-conf", conf.error());
}

// What `srun --gpus-per-node=N` gave the run's nodes (those its ranks ran on, else the run's).
CheckResult JudgeAllocation(const SuiteContext& context, const std::string&) {
  const RawOutput allocation = context.raw.ClusterOutput(GpuAllocation().id);
  if (allocation.ok()) {
    std::vector<std::string> nodes;
    std::unordered_set<std::string> seen;
    for (const auto& rank : context.ranks) {
      if (seen.insert(rank.host).second) nodes.push_back(rank.host);
    }
    if (nodes.empty()) nodes = context.raw.nodes;
    return CheckAllocationGivesGpus(ReadAllocationReport(context.raw), nodes,
                                    context.profile.Get<SlurmExpectation>()->gpus_per_node);
  }
  if (allocation.status == ProbeStatus::kToolMissing || allocation.status == ProbeStatus::kAbsent) {
    return Skipped("needs a live run inside a Slurm allocation: " + allocation.detail);
  }
  return Errored("allocation-failed", allocation.detail);
}

// The node's line of the reachability probe; every node is "not-probed" where the probe did
// not run. Its status is read once per run: a RawOutput is a copy of the fleet's lines.
CheckResult JudgeSlurmdReachable(const SuiteContext& context, const std::string& node) {
  const auto& not_probed = context.raw.facts.Get<std::optional<std::string>>(
      "slurmd-reachability-not-probed", "", [&]() -> std::optional<std::string> {
        const RawOutput reachability = context.raw.ClusterOutput(SlurmdReachability().id);
        if (reachability.ok()) return std::nullopt;
        return reachability.detail;
      });
  if (not_probed) return Errored("not-probed", *not_probed);
  const auto& probes = ReadSlurmdReachability(context.raw);
  const auto& index = IndexByName(context.raw, "slurmd-reachability-by-node", probes, &SlurmdProbeResult::node);
  const auto line = index.find(node);
  return CheckSlurmdReachable(node, line == index.end() ? nullptr : &probes[line->second]);
}

// No pending job waits on a broken node; the queue not read is an error saying why.
CheckResult JudgePendingJobs(const SuiteContext& context, const std::string&) {
  const RawOutput pending = context.raw.ClusterOutput(PendingJobs().id);
  if (!pending.ok()) return Errored("no-queue", pending.detail);
  const auto& jobs = ReadPendingJobs(context.raw);
  return jobs ? CheckNoJobsPendingOnBrokenNodes(*jobs) : Errored("unparseable", jobs.error());
}

SuiteDefinition GresDefinition() {
  return {
      .name = kGresSuite,
      .summary = "Slurm's GPU GRES agrees with the profile, gres.conf, the hardware and what jobs get",
      .checks =
          {
              {.name = kGresMatchesProfile,
               .requirement = "the node's configured Gres= equals the profile's slurm.gres",
               .per_node = true,
               .judge = OnControllerRecord([](const SlurmNode& node, const SuiteContext& context) {
                 return CheckGresMatchesProfile(node, context.profile);
               })},
              {.name = kGresRegistered,
               .requirement = "slurmctld accepted the node's GRES (no INVAL/INVALID_REG, no gres drain reason)",
               .per_node = true,
               .judge = OnControllerRecord([](const SlurmNode& node, const SuiteContext&) {
                 return CheckGresRegistered(node);
               })},
              {.name = kGresConfMatchesSlurmConf,
               .requirement = "gres.conf declares as many GPUs for the node as slurm.conf's Gres=",
               .per_node = true,
               .judge = OnControllerRecord(JudgeGresConf)},
              {.name = kGresMatchesHardware,
               .requirement = "the configured GPU count equals the GPUs on the node (nvidia-smi or device files)",
               .per_node = true,
               .judge = OnControllerRecord([](const SlurmNode& node, const SuiteContext& context) {
                 return CheckGresMatchesHardware(node, CountHardwareGpus(context, node.name));
               })},
              {.name = kAllocationGivesGpus,
               .requirement = "srun --gpus-per-node=N gives every node N entries in CUDA_VISIBLE_DEVICES",
               .judge = JudgeAllocation,
               .not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
                 if (context.profile.Get<SlurmExpectation>()) return std::nullopt;
                 return "profile has no slurm section";
               }},
          },
      .probes = {ScontrolShowNodes(), GresConfFile(), nvidia_smi::NvidiaSmiQueryXml(), gpu_devices::GpuDevices(),
                 GpuAllocation()},
      .judged_nodes = ControllerNodes,
  };
}

SuiteDefinition NodesDefinition() {
  return {
      .name = kNodesSuite,
      .summary = "every node of the partition is usable, and no job waits on a broken node",
      .checks =
          {
              {.name = kNodeUsable,
               .requirement = "the node is not down, drained, failed, invalid or not responding",
               .per_node = true,
               .judge = OnControllerRecord([](const SlurmNode& node, const SuiteContext&) {
                 return CheckNodeUsable(node);
               })},
              {.name = kSlurmdReachable,
               .requirement = "the node's slurmd accepts connections (NodeAddr:SlurmdPort)",
               .per_node = true,
               .judge = JudgeSlurmdReachable},
              {.name = kNoJobsPendingOnBrokenNodes,
               .requirement = "no pending job's reason points at unavailable nodes",
               .judge = JudgePendingJobs},
          },
      .probes = {ScontrolShowNodes(), PendingJobs(), SlurmdReachability()},
      .judged_nodes = ControllerNodes,
  };
}

const SuiteRegistration kGresRegistration(GresDefinition());
const SuiteRegistration kNodesRegistration(NodesDefinition());

}  // namespace

}  // namespace gpuconform::slurm
