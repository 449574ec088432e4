// Which ib_write_bw pairs the pairing pass measures, and when. Pass 1: on each rail (HCA and
// port), the nodes whose port is active form a ring (each node the client of the next). Pass 2:
// a node every one of whose pass-1 pairs on a rail was slow is measured once more with a node of
// that rail that passed (probes/mpi_sweep/pair_results.h's ConfirmationPairs), so the slow node
// is named rather than its ring neighbours; a pair that failed before it measured the rail
// (pair_error.h) counts for neither of its nodes. Pairs run in rounds: a node is in at most one pair
// per round, and rails run one after another, so no two measurements share a port, an HCA or a
// PCIe switch. Pure and deterministic, so every rank computes the same plan.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

struct Rail {
  std::string hca;  // "mlx5_0"
  int port = 1;

  bool operator<(const Rail& other) const { return hca != other.hca ? hca < other.hca : port < other.port; }
  bool operator==(const Rail& other) const { return hca == other.hca && port == other.port; }
};

struct PlannedPair {
  int pass = 1;
  std::string client;
  std::string server;
  Rail rail;
};

using Round = std::vector<PlannedPair>;

// The active rails of each node, nodes in the run's order.
using RailsByNode = std::vector<std::pair<std::string, std::vector<Rail>>>;

// Pass 1's rounds. A rail on fewer than two nodes has no pair.
std::vector<Round> RingRounds(const RailsByNode& nodes);

// Pass 2's rounds, from pass 1's measured pairs and the floor.
std::vector<Round> ConfirmationRounds(const std::vector<RailPair>& first_pass, double floor_gbit_per_s);

}  // namespace gpuconform::perftest
