// The snapshot files this folder's parsers read, one per node. Their names are part of the
// snapshot layout (architecture §2): nodes/<h>/dcgmi-diag.json (`dcgmi diag -r <level> -j`),
// nodes/<h>/dcgmi-diag.txt (the same without -j) and nodes/<h>/dcgmi-nvlink-s.txt
// (`dcgmi nvlink -s`). Live, the JSON form runs at the profile's dcgm.level (an active test:
// seconds to hours of GPU load, never part of a health check); the text form and the NVLink
// states are read from snapshots only and answer "absent" live, saying so.
#pragma once

#include <optional>

#include "harness/core/probe.h"
#include "harness/core/profile.h"

namespace gpuconform::dcgm {

const ProbeSpec& DcgmDiagJsonProbe();   // nodes/<h>/dcgmi-diag.json
const ProbeSpec& DcgmDiagTextProbe();   // nodes/<h>/dcgmi-diag.txt
const ProbeSpec& DcgmNvlinkStatusProbe();  // nodes/<h>/dcgmi-nvlink-s.txt

// How long `dcgmi diag -r <level>` may run before it is killed, in milliseconds: about twice
// and a half the duration DCGM's dcgmi diag reference gives each level (1: seconds, 2: about
// two minutes, 3: about 15 minutes), so a loaded node still finishes: 2, 5 and 40 minutes. Level
// 4 has no stated duration ("extended, longer-running"): 90 minutes.
int DiagTimeoutMs(int level);

// The live diagnostic under `profile`: `<dcgm.dcgmi> diag -r <level> -j [-c <parameters_file>]`
// with DiagTimeoutMs(level). Without a profile (a capture that names none): level 1, the
// quick one. A profile without a dcgm section: nullopt, nothing to run.
std::optional<ProbeCommand> DcgmDiagCommand(const Profile* profile);

}  // namespace gpuconform::dcgm
