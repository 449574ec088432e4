// Hidden child verbs: processes that a probe starts from this same binary (for example
// `gpuconform __checkpoint-writer`, `gpuconform __nccl-worker`). Each probe registers its
// verb at static-init time with a ChildVerbRegistration, so main() dispatches to it
// without knowing any probe. A child verb runs before the command line is parsed and
// before any world (MPI) exists.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/cli.h"
#include "harness/run_options.h"

namespace gpuconform {

using ChildVerbMain = int (*)(const std::vector<std::string>& args);

struct ChildVerbRegistration {
  ChildVerbRegistration(const char* verb, ChildVerbMain main);
};

// The registered entry point of `verb`, or nullptr when no probe registered it.
ChildVerbMain FindChildVerb(std::string_view verb);

// A public verb that lives beside the tool it drives, outside the harness (`launch` runs
// srun and reads srun's errors, in probes/slurm). Parsed by the command line as usual; it
// runs before any world (MPI) exists.
using VerbMain = int (*)(const CommandLine& command, const RunOptions& options);

struct VerbRegistration {
  VerbRegistration(Verb verb, VerbMain main);
};

// The registered entry point of `verb`, or nullptr.
VerbMain FindVerb(Verb verb);

}  // namespace gpuconform
