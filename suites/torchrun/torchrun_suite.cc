// Torchrun suite glue: which reports feed which check (every node's, probes/torchrun/
// torchrun_facts.h, for the cluster checks; the node's own for the per-node ones), the skips, the
// workers' deaths each check is put through, the collective probe and the registration. The
// probe runs the site's launcher for real; its records go into the snapshot, so a capture taken
// on a GPU cluster is judged again anywhere.
#include <algorithm>

#include "harness/core/fact_reading.h"
#include "harness/core/suite_registry.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_tests/nccl_tests_facts.h"
#include "probes/torchrun/job_log_probe.h"
#include "probes/torchrun/torchrun_facts.h"
#include "probes/torchrun/torchrun_probe.h"
#include "suites/torchrun/job_log_checks.h"
#include "suites/torchrun/torchrun_checks.h"
#include "suites/torchrun/worker_deaths.h"

namespace gpuconform::torchrun {

namespace {

// What the checks of the probe's output need of the whole run, read from every node's report
// once and kept for the run (a cluster fact). The per-node checks judge in the node-by-node pass,
// after the nodes before theirs are released, so they read their own node's report and this; the
// first check that applies computes it, before any node is released.
struct RunWide {
  std::optional<std::string> not_judged;  // why no check of the probe's output applies
  AcrossNodes across;
  WorkerDeaths deaths;
};

const RunWide& ReadRunWide(const SuiteContext& context) {
  return context.raw.facts.Get<RunWide>("torchrun-run-wide", "", [&] {
    RunWide run;
    // An active measurement a snapshot did not capture (one taken without the suite, or before
    // it existed) is not a fault of the cluster: skipped, saying so, as the allreduce sweeps are.
    const std::vector<std::string>& nodes = context.raw.nodes;
    const bool captured = nodes.empty() || std::any_of(nodes.begin(), nodes.end(), [&](const std::string& node) {
                            return context.raw.NodeOutput(node, TorchrunProbe().id).status != ProbeStatus::kAbsent;
                          });
    if (!captured) {
      run.not_judged = "the snapshot has no nodes/*/" + TorchrunProbe().file +
                       " (the launch was not captured): capture under srun with the Torchrun suite";
      return run;
    }
    const auto reports = facts::ReadEveryNode(context.raw, ReadTorchrunReport);
    run.across = SummarizeNodes(reports);
    if (!run.across.skipped.empty()) run.not_judged = run.across.skipped;
    run.deaths = FindWorkerDeaths(reports);
    return run;
  });
}

// A check of the probe's output: skipped where the profile has no torchrun section, the launch
// was not captured or the probe launched nothing; its judgement as the workers' deaths leave it.
CheckDefinition ProbeCheck(CheckDefinition check) {
  check.not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
    if (auto reason = NotApplicable(context.profile)) return reason;
    return ReadRunWide(context).not_judged;
  };
  check.judge = [name = check.name, judge = std::move(check.judge)](const SuiteContext& context,
                                                                      const std::string& node) {
    return WithWorkerDeaths(judge(context, node), name, node, ReadRunWide(context).deaths);
  };
  return check;
}

// A per-node check of the node's own report; a report that could not be read is its error.
template <typename Judge>
CheckJudge OnNodeReport(Judge judge) {
  return ReadThenJudge(
      [](const SuiteContext& context, const std::string& node) -> const Result<NodeTorchrunReport>& {
        return ReadTorchrunReport(context.raw, node);
      },
      [judge](const NodeTorchrunReport& report, const SuiteContext& context, const std::string&) {
        return judge(report, context);
      });
}

// Every node's report, for a cluster check (parsed once: the suite's cluster checks share them).
NodeFacts<NodeTorchrunReport> EveryReport(const SuiteContext& context) {
  return facts::ReadEveryNode(context.raw, ReadTorchrunReport);
}

// A cluster check judged from every node's report alone.
CheckJudge OnEveryReport(CheckResult (*check)(const NodeFacts<NodeTorchrunReport>&)) {
  return [check](const SuiteContext& context, const std::string&) { return check(EveryReport(context)); };
}

// The run's own sweep of the backend's kind, where it ran in this run (AllreduceBandwidth
// selected too): the Torchrun suite does not start one of its own.
std::optional<SweepReference> RunsOwnSweep(const SuiteContext& context) {
  const TorchrunExpectation* torchrun = context.profile.Get<TorchrunExpectation>();
  const bool nccl = context.profile.ExpectsGpus() && (torchrun == nullptr || torchrun->backend != "gloo");
  const std::string probe_id = nccl ? nccl_run::NcclAllreduceProbe().id : mpi_sweep::MpiAllreduceProbe().id;
  if (!context.raw.ClusterOutput(probe_id).ok()) return std::nullopt;
  const auto& table = nccl_tests::ReadBandwidthTable(context.raw, probe_id);
  if (!table) return std::nullopt;
  SweepReference sweep{nccl ? "gpuconform's NCCL run" : "the MPI sweep", {}, nccl};
  for (const auto& row : table->rows) sweep.busbw_by_size.emplace_back(row.size_bytes, row.busbw_gb_per_s);
  return sweep;
}

// The operator's own job log is judged whatever the profile says about launching, where one was
// given.
std::optional<std::string> NoJobLog(const SuiteContext& context, const std::string&) {
  if (ReadJobLog(context.raw)) return std::nullopt;
  return "no job log given: set GPUCONFORM_JOB_LOG=FILE (a failed job's Slurm output), or put it in the snapshot as "
         "cluster/job.log";
}

CheckResult JudgeJobLog(const SuiteContext& context, const std::string&) {
  const JobLogInput& input = *ReadJobLog(context.raw);
  // Empty or not text (a binary handed over by mistake): nothing in it can be judged.
  if (!input.diagnosis) return Errored("unparseable", input.diagnosis.error());
  return CheckJobLogLaunch(*input.diagnosis, input.origin);
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "the launch path jobs use, for real: srun torchrun per node, ranks, GPUs, a collective, "
                 "DistributedSampler, DataLoader, rank-0 checkpoints",
      .checks =
          {
              ProbeCheck({.name = kLauncherStarted,
                          .requirement = "the site's torchrun starts on the node and runs its workers to the end (not "
                                         "missing, not crashing, not stuck at the rendezvous)",
                          .per_node = true,
                          .judge = OnNodeReport([](const NodeTorchrunReport& report, const SuiteContext& context) {
                            return CheckLauncherStarted(report, ReadRunWide(context).across);
                          })}),
              ProbeCheck({.name = kOneLauncherPerNode,
                          .requirement = "exactly one torchrun runs per node (srun --ntasks-per-node=1)",
                          .per_node = true,
                          .judge = OnNodeReport([](const NodeTorchrunReport& report, const SuiteContext&) {
                            return CheckOneLauncherPerNode(report);
                          })}),
              ProbeCheck({.name = kMasterPortOpen,
                          .requirement = "MASTER_PORT is free on the node with SLURM_NODEID 0 and "
                                         "MASTER_ADDR:MASTER_PORT is reachable from every node",
                          .per_node = false,
                          .judge = OnEveryReport(CheckMasterPortOpen)}),
              ProbeCheck({.name = kRanksConsistent,
                          .requirement = "RANK = node_rank x nproc + LOCAL_RANK, unique over 0..W-1; WORLD_SIZE = "
                                         "nnodes x nproc; node_rank = SLURM_NODEID",
                          .per_node = false,
                          .judge = OnEveryReport(CheckRanksConsistent)}),
              ProbeCheck({.name = kDevicesDistinct,
                          .requirement =
                              "after set_device(LOCAL_RANK) the workers of a node hold distinct GPUs (UUIDs)",
                          .per_node = true,
                          .judge = OnNodeReport([](const NodeTorchrunReport& report, const SuiteContext&) {
                            return CheckDevicesDistinct(report);
                          })}),
              ProbeCheck({.name = kCollectiveCorrect,
                          .requirement = "init_process_group forms the group; all_reduce gives the exact sum on every "
                                         "rank at >= the busbw floor",
                          .per_node = false,
                          .judge = [](const SuiteContext& context, const std::string&) {
                            return CheckCollectiveCorrect(EveryReport(context), context.profile, RunsOwnSweep(context));
                          }}),
              ProbeCheck({.name = kSamplerShardsDisjoint,
                          .requirement = "DistributedSampler shards are disjoint, cover the dataset, and set_epoch "
                                         "reshuffles",
                          .per_node = false,
                          .judge = OnEveryReport(CheckSamplerShards)}),
              ProbeCheck({.name = kDataLoaderThroughput,
                          .requirement = "a DataLoader reads the shared data at >= the floor with num_workers=4 (and "
                                         "0, for the ratio)",
                          .per_node = true,
                          .judge = OnNodeReport([](const NodeTorchrunReport& report, const SuiteContext& context) {
                            return CheckDataLoaderThroughput(report, ReadRunWide(context).across, context.profile);
                          })}),
              ProbeCheck({.name = kCheckpointRankZero,
                          .requirement = "only global rank 0 writes the checkpoint (.tmp + rename); every rank loads "
                                         "the same step",
                          .per_node = false,
                          .judge = OnEveryReport(CheckCheckpointRankZero)}),
              {.name = kJobLogLaunch,
               .requirement = "a failed job's own output (GPUCONFORM_JOB_LOG, a snapshot's cluster/job.log) shows a "
                              "completed launch; each launch failure is named with its node and fix",
               .per_node = false,
               .judge = JudgeJobLog,
               .not_applicable = NoJobLog},
          },
      .probes = {TorchrunProbe(), JobLogProbe()},
      .cluster_checks_share_node_facts = true,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::torchrun
