#include "probes/slurm/slurm_facts.h"

#include <optional>

#include "harness/core/fact_reading.h"
#include "probes/slurm/slurm_probes.h"

namespace gpuconform::slurm {

namespace {

// The node's own gres.conf; nullopt where its probe gave none.
const std::optional<Result<NodeGresConf>>& ReadOwnGresConf(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<std::optional<Result<NodeGresConf>>>(
      "gres-conf", node, [&]() -> std::optional<Result<NodeGresConf>> {
        const RawOutput out = raw.NodeOutput(node, GresConfFile().id);
        if (!out.ok()) return std::nullopt;
        auto conf = ParseGresConf(out.text, out.origin);
        if (!conf) return Result<NodeGresConf>(Error{conf.error()});
        return Result<NodeGresConf>(NodeGresConf{std::move(conf).value(), out.origin});
      });
}

}  // namespace

const Result<std::vector<SlurmNode>>& ReadScontrolNodes(const ClusterRaw& raw) {
  return raw.facts.Get<Result<std::vector<SlurmNode>>>(
      "scontrol-nodes", "", [&] { return facts::ParseOutput(raw.ClusterOutput(ScontrolShowNodes().id), ParseScontrolShowNode); });
}

const Result<NodeGresConf>& ReadGresConf(const ClusterRaw& raw, const std::string& node) {
  if (const auto& own = ReadOwnGresConf(raw, node)) return *own;
  const auto& stand_in = raw.facts.Get<std::optional<Result<NodeGresConf>>>(
      "gres-conf-stand-in", "", [&]() -> std::optional<Result<NodeGresConf>> {
        for (const auto& candidate : raw.nodes) {
          if (const auto& theirs = ReadOwnGresConf(raw, candidate)) return theirs;
        }
        return std::nullopt;
      });
  if (stand_in) return *stand_in;
  return raw.facts.Get<Result<NodeGresConf>>("gres-conf-missing", node, [&]() -> Result<NodeGresConf> {
    return Error{node + ": no gres.conf was read (" + raw.NodeOutput(node, GresConfFile().id).detail + ")"};
  });
}

const Result<std::vector<PendingJob>>& ReadPendingJobs(const ClusterRaw& raw) {
  return raw.facts.Get<Result<std::vector<PendingJob>>>(
      "pending-jobs", "", [&] { return facts::ParseOutput(raw.ClusterOutput(PendingJobs().id), ParsePendingJobs); });
}

const std::vector<SlurmdProbeResult>& ReadSlurmdReachability(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "slurmd-reachability", SlurmdReachability().id, ParseSlurmdReachability);
}

const std::vector<AllocationTask>& ReadAllocationReport(const ClusterRaw& raw) {
  return facts::ReadClusterLines(raw, "gpu-allocation", GpuAllocation().id, ParseAllocationReport);
}

}  // namespace gpuconform::slurm
