// Checkpoint suite glue: each check judged from every node's report
// (probes/checkpoint_writer/checkpoint_writer_facts.h, parsed once per run and kept across the
// suite's checks), skipped before any read where the profile has no checkpoint section; the
// collective probe and the registration. The probe is an active measurement (writes, kills,
// reads) whose raw results a snapshot keeps, so a run can be judged again later without
// touching the storage.
#include "harness/core/fact_reading.h"
#include "harness/core/suite_registry.h"
#include "probes/checkpoint_writer/checkpoint_probe.h"
#include "probes/checkpoint_writer/checkpoint_writer_facts.h"
#include "suites/checkpoint/checkpoint_checks.h"

namespace gpuconform::checkpoint {

namespace {

std::optional<std::string> NoCheckpointSection(const SuiteContext& context, const std::string&) {
  return NotApplicable(context.profile);
}

Reports EveryReport(const SuiteContext& context) { return facts::ReadEveryNode(context.raw, ReadCheckpointReport); }

CheckJudge JudgeReports(CheckResult (*check)(const Reports&)) {
  return [check](const SuiteContext& context, const std::string&) { return check(EveryReport(context)); };
}

// A check judged against the profile's checkpoint section, there wherever a check is judged
// (NoCheckpointSection skips it otherwise).
CheckJudge JudgeReports(CheckResult (*check)(const Reports&, const CheckpointExpectation&)) {
  return [check](const SuiteContext& context, const std::string&) {
    return check(EveryReport(context), *context.profile.Get<CheckpointExpectation>());
  };
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary =
          "atomic checkpoint publish on the shared storage, proven by killing writers; capacity and read bandwidth",
      .checks =
          {
              {.name = kTargetShared,
               .requirement = "every node sees the one checkpoint directory (a token rank 0 wrote)",
               .judge = JudgeReports(CheckTargetShared),
               .not_applicable = NoCheckpointSection},
              {.name = kTempOnSameFilesystem,
               .requirement = "the jobs' temporary location renames into the checkpoint directory (no EXDEV)",
               .judge = JudgeReports(CheckSameFilesystem),
               .not_applicable = NoCheckpointSection},
              {.name = kAtomicPublish,
               .requirement = "readers on every node see only whole checkpoints while rank 0 publishes new versions",
               .judge = JudgeReports(CheckAtomicPublish),
               .not_applicable = NoCheckpointSection},
              {.name = kCrashTortureLeavesValidCheckpoint,
               .requirement = "after each SIGKILL of an atomic writer (every phase, random points) every node reads a "
                              "whole checkpoint",
               .judge = JudgeReports(CheckCrashTorture),
               .not_applicable = NoCheckpointSection},
              {.name = kNegativeControlDetected,
               .requirement = "the same torture with an in-place writer is detected as torn (the check can fail)",
               .judge = JudgeReports(CheckNegativeControl),
               .not_applicable = NoCheckpointSection},
              {.name = kCrossNodeVisibility,
               .requirement =
                   "a checkpoint renamed into place is visible and whole on every other node within the deadline",
               .judge = JudgeReports(CheckVisibility),
               .not_applicable = NoCheckpointSection},
              {.name = kSingleWriter,
               .requirement = "rank 0 alone writes whole; all ranks writing one path unguarded is detected as corrupt",
               .judge = JudgeReports(CheckSingleWriter),
               .not_applicable = NoCheckpointSection},
              {.name = kCapacity,
               .requirement = "free space holds checkpoint.size_bytes x (copies_kept + 1)",
               .judge = JudgeReports(CheckCapacity),
               .not_applicable = NoCheckpointSection},
              {.name = kReadThroughput,
               .requirement = "aggregate read bandwidth with 1 and k readers per node (floor optional)",
               .judge = JudgeReports(CheckReadThroughput),
               .not_applicable = NoCheckpointSection},
              {.name = kRunDirectoryRemoved,
               .requirement = "the run directory is removed; those of killed runs are swept",
               .judge = JudgeReports(CheckCleanedUp),
               .not_applicable = NoCheckpointSection},
          },
      .probes = {CheckpointProbe()},
      // Every check reads every node's report: parsed once, not once per check.
      .cluster_checks_share_node_facts = true,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::checkpoint
