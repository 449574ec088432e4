// The snapshot files of perftest runs, one per node, HCA and port, named after the tool as the
// run's other per-device files are: nodes/<h>/ib_write_bw-<hca>-<port>.txt and
// nodes/<h>/ib_write_lat-<hca>-<port>.txt ("ib_write_bw-mlx5_0-1.txt"), each the tool's
// stdout and stderr on that node, client or server side. A run needs a peer, so the suite that
// pairs the nodes wires it; live, these answer "absent" saying so.
#pragma once

#include <string>

#include "harness/core/probe.h"

namespace gpuconform::perftest {

ProbeSpec IbWriteBwProbe(const std::string& hca, int port);   // nodes/<h>/ib_write_bw-<hca>-<port>.txt
ProbeSpec IbWriteLatProbe(const std::string& hca, int port);  // nodes/<h>/ib_write_lat-<hca>-<port>.txt

}  // namespace gpuconform::perftest
