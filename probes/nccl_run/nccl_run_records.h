// The NCCL run's two files beyond the allreduce table, written by the probe
// (nccl_run_probe.h) and read back by the Collectives suite:
//   cluster/nccl-collectives.txt  one table per collective, each after its "# collective NAME"
//       marker, in exactly the format of cluster/mpi-collectives.txt (collective_tables.h), so
//       one parser reads both; before the first marker, a line
//       "# not-measured collective=NAME reason=\"...\"" for each collective this NCCL lacks
//   cluster/nccl-init.txt  record lines (harness/util/record_lines.h), one per node:
//       node host=gpu-node-01 seconds=4.2            ncclCommInitRank took 4.2 s there
//       node host=gpu-node-02 problem="..."          it did not complete, and why
// Contract: pure. Errors name origin:line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/mpi_sweep/collective_tables.h"

namespace gpuconform::nccl_run {

// "# not-measured collective=alltoall reason=\"libnccl.so.2 lacks ncclSend ...\"\n"
std::string NotMeasuredComment(const std::string& collective, const std::string& reason);

struct NcclCollectiveResults {
  mpi_sweep::CollectiveTables tables;              // each table's tool is "gpuconform NCCL <name>"
  std::map<std::string, std::string> not_measured;  // collective -> why
};
Result<NcclCollectiveResults> ParseNcclCollectives(const std::string& text, const std::string& origin);

struct NodeInit {
  std::string host;
  std::optional<double> seconds;  // none: init did not complete
  std::string problem;
};
std::string FormatNcclInit(const std::vector<NodeInit>& nodes);
Result<std::vector<NodeInit>> ParseNcclInit(const std::string& text, const std::string& origin);

}  // namespace gpuconform::nccl_run
