// SlurmGres and SlurmNodes glue: which raw outputs feed which check, and registration.
// Both suites judge every node the controller lists (restricted to profile.slurm.partition
// when set), so a node that is down or drained — and so runs no gpuconform task — is still
// named in the report.

#include "facts/gpu_facts.h"
#include "probes/gpu_devices/gpu_devices_probe.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "harness/suite_registry.h"
#include "harness/text_util.h"
#include "probes/slurm/slurm_probes.h"
#include "suites/slurm/slurm_checks.h"

namespace gpuconform::slurm {

namespace {

struct ControllerView {
  std::vector<SlurmNode> nodes;
  std::string problem;  // set when the controller's view is unavailable
};

ControllerView ReadControllerView(const SuiteContext& context) {
  const RawOutput out = context.raw.ClusterOutput(ScontrolShowNodes().id);
  if (!out.ok()) return {{}, out.detail};
  auto parsed = ParseScontrolShowNode(out.text, out.origin);
  if (!parsed) return {{}, parsed.error()};
  ControllerView view;
  const std::string partition = context.profile.slurm ? context.profile.slurm->partition : "";
  for (auto& node : *parsed) {
    const auto partitions = node.Partitions();
    if (partition.empty() || std::find(partitions.begin(), partitions.end(), partition) != partitions.end()) {
      view.nodes.push_back(std::move(node));
    }
  }
  if (view.nodes.empty()) view.problem = out.origin + ": no node in partition '" + partition + "'";
  return view;
}

// Without the controller's view, every check is an error that says why.
std::vector<CheckResult> AllErrored(const SuiteDefinition& suite, const std::string& problem) {
  std::vector<CheckResult> results;
  for (const auto& check : suite.checks) {
    results.push_back(Errored(suite.name, check.name, "", "no-controller-view", problem));
  }
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

// gres.conf is often one shared file with NodeName= lines; when a node ran no task, the
// copy read on another node still says what that node is configured with.
struct GresConfView {
  std::optional<GresConf> conf;
  std::string origin;
  std::string problem;
};

GresConfView ParsedGresConf(const RawOutput& out) {
  GresConfView view;
  auto parsed = ParseGresConf(out.text, out.origin);
  if (!parsed) {
    view.problem = parsed.error();
    return view;
  }
  view.conf = std::move(parsed).value();
  view.origin = out.origin;
  return view;
}

// A node's own gres.conf, else the first other node's that was read (gres.conf is usually one file
// shared by the cluster). The stand-in is looked for once per evaluation, not once per node: a
// fleet whose snapshot holds no gres.conf would otherwise try every node for every node.
class GresConfReader {
 public:
  explicit GresConfReader(const SuiteContext& context) : context_(context) {}

  GresConfView For(const std::string& node) {
    const RawOutput own = context_.raw.NodeOutput(node, GresConfFile().id);
    if (own.ok()) return ParsedGresConf(own);
    if (!stand_in_) stand_in_ = FindStandIn();
    if (stand_in_->conf || !stand_in_->problem.empty()) return *stand_in_;
    return GresConfView{std::nullopt, "", node + ": no gres.conf was read (" + own.detail + ")"};
  }

 private:
  GresConfView FindStandIn() const {
    for (const auto& candidate : context_.raw.nodes) {
      const RawOutput out = context_.raw.NodeOutput(candidate, GresConfFile().id);
      if (out.ok()) return ParsedGresConf(out);
    }
    return GresConfView{};
  }

  const SuiteContext& context_;
  std::optional<GresConfView> stand_in_;
};

std::vector<CheckResult> EvaluateGres(const SuiteContext& context, const SuiteDefinition& suite) {
  const ControllerView view = ReadControllerView(context);
  if (!view.problem.empty()) return AllErrored(suite, view.problem);
  std::vector<CheckResult> results;
  for (const auto& node : view.nodes) results.push_back(CheckGresMatchesProfile(node, context.profile));
  for (const auto& node : view.nodes) results.push_back(CheckGresRegistered(node));
  GresConfReader gres_conf(context);
  for (const auto& node : view.nodes) {
    const GresConfView conf = gres_conf.For(node.name);
    results.push_back(conf.conf
                          ? CheckGresConfMatchesSlurmConf(node, *conf.conf, conf.origin)
                          : Errored(kGresSuite, "GresConfMatchesSlurmConf", node.name, "no-gres-conf", conf.problem));
  }
  for (const auto& node : view.nodes) {
    results.push_back(CheckGresMatchesHardware(node, CountHardwareGpus(context, node.name)));
  }

  const RawOutput allocation = context.raw.ClusterOutput(GpuAllocation().id);
  if (!context.profile.slurm) {
    results.push_back(Skipped(kGresSuite, "AllocationGivesGpus", "", "profile has no slurm section"));
  } else if (allocation.ok()) {
    std::vector<std::string> nodes;
    for (const auto& rank : context.ranks) {
      if (std::find(nodes.begin(), nodes.end(), rank.host) == nodes.end()) nodes.push_back(rank.host);
    }
    if (nodes.empty()) nodes = context.raw.nodes;
    results.push_back(
        CheckAllocationGivesGpus(ParseAllocationReport(allocation.text), nodes, context.profile.slurm->gpus_per_node));
  } else if (allocation.status == ProbeStatus::kToolMissing || allocation.status == ProbeStatus::kAbsent) {
    results.push_back(Skipped(kGresSuite, "AllocationGivesGpus", "",
                              "needs a live run inside a Slurm allocation: " + allocation.detail));
  } else {
    results.push_back(Errored(kGresSuite, "AllocationGivesGpus", "", "allocation-failed", allocation.detail));
  }
  return results;
}

std::vector<CheckResult> EvaluateNodes(const SuiteContext& context, const SuiteDefinition& suite) {
  const ControllerView view = ReadControllerView(context);
  if (!view.problem.empty()) return AllErrored(suite, view.problem);
  std::vector<CheckResult> results;
  for (const auto& node : view.nodes) results.push_back(CheckNodeUsable(node));
  const RawOutput reachability = context.raw.ClusterOutput(SlurmdReachability().id);
  const auto probes = ParseSlurmdReachability(reachability.text);
  for (const auto& node : view.nodes) {
    results.push_back(reachability.ok()
                          ? CheckSlurmdReachable(node.name, probes)
                          : Errored(kNodesSuite, "SlurmdReachable", node.name, "not-probed", reachability.detail));
  }
  const RawOutput pending = context.raw.ClusterOutput(PendingJobs().id);
  if (!pending.ok()) {
    results.push_back(Errored(kNodesSuite, "NoJobsPendingOnBrokenNodes", "", "no-queue", pending.detail));
  } else if (auto jobs = ParsePendingJobs(pending.text, pending.origin)) {
    results.push_back(CheckNoJobsPendingOnBrokenNodes(*jobs));
  } else {
    results.push_back(Errored(kNodesSuite, "NoJobsPendingOnBrokenNodes", "", "unparseable", jobs.error()));
  }
  return results;
}

SuiteDefinition GresDefinition() {
  return {
      .name = kGresSuite,
      .summary = "Slurm's GPU GRES agrees with the profile, gres.conf, the hardware and what jobs get",
      .checks =
          {
              {"GresMatchesProfile", "the node's configured Gres= equals the profile's slurm.gres", true},
              {"GresRegistered", "slurmctld accepted the node's GRES (no INVAL/INVALID_REG, no gres drain reason)",
               true},
              {"GresConfMatchesSlurmConf", "gres.conf declares as many GPUs for the node as slurm.conf's Gres=", true},
              {"GresMatchesHardware",
               "the configured GPU count equals the GPUs on the node (nvidia-smi or device files)", true},
              {"AllocationGivesGpus", "srun --gpus-per-node=N gives every node N entries in CUDA_VISIBLE_DEVICES",
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
              {"NodeUsable", "the node is not down, drained, failed, invalid or not responding", true},
              {"SlurmdReachable", "the node's slurmd accepts connections (NodeAddr:SlurmdPort)", true},
              {"NoJobsPendingOnBrokenNodes", "no pending job's reason points at unavailable nodes", false},
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
