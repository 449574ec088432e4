// Typed readers of the Slurm probes' outputs, each parsed once per run (cached in the run's
// facts): the controller's nodes, a node's gres.conf, the pending jobs, and gpuconform's slurmd
// reachability and GPU allocation probes. Pure: the run's raw outputs in. An error is the
// probe's own detail where the output was not obtained, else the parser's naming origin and line.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform::slurm {

// Every node `scontrol show node` lists.
const Result<std::vector<SlurmNode>>& ReadScontrolNodes(const ClusterRaw& raw);

// gres.conf as read on a node, and the file it came from (for messages).
struct NodeGresConf {
  GresConf conf;
  std::string origin;
};
// The node's own gres.conf, else the first other node's that was read (gres.conf is usually one
// file shared by the cluster, with NodeName= lines, so a node that ran no task is still judged);
// the stand-in is looked for once per run. An error where the one read does not parse, or where
// no node's was read ("node: no gres.conf was read (...)").
const Result<NodeGresConf>& ReadGresConf(const ClusterRaw& raw, const std::string& node);

// `squeue`'s pending jobs.
const Result<std::vector<PendingJob>>& ReadPendingJobs(const ClusterRaw& raw);

// The slurmd reachability and allocation probes' lines, whatever the probe's status (the
// callers judge the status).
const std::vector<SlurmdProbeResult>& ReadSlurmdReachability(const ClusterRaw& raw);
const std::vector<AllocationTask>& ReadAllocationReport(const ClusterRaw& raw);

}  // namespace gpuconform::slurm
