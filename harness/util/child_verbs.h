// Hidden child verbs: processes that a probe starts from this same binary (for example
// `gpuconform __checkpoint-writer`, `gpuconform __nccl-worker`). Each probe registers its
// verb at static-init time with a ChildVerbRegistration, so main() dispatches to it
// without knowing any probe. A child verb runs before the command line is parsed and
// before any world (MPI) exists.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuconform {

using ChildVerbMain = int (*)(const std::vector<std::string>& args);

struct ChildVerbRegistration {
  ChildVerbRegistration(const char* verb, ChildVerbMain main);
};

// The registered entry point of `verb`, or nullptr when no probe registered it.
ChildVerbMain FindChildVerb(std::string_view verb);

}  // namespace gpuconform
