// What a terminated run says of the checks it could not finish (harness/termination.h). A run
// that is told to stop judges what it took; the errors that follow from what it did not take
// are the termination's, not the tools': they carry the code "run-terminated" (tooling), and
// say by which signal and when.
// Contract: pure. An error is the termination's when its message carries kTerminatedMarker (an
// output not taken, a node whose outputs did not arrive), or when its suite reads a probe whose
// output was not taken: that suite's own conclusions ("no node reported ...") follow from the
// cut. Such an error keeps its message, with the notice added where it does not say it already.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/suite_registry.h"
#include "harness/verdict.h"

namespace gpuconform {

// The probes whose output, on any node or for the cluster, was not taken before the end.
std::set<std::string> ProbesNotTaken(const ClusterRaw& raw);

// The suites, of `suites`, that read any of `not_taken`.
std::set<std::string> SuitesCutShort(const std::vector<const SuiteDefinition*>& suites,
                                     const std::set<std::string>& not_taken);

void MarkTerminatedCases(std::vector<CheckResult>& cases, const std::set<std::string>& cut_suites,
                         const std::string& notice);

}  // namespace gpuconform
