// Checkpoint checks: pure judgements of every node's Checkpoint probe output, already read
// (probes/checkpoint_writer/checkpoint_writer_facts.h), against the profile's checkpoint
// section. Each check is cluster-wide and judged on its own from every node's report. They
// share what stops all of them: a node whose report could not be read, a probe that found no
// target (each check's error naming it), and a target that is not one shared directory
// (TargetShared fails, every other check errors "target-not-shared"). Each finding names the
// node, and the kill, trial or file it concerns, with observed vs expected and the fix. A check
// is called only where the profile has a checkpoint section (NotApplicable).
#pragma once

#include <optional>
#include <string>

#include "harness/core/node_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"
#include "probes/checkpoint_writer/checkpoint_profile.h"

namespace gpuconform::checkpoint {

inline constexpr char kSuite[] = "Checkpoint";
GPUCONFORM_CHECK_NAME(TargetShared);
GPUCONFORM_CHECK_NAME(TempOnSameFilesystem);
GPUCONFORM_CHECK_NAME(AtomicPublish);
GPUCONFORM_CHECK_NAME(CrashTortureLeavesValidCheckpoint);
GPUCONFORM_CHECK_NAME(NegativeControlDetected);
GPUCONFORM_CHECK_NAME(CrossNodeVisibility);
GPUCONFORM_CHECK_NAME(SingleWriter);
GPUCONFORM_CHECK_NAME(Capacity);
GPUCONFORM_CHECK_NAME(ReadThroughput);
GPUCONFORM_CHECK_NAME(RunDirectoryRemoved);

// Why the profile makes every check not apply (no checkpoint section), or nullopt.
std::optional<std::string> NotApplicable(const Profile& profile);

// Every node's report, or why it could not be read.
using Reports = NodeFacts<NodeCheckpointReport>;

// Every node sees rank 0's token in the one checkpoint directory.
CheckResult CheckTargetShared(const Reports& reports);
// The temporary location renames into the checkpoint directory (no EXDEV).
CheckResult CheckSameFilesystem(const Reports& reports);
// Readers on every node saw only whole checkpoints, up to the last version, while rank 0 published.
CheckResult CheckAtomicPublish(const Reports& reports);
// Every node read a whole checkpoint of the right version after each kill of an atomic writer.
CheckResult CheckCrashTorture(const Reports& reports);
// Some node saw a torn file after the in-place writer's kills (the verifier can see tearing).
CheckResult CheckNegativeControl(const Reports& reports);
// Every other node saw rank 0's renamed checkpoint whole within the deadline.
CheckResult CheckVisibility(const Reports& reports, const CheckpointExpectation& expect);
// Rank 0 alone wrote whole; all ranks writing one path unguarded was detected.
CheckResult CheckSingleWriter(const Reports& reports);
// The tightest node's free space holds size_bytes x (copies_kept + 1); recorded without size_bytes.
CheckResult CheckCapacity(const Reports& reports, const CheckpointExpectation& expect);
// Aggregate read bandwidth with 1 and k readers per node; judged against a floor where one is set.
CheckResult CheckReadThroughput(const Reports& reports, const CheckpointExpectation& expect);
// The run directory was removed, and those of killed runs swept.
CheckResult CheckCleanedUp(const Reports& reports);

}  // namespace gpuconform::checkpoint
