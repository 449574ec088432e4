// A pair's error= (rail_pairs_parse.h) as the pairing pass writes it and the checks read it:
// perftest's own first error line (perftest_errors.h), or the pass's words where perftest said
// nothing usable (killed at its deadline, not installed). And which of those errors say
// something about the rail: only those may make a pair slow; the others mean the pair was not
// measured, which is the tooling's problem, never the rail's. Pure.
#pragma once

#include <string>
#include <string_view>

#include "probes/perftest/rail_pairs_parse.h"

namespace gpuconform::perftest {

// "ib_write_bw did not finish within 20 s and was killed"
std::string ToolKilledAtDeadline(const std::string& tool, int seconds);
// "ib_write_bw is not installed on node-03"
std::string ToolNotInstalled(const std::string& tool, const std::string& node);

// The error says the pair failed before perftest measured the rail: perftest did not reach its
// peer over the management network, could not set up its GPU buffers, was killed at its
// deadline, or is missing. False for no error, and for an error that may be the rail's.
bool FailedBeforeMeasuring(std::string_view error);

// A pair whose bandwidth run failed before it measured the rail: neither slow nor healthy.
bool NotMeasured(const RailPair& pair);

}  // namespace gpuconform::perftest
