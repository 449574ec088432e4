// The MPI collectives probe's file (cluster/mpi-collectives.txt, mpi_collectives_probe.h): one
// table per collective beyond allreduce, each after a marker line "# collective NAME", in
// nccl-tests' format (collectives.h), so the nccl-tests parser reads each one. This is the
// marker, and the reader that splits the file at the markers and parses each table.
// Contract: pure. A table's errors name the file's own line (origin:line).
#pragma once

#include <map>
#include <string>

#include "harness/util/result.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::mpi_sweep {

// "# collective alltoall\n"
std::string CollectiveMarkerLine(const std::string& collective);

// Each collective's table, by name; a collective whose marker is absent (the step ended
// before it) is not in the map. An error: a marker naming no known collective, a collective
// marked twice, or a table the parser refuses (with its line).
using CollectiveTables = std::map<std::string, nccl_tests::BandwidthTable>;
Result<CollectiveTables> ParseCollectiveTables(const std::string& text, const std::string& origin);

}  // namespace gpuconform::mpi_sweep
