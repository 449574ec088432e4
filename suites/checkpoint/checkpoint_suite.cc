// Checkpoint suite glue: the collective probe, the parse of each node's output and the
// registration. The probe is an active measurement (writes, kills, reads) whose raw results
// a snapshot keeps, so a run can be judged again later without touching the storage.
#include "harness/suite_registry.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"
#include "probes/checkpoint_writer/checkpoint_probe.h"
#include "suites/checkpoint/checkpoint_checks.h"

namespace gpuconform::checkpoint {

namespace {

const ProbeSpec& CheckpointProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("checkpoint", "checkpoint.txt", ProbeCheckpoint);
  return kSpec;
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  NodeReports reports;
  const ProbeSpec& spec = CheckpointProbe();
  for (const auto& node : context.raw.nodes) {
    const RawOutput out = context.raw.NodeOutput(node, spec.id);
    const std::string origin = out.origin.empty() ? node + "/" + spec.file : out.origin;
    if (!out.ok()) {
      // Each problem leads with its node, so the report can group the nodes that share it.
      std::string problem =
          out.detail.empty() ? "no " + spec.file + " (" + ProbeStatusName(out.status) + ")" : out.detail;
      if (!problem.starts_with(node + ":")) problem = node + ": " + problem;
      reports.emplace(node, Error{problem});
      continue;
    }
    reports.emplace(node, ParseCheckpointReport(out.text, node, node + "/" + spec.file));
  }
  return CheckCheckpoint(reports, context.profile);
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary =
          "atomic checkpoint publish on the shared storage, proven by killing writers; capacity and read bandwidth",
      .checks =
          {
              {kTargetShared, "every node sees the one checkpoint directory (a token rank 0 wrote)", false},
              {kSameFilesystem, "the jobs' temporary location renames into the checkpoint directory (no EXDEV)", false},
              {kAtomicPublish, "readers on every node see only whole checkpoints while rank 0 publishes new versions",
               false},
              {kCrashTorture,
               "after each SIGKILL of an atomic writer (every phase, random points) every node reads a whole "
               "checkpoint",
               false},
              {kNegativeControl, "the same torture with an in-place writer is detected as torn (the check can fail)",
               false},
              {kVisibility,
               "a checkpoint renamed into place is visible and whole on every other node within the deadline", false},
              {kSingleWriter, "rank 0 alone writes whole; all ranks writing one path unguarded is detected as corrupt",
               false},
              {kCapacity, "free space holds checkpoint.size_bytes x (copies_kept + 1)", false},
              {kReadThroughput, "aggregate read bandwidth with 1 and k readers per node (floor optional)", false},
              {kCleanedUp, "the run directory is removed; those of killed runs are swept", false},
          },
      .probes = {CheckpointProbe()},
      .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::checkpoint
