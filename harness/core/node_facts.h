// NodeFacts<T>: one fact read on every node of a cluster-wide check, split into the nodes
// where it was read and, for the rest, why it could not be. A cluster check judges the facts
// it has and reports the unread nodes as errors of their own, so it never handles a failed
// read itself. Built by the suite's glue from the facts layer's typed readers.
#pragma once

#include <map>
#include <string>

#include "harness/util/result.h"

namespace gpuconform {

template <typename T>
struct NodeFacts {
  std::map<std::string, T> read;              // node -> the fact
  std::map<std::string, std::string> unread;  // node -> the read's error message (names node and file)

  // Files one node's read: its fact, or why there is none.
  void Add(const std::string& node, Result<T> fact) {
    if (fact) {
      read.emplace(node, std::move(fact).value());
    } else {
      unread.emplace(node, fact.error());
    }
  }
};

}  // namespace gpuconform
