// A node probe read from snapshots only: a tool whose live run a suite has not wired yet (it
// needs a peer, takes minutes, or its options are the suite's choice). Live, it answers
// "absent", naming the command, so a check says why it has no fact rather than failing.
#pragma once

#include <string>
#include <utility>

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform {

inline ProbeSpec SnapshotOnlyProbe(std::string id, std::string file, std::string command) {
  return BuiltinProbe(std::move(id), ProbeScope::kNode, std::move(file), [command](const LiveContext& context) {
    return RawOutput{ProbeStatus::kAbsent, "", context.host + ": " + command,
                     context.host + ": " + command + " is read from snapshots only; no live run is wired"};
  });
}

}  // namespace gpuconform
