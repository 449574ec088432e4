// The isolation planner's findings, judged from what its search named and every recorded result:
// a name stands only while no result contradicts it (a test that passed with a named node, pair
// or both sides of a boundary in it; a failure of one node of a pair without the other that no
// other name explains), and a failing test that no finding explains becomes an inconclusive
// finding of its own. Pure: the caller's search state in, findings (with node names) out.
#pragma once

#include <vector>

#include "probes/isolation/isolation_planner.h"
#include "probes/isolation/isolation_search.h"

namespace gpuconform::isolation {

struct SearchOutcome {
  const std::vector<std::string>& names;  // by internal index
  const std::vector<int>& group_of;       // seed group index, -1 for none
  const std::vector<SeedGroup>& seed_groups;
  const std::vector<std::vector<DoneTest>>& history;  // by round
  std::vector<Named> named;                           // what the search named
  std::vector<Named> questions;                       // inconclusive: found, or open when it stopped
};

// Named findings that stand first, then the inconclusive ones.
std::vector<Finding> JudgeFindings(const SearchOutcome& outcome);

}  // namespace gpuconform::isolation
