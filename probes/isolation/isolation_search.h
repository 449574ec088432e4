// What the isolation planner's search keeps, shared by its planning and by the judging of its
// findings (isolation_findings.h); not for callers of the planner. Node sets are internal node
// indices, ascending: the planner's internal order puts each seed group's nodes together (in the
// group's order) and then the ungrouped nodes in allocation order, so cutting a set into
// contiguous runs follows the groups.
#pragma once

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "probes/isolation/isolation_planner.h"

namespace gpuconform::isolation {

using Nodes = std::vector<int>;

struct TestId {
  int round = 0;  // 1-based
  int index = 0;
};

struct DoneTest {
  Nodes nodes;
  std::string purpose;
  TestResult result;
};

// A finding in internal indices, with the tests that show it.
struct Named {
  FindingKind kind = FindingKind::kInconclusive;
  Nodes nodes;
  Nodes side_a, side_b;  // boundary
  std::vector<TestId> evidence;
  std::string detail;
};

inline bool Bad(Outcome outcome) { return outcome != Outcome::kPass; }

inline Nodes Union(const Nodes& a, const Nodes& b) {
  Nodes out;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

inline Nodes UnionOf(const std::vector<Nodes>& parts, std::size_t from, std::size_t to) {
  Nodes out;
  for (std::size_t i = from; i < to; ++i) out = Union(out, parts[i]);
  return out;
}

inline bool Contains(const Nodes& set, int node) { return std::binary_search(set.begin(), set.end(), node); }

inline bool Intersects(const Nodes& a, const Nodes& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j) return true;
    if (*i < *j) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

}  // namespace gpuconform::isolation
