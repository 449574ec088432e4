// The snapshot files this folder's parsers read, one per node. Their names are part of the
// snapshot layout (architecture §2): nodes/<h>/dcgmi-diag.json (`dcgmi diag -r <level> -j`),
// nodes/<h>/dcgmi-diag.txt (the same without -j) and nodes/<h>/dcgmi-nvlink-s.txt
// (`dcgmi nvlink -s`). The live runs are not wired yet (a diag takes minutes and its level is
// the suite's choice): live, these answer "absent" saying so.
#pragma once

#include "harness/probe.h"

namespace gpuconform::dcgm {

const ProbeSpec& DcgmDiagJsonProbe();   // nodes/<h>/dcgmi-diag.json
const ProbeSpec& DcgmDiagTextProbe();   // nodes/<h>/dcgmi-diag.txt
const ProbeSpec& DcgmNvlinkStatusProbe();  // nodes/<h>/dcgmi-nvlink-s.txt

}  // namespace gpuconform::dcgm
