// Torchrun suite glue: every node's report (probes/torchrun/torchrun_facts.h) judged together,
// the collective probe and the registration. The probe runs the site's launcher for real; its
// records go into the snapshot, so a capture taken on a GPU cluster is judged again anywhere.
#include "harness/fact_reading.h"
#include "harness/suite_registry.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_tests/nccl_tests_facts.h"
#include "probes/torchrun/job_log_probe.h"
#include "probes/torchrun/torchrun_facts.h"
#include "probes/torchrun/torchrun_probe.h"
#include "suites/torchrun/job_log_checks.h"
#include "suites/torchrun/torchrun_checks.h"

namespace gpuconform::torchrun {

namespace {

const std::vector<CheckDefinition>& Checks() {
  static const std::vector<CheckDefinition> kChecks = {
      {kLauncherStarted,
       "the site's torchrun starts on the node and runs its workers to the end (not missing, not crashing, not stuck "
       "at the rendezvous)",
       true},
      {kOneLauncherPerNode, "exactly one torchrun runs per node (srun --ntasks-per-node=1)", true},
      {kMasterPortOpen,
       "MASTER_PORT is free on the node with SLURM_NODEID 0 and MASTER_ADDR:MASTER_PORT is reachable from every node",
       false},
      {kRanksConsistent,
       "RANK = node_rank x nproc + LOCAL_RANK, unique over 0..W-1; WORLD_SIZE = nnodes x nproc; node_rank = "
       "SLURM_NODEID",
       false},
      {kDevicesDistinct, "after set_device(LOCAL_RANK) the workers of a node hold distinct GPUs (UUIDs)", true},
      {kCollectiveCorrect,
       "init_process_group forms the group; all_reduce gives the exact sum on every rank at >= the busbw floor", false},
      {kSamplerShards, "DistributedSampler shards are disjoint, cover the dataset, and set_epoch reshuffles", false},
      {kDataLoaderThroughput,
       "a DataLoader reads the shared data at >= the floor with num_workers=4 (and 0, for the ratio)", true},
      {kCheckpointRankZero, "only global rank 0 writes the checkpoint (.tmp + rename); every rank loads the same step",
       false},
      {kJobLogLaunch,
       "a failed job's own output (GPUCONFORM_JOB_LOG, a snapshot's cluster/job.log) shows a completed launch; "
       "each launch failure is named with its node and fix",
       false},
  };
  return kChecks;
}

// The run's own sweep of the backend's kind, where it ran in this run (AllreduceBandwidth
// selected too): the Torchrun suite does not start one of its own.
std::optional<SweepReference> RunsOwnSweep(const SuiteContext& context) {
  const bool nccl = context.profile.ExpectsGpus() &&
                    (!context.profile.torchrun || context.profile.torchrun->backend != "gloo");
  const std::string probe_id = nccl ? nccl_run::NcclAllreduceProbe().id : mpi_sweep::MpiAllreduceProbe().id;
  if (!context.raw.ClusterOutput(probe_id).ok()) return std::nullopt;
  const auto& table = nccl_tests::ReadBandwidthTable(context.raw, probe_id);
  if (!table) return std::nullopt;
  SweepReference sweep{nccl ? "gpuconform's NCCL run" : "the MPI sweep", {}, nccl};
  for (const auto& row : table->rows) sweep.busbw_by_size.emplace_back(row.size_bytes, row.busbw_gb_per_s);
  return sweep;
}

// The operator's own job log is judged whatever the profile says about launching.
CheckResult JudgeJobLog(const SuiteContext& context) {
  const auto& input = ReadJobLog(context.raw);
  if (!input) {
    return Skipped("no job log given: set GPUCONFORM_JOB_LOG=FILE (a failed job's Slurm output), or put it in the "
                   "snapshot as cluster/job.log");
  }
  // Empty or not text (a binary handed over by mistake): nothing in it can be judged.
  if (!input->diagnosis) return Errored("unparseable", input->diagnosis.error());
  return CheckJobLogLaunch(*input->diagnosis, input->origin);
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  const std::vector<std::string>& nodes = context.raw.nodes;
  if (auto reason = NotApplicable(context.profile)) {
    std::vector<CheckResult> results;
    for (const auto& check : Checks()) {
      if (!check.per_node && check.name != kJobLogLaunch) results.push_back(Judged(check.name, "", Skipped(*reason)));
    }
    results.push_back(Judged(kJobLogLaunch, "", JudgeJobLog(context)));
    for (const auto& node : nodes) {
      for (const auto& check : Checks()) {
        if (check.per_node) results.push_back(Judged(check.name, node, Skipped(*reason)));
      }
    }
    return results;
  }
  // An active measurement a snapshot did not capture (one taken without the suite, or before it
  // existed) is not a fault of the cluster: skipped, saying so, as the allreduce sweeps are.
  bool captured = nodes.empty();
  for (const auto& node : nodes) {
    if (context.raw.NodeOutput(node, TorchrunProbe().id).status != ProbeStatus::kAbsent) captured = true;
  }
  std::vector<CheckResult> results;
  if (!captured) {
    const std::string why = "the snapshot has no nodes/*/" + TorchrunProbe().file +
                            " (the launch was not captured): capture under srun with the Torchrun suite";
    for (const auto& check : Checks()) {
      if (check.name == kJobLogLaunch) continue;
      if (!check.per_node) results.push_back(Judged(check.name, "", Skipped(why)));
      for (const auto& node : check.per_node ? nodes : std::vector<std::string>{}) {
        results.push_back(Judged(check.name, node, Skipped(why)));
      }
    }
  } else {
    results = CheckTorchrun(facts::ReadEveryNode(context.raw, ReadTorchrunReport), nodes, context.profile,
                            RunsOwnSweep(context));
  }
  results.push_back(Judged(kJobLogLaunch, "", JudgeJobLog(context)));
  return results;
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "the launch path jobs use, for real: srun torchrun per node, ranks, GPUs, a collective, "
                 "DistributedSampler, DataLoader, rank-0 checkpoints",
      .checks = Checks(),
      .probes = {TorchrunProbe(), JobLogProbe()},
      .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::torchrun
