// cluster/perftest-rail-pairs.txt: ib_write_bw between pairs of nodes on each rail (HCA and
// port), as the pairing pass recorded them, in record lines (harness/util/record_lines.h). v1:
//   # perftest-rail-pairs v1
//   pair pass=1 client=node-01 server=node-02 hca=mlx5_0 port=1 bw_average_gbit_per_s=392.41
//   pair pass=2 client=node-05 server=node-01 hca=mlx5_3 port=1 error="Couldn't connect to node-01:18515"
//   pair pass=1 client=node-01 server=node-02 hca=mlx5_0 port=1 bw_average_gbit_per_s=392.41 lat_average_us=1.21
// Each pair may also carry ib_write_lat's average latency between the same two nodes on the same
// rail (lat_average_us=), or its error (lat_error=); older files carry neither.
// A node that took no part is an unpaired line (older files hold a "# not paired:" comment):
//   unpaired node=node-03 status=missing rails=mlx5_0:1,mlx5_1:1 why="ib_write_bw is not installed ..."
//   unpaired node=node-07 status=failed why="no RDMA device, in perftest's own words: ..."
// status=missing: ib_write_bw is not on the node's PATH (rails= lists the node's active ports,
// which were not measured); status=failed: the node has no active RDMA port.
// Pass 1 pairs the nodes in a ring on each rail; pass 2 measures each node whose every pass-1
// pair on a rail was slow once more with a node that passed (probes/mpi_sweep/pair_results.h's
// ConfirmationPairs), so that the slow node, not its ring neighbours, is named. Each pair's
// number is the client's ib_write_bw average (probes/perftest/perftest_parse.h), or perftest's
// own error line. Pure: text in, pairs out, or an error naming origin:line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::perftest {

struct RailPair {
  int pass = 1;
  std::string client;
  std::string server;
  std::string hca;  // "mlx5_3"
  int port = 1;
  std::optional<double> bw_average_gbit_per_s;
  std::string error;  // perftest's own words where the pair did not complete
  std::optional<double> lat_average_us;  // ib_write_lat's t_avg, where it was measured
  std::string lat_error;                 // ib_write_lat's own words where it did not complete
  int line = 0;

  std::string Rail() const { return hca + " port " + std::to_string(port); }
};

struct UnpairedNode {
  std::string node;
  std::string status;              // "missing" or "failed"
  std::vector<std::string> rails;  // "mlx5_0:1": the active ports it has, where the pass listed them
  std::string why;
  int line = 0;

  bool ToolMissing() const { return status == "missing"; }
};

struct RailPairsFile {
  std::vector<RailPair> pairs;  // never empty
  std::vector<UnpairedNode> unpaired;
};

Result<RailPairsFile> ParseRailPairs(const std::string& text, const std::string& origin);

}  // namespace gpuconform::perftest
