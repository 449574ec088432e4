// What a run that could not take every output says of the checks that read them: a run that
// was terminated (harness/core/termination.h) or whose ranks never formed one world judges what it
// took, and the errors that follow from what it did not take are that cause's, not the
// tools': they carry the cause's code ("run-terminated", "world-not-formed") and say why.
// Contract: pure. An error is the cause's when its message carries the cause's marker (an
// output not taken, a node whose outputs did not arrive), or when it is a tooling error of a
// suite that reads a probe whose output was not taken: that suite's own conclusions ("no node
// reported ...") follow from the cut. Such an error keeps its message, with the cause's notice
// added where it does not say it already.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/reason_code.h"
#include "harness/core/suite_registry.h"
#include "harness/core/verdict.h"
#include "harness/world/gather.h"

namespace gpuconform {

// Why outputs were not taken.
struct CutShort {
  std::string marker;  // text every output not taken carries in its detail
  ReasonCode code;     // the code of the errors it caused
  std::string notice;  // added to an error that does not say it: "the run was terminated by SIGTERM at T"
};

// The probes whose output, on any node or for the cluster, carries `marker`: not taken.
std::set<std::string> ProbesNotTaken(const ClusterRaw& raw, const std::string& marker);

// The suites, of `suites`, that read any of `not_taken`.
std::set<std::string> SuitesCutShort(const std::vector<const SuiteDefinition*>& suites,
                                     const std::set<std::string>& not_taken);

void MarkCutCases(std::vector<CheckResult>& cases, const std::set<std::string>& cut_suites, const CutShort& cause);

// The nodes of a run collected after a deadline (GatherProgress::CollectWhatWeHave, which lists
// every node of the step) that sent nothing: not among the ranks whose part arrived. Sorted.
std::vector<std::string> NodesThatSentNothing(const GatheredRun& run);

}  // namespace gpuconform
