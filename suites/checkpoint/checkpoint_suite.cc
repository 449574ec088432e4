// Checkpoint suite glue: every node's report (probes/checkpoint_writer/checkpoint_writer_facts.h)
// judged together, the collective probe and the registration. The probe is an active
// measurement (writes, kills, reads) whose raw results a snapshot keeps, so a run can be judged
// again later without touching the storage.
#include "harness/fact_reading.h"
#include "harness/suite_registry.h"
#include "probes/checkpoint_writer/checkpoint_probe.h"
#include "probes/checkpoint_writer/checkpoint_writer_facts.h"
#include "suites/checkpoint/checkpoint_checks.h"

namespace gpuconform::checkpoint {

namespace {

// A profile without a checkpoint section skips every check, before any report is read.
std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  if (auto reason = NotApplicable(context.profile)) {
    std::vector<CheckResult> results;
    for (const char* check : CheckNames()) results.push_back(Judged(check, "", Skipped(*reason)));
    return results;
  }
  return CheckCheckpoint(facts::ReadEveryNode(context.raw, ReadCheckpointReport), context.profile);
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
