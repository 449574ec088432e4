// Checkpoint checks: pure judgements of every node's Checkpoint probe output against the
// profile's checkpoint section. Cluster-wide checks; each finding names the node, and the
// kill, trial or file it concerns, with observed vs expected and the fix.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/profile.h"
#include "harness/result.h"
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

// Each node's parsed report, or why there is none.
using NodeReports = std::map<std::string, Result<NodeCheckpointReport>>;

// Every check, in declared order. A profile without a checkpoint section skips them all.
std::vector<CheckResult> CheckCheckpoint(const NodeReports& reports, const Profile& profile);

}  // namespace gpuconform::checkpoint
