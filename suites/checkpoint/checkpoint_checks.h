// Checkpoint checks: pure judgements of every node's Checkpoint probe output, already read
// (probes/checkpoint_writer/checkpoint_writer_facts.h), against the profile's checkpoint
// section. Cluster-wide checks, judged together from the nodes' reports (the suite's
// evaluate): each judgement named by its check; a node whose report could not be read makes
// every check an error naming it. Each finding names the node, and the kill, trial or file it
// concerns, with observed vs expected and the fix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/node_facts.h"
#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"

namespace gpuconform::checkpoint {

inline constexpr char kSuite[] = "Checkpoint";
inline constexpr char kTargetShared[] = "TargetShared";
inline constexpr char kSameFilesystem[] = "TempOnSameFilesystem";
inline constexpr char kAtomicPublish[] = "AtomicPublish";
inline constexpr char kCrashTorture[] = "CrashTortureLeavesValidCheckpoint";
inline constexpr char kNegativeControl[] = "NegativeControlDetected";
inline constexpr char kVisibility[] = "CrossNodeVisibility";
inline constexpr char kSingleWriter[] = "SingleWriter";
inline constexpr char kCapacity[] = "Capacity";
inline constexpr char kReadThroughput[] = "ReadThroughput";
inline constexpr char kCleanedUp[] = "RunDirectoryRemoved";

// Every check's name, in declared order.
const std::vector<const char*>& CheckNames();

// Why the profile makes every check not apply (no checkpoint section), or nullopt.
std::optional<std::string> NotApplicable(const Profile& profile);

// Every check, in declared order, each named; `profile` has a checkpoint section.
std::vector<CheckResult> CheckCheckpoint(const NodeFacts<NodeCheckpointReport>& reports, const Profile& profile);

}  // namespace gpuconform::checkpoint
