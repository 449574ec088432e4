// The snapshot files of a node's nvbandwidth run: nodes/<h>/nvbandwidth.json (`nvbandwidth -j`)
// or nodes/<h>/nvbandwidth.txt (its text output). Which testcases to run is the suite's choice,
// so no live run is wired yet; live, these answer "absent" saying so.
#pragma once

#include "harness/probe.h"

namespace gpuconform::nvbandwidth {

const ProbeSpec& NvbandwidthJsonProbe();  // nodes/<h>/nvbandwidth.json
const ProbeSpec& NvbandwidthTextProbe();  // nodes/<h>/nvbandwidth.txt

}  // namespace gpuconform::nvbandwidth
