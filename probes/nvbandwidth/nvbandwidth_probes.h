// The snapshot files of a node's nvbandwidth run: nodes/<h>/nvbandwidth.json (`nvbandwidth -j`)
// or nodes/<h>/nvbandwidth.txt (its text output). Live, `nvbandwidth -j` runs every testcase
// (an active test: minutes of copies over PCIe and NVLink, never part of a health check); the
// text form is read from snapshots only and answers "absent" live, saying so.
#pragma once

#include <optional>

#include "harness/core/probe.h"
#include "harness/core/profile.h"

namespace gpuconform::nvbandwidth {

const ProbeSpec& NvbandwidthJsonProbe();  // nodes/<h>/nvbandwidth.json
const ProbeSpec& NvbandwidthTextProbe();  // nodes/<h>/nvbandwidth.txt

// Every testcase of nvbandwidth on an 8-GPU node takes a minute or two; five minutes leave room
// for a loaded host.
inline constexpr int kNvbandwidthTimeoutMs = 5 * 60 * 1000;

// The live run under `profile`: `<nvbandwidth.binary> -j`. Without a profile (a capture that
// names none): nvbandwidth on PATH. A profile without an nvbandwidth section: nullopt.
std::optional<ProbeCommand> NvbandwidthCommand(const Profile* profile);

}  // namespace gpuconform::nvbandwidth
