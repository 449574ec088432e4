// The verbs of the CLI, wired together: load the profile, gather the raw outputs (live
// across the world, or from a snapshot), evaluate every suite, run them as GoogleTest tests,
// print the aggregated terminal report and write the JUnit report on rank 0.
// Contract: returns the exit status of the contract (0/1/2/3/4), the same on every rank.
#pragma once

#include "app/cli.h"
#include "harness/run_options.h"
#include "harness/world.h"

namespace gpuconform {

int RunVerb(const CommandLine& command, const RunOptions& options, const World& world);
// The run rank 0 makes alone when the world could not be formed: this node's probes, the
// controller's view of the others, and Launch.WorldFormed as an error saying why.
int RunVerbAlone(const CommandLine& command, const RunOptions& options, const std::string& world_problem);
int CaptureVerb(const CommandLine& command, const RunOptions& options, const World& world);
int ListVerb();
int ProfilesVerb();

}  // namespace gpuconform
