// Merging results documents: one report for a fleet judged by many runs (a Slurm job array with
// one task per partition or rack, or runs on different days).
// Contract: pure. Runs are taken oldest first by their end time. Each case of a node comes from
// the newest run that has the case and judged the node (each node's latest result wins, case by
// case, so a later run with another --filter replaces only what it checked); where an older run
// gave the case another verdict, the merge lists it as a conflict. Cluster-wide cases
// (node empty) are one per check: the worst verdict among the runs, with every run's findings,
// so a partition that failed its allreduce floor is not hidden by one that passed.
#pragma once

#include <string>
#include <vector>

#include "reports/results_reader.h"

namespace gpuconform {

struct MergeConflict {
  std::string test_name;      // "SlurmGres.GresMatchesHardware/node5"
  std::string other_verdict;  // in a run whose verdict was not kept
  std::string other_run;      // its origin (file) and run id
  std::string kept_verdict;   // the one kept
  std::string kept_run;
};

struct MergedResults {
  Run document;  // run.mode "merge of N runs"; run.run_id is `run_id`
  std::vector<MergeConflict> conflicts;
};

struct MergeInput {
  std::string origin;  // the file, for messages
  Run document;
};

MergedResults MergeResults(std::vector<MergeInput> inputs, const std::string& run_id);

// One line per conflict, for the terminal: "node5 SlurmGres.GresMatchesHardware: fail in a.json (run 1a2b3c4d),
// pass in b.json (run 5e6f7a8b), which is kept".
std::string RenderConflicts(const std::vector<MergeConflict>& conflicts);

}  // namespace gpuconform
