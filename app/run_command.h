// The verbs of the CLI, wired together: load the profile, gather the raw outputs (live
// across the world, or from a snapshot), evaluate every suite, run them as GoogleTest tests,
// print the aggregated terminal report and write the JUnit report on rank 0.
// Contract: returns the exit status of the contract (0/1/2/3/4), the same on every rank.
#pragma once

#include <optional>
#include <string>

#include "app/cli.h"
#include "harness/core/run_options.h"
#include "harness/world/world.h"

namespace gpuconform {

int RunVerb(const CommandLine& command, const RunOptions& options, const World& world);
// The run rank 0 makes alone when the world could not be formed: this node's probes, the
// controller's view of the others, and Launch.WorldFormed as an error saying why.
int RunVerbAlone(const CommandLine& command, const RunOptions& options, const std::string& world_problem);
// A live run's rank 0, before the ranks meet: opens the inbox a rank that cannot meet the
// others sends its outputs to, and publishes where it is (World::PublishRendezvous).
void PrepareRunRendezvous(const World& unformed);
// The run when the ranks never formed one world (a rank's process did not start, or died or
// hung before the ranks met), on every rank that did start: each judges nothing across nodes,
// takes its own node's probes and sends them to rank 0's inbox; rank 0 judges every node that
// sent, names each node of the step that never did in Launch.WorldFormed, and writes the
// reports. Returns the exit status (rank 0's is the step's).
int RunVerbUnformed(const CommandLine& command, const RunOptions& options, const World& unformed,
                    const std::string& world_problem);
// A collective passed its deadline while a live run's ranks gathered (a rank killed or stopped,
// its node lost): another rank sends what it took to rank 0's inbox and returns 3; rank 0 judges
// what the ranks that still answer took, names each node that sent nothing, writes every report
// (complete=false) and returns the exit status. Nothing where no live gather is under way.
std::optional<int> EndGatherPastDeadline(const std::string& problem);
int CaptureVerb(const CommandLine& command, const RunOptions& options, const World& world);
int ListVerb();
int ProfilesVerb();

}  // namespace gpuconform
