// In-process live probes: facts a library call answers better than a command line.
// Contract: each returns a RawOutput like a command would (kToolMissing when the library
// is not on the node); the binary never links NCCL, so it runs on nodes without GPUs.
#pragma once

#include "harness/live_source.h"

namespace gpuconform {

void AddBuiltinProbes(LiveSource& live, const std::string& hostname);

}  // namespace gpuconform
