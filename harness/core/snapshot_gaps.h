// A replay's missing inputs, said once. A snapshot that lacks whole probes (one holding only
// nvidia-smi files, say) leaves every check that reads them unjudged with the same error,
// "the snapshot has no <dir>/nodes/<node>/<file>". The reports say instead, once, which files
// are absent (per node where they are node files) and which checks that leaves unjudged, and
// how to capture what is missing. JUnit and JSON keep one error per case.
// Contract: pure; reads the wording of SnapshotSource's absent-file detail.
#pragma once

#include <string>
#include <vector>

#include "harness/core/verdict.h"

namespace gpuconform {

struct SnapshotGap {
  std::string file;                 // "cluster/scontrol-show-node.txt" or "nodes/*/uname-r.txt"
  std::vector<std::string> nodes;   // the nodes that lack it (node files)
  std::vector<std::string> checks;  // "SlurmGres.GresRegistered", in order, each once
};

// Every absent file the results' findings name, in the order first named.
std::vector<SnapshotGap> FindSnapshotGaps(const std::vector<CheckResult>& results);

// Whether every finding of `result` is an absent snapshot file (an error the gaps say).
bool OnlySnapshotGaps(const CheckResult& result);

// The absent file a finding's message names, relative to the snapshot ("nodes/*/x.txt" for a
// node's file, with its node in `node`); empty when the message names none.
std::string AbsentFileIn(const std::string& message, std::string* node = nullptr);

// One line per gap, then what to do: "cluster/scontrol-show-node.txt: SlurmGres.GresRegistered,
// ... (8 checks)", and "capture them with gpuconform capture --profile P --out DIR (this
// snapshot was captured under profile Q)". `capture_profile` is the manifest's, may be empty.
std::vector<std::string> SnapshotGapLines(const std::vector<SnapshotGap>& gaps, const std::string& run_profile,
                                          const std::string& capture_profile);

// A snapshot captured under one profile and judged under another lacks what the other's
// probes would have recorded (a fabric interface to test, reader counts to time). Every
// error of such a replay then says so, naming both profiles and the capture that would
// record what the check needs. Does nothing when the profiles agree or one is unknown.
void NoteCaptureProfile(std::vector<CheckResult>& results, const std::string& run_profile,
                        const std::string& capture_profile);

}  // namespace gpuconform
