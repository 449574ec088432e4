// The verbs that read results documents (run --json FILE): `gpuconform baseline` writes a
// baseline from one or more runs, `gpuconform diff OLD NEW` prints what changed between two,
// `gpuconform report` renders one (or a history database's newest run) as HTML, and
// `gpuconform history` lists a history database's runs and trends, and `gpuconform merge`
// combines several runs' documents into one (reports/results_merge.h).
// Contract: they read files only (no world, no probes). diff's exit status is the new run's,
// judged with the old one as its baseline (0/1/3/4); 2 when a file cannot be read or parsed,
// with a message naming it.
#pragma once

#include "app/cli.h"

namespace gpuconform {

int BaselineVerb(const CommandLine& command);
int DiffVerb(const CommandLine& command);
int ReportVerb(const CommandLine& command);
int HistoryVerb(const CommandLine& command);
int MergeVerb(const CommandLine& command);

}  // namespace gpuconform
