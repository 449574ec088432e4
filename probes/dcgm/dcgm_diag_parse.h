// `dcgmi diag -r <level>` results (NVIDIA DCGM), in the forms dcgmi prints them:
//   - JSON (-j), DCGM 4.x: {"DCGM Diagnostic": {"test_categories": [{"category", "tests": [{"name",
//     "results": [{"entity_group": "GPU", "entity_id": 0, "status", "warnings": [{"warning",
//     "error_id"}], "info": [...]}], "test_summary": {...}}]}]}, "entity_groups": [...],
//     "metadata": {"version", "Driver Version Detected"}};
//   - JSON, DCGM 2.x/3.x: {"DCGM GPU Diagnostic": {"test_categories": ...}, "version", "Driver
//     Version Detected", "GPU Device IDs"}, each result naming its GPU as "gpu_id" (3.x) or
//     "gpu_ids" (2.x), "info" one string;
//   - JSON of a run that did not start: {"DCGM Diagnostic": {"version", "runtime_error"}};
//   - the boxed text table, DCGM 3.x ("| GPU Memory | Fail - All", "Fail - GPUs: 0, 1", then
//     "| Warning | GPU 0 ..." rows) and 4.x ("| memory | Fail" then "| | GPU0: Fail" and
//     "| Warning: GPU0 | ..." rows); messages are wrapped at 45 characters and put back together
//     here byte for byte. A shell transcript's command line ("dcgmi diag -r 2 ...") gives the
//     level; "Error: ..." lines outside the table (no host engine) are kept as runtime errors.
// Messages that blame the run rather than a GPU (dcgm_environment.h) are listed apart in
// environment_failures with the test and the message as evidence. Pure; errors name
// origin:line; garbage is an error, never a crash.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/dcgm/dcgm_environment.h"

namespace gpuconform::dcgm {

enum class DiagState { kPass, kFail, kWarn, kSkip, kNotRun };

const char* DiagStateName(DiagState state);  // "pass", "fail", "warn", "skip", "not-run"

struct DiagMessage {
  std::string text;                   // as DCGM wrote it, unwrapped
  std::optional<long long> error_id;  // DCGM_FR_* number (JSON only)
  std::string error_name;             // "DCGM_FR_INTERNAL" where error_id is a known code
  std::optional<int> gpu;             // the GPU it is about: its result's, or "GPU 3 ..." in the text
  EnvironmentFailure environment = EnvironmentFailure::kNone;
};

// One entity's result of one test; entity_group is "GPU" for GPUs (4.x also has "CPU", ...).
struct EntityResult {
  std::string entity_group = "GPU";
  int entity_id = 0;
  DiagState state = DiagState::kPass;
  std::vector<DiagMessage> warnings;
  std::vector<std::string> info;
};

struct DiagTest {
  std::string name;      // as dcgmi prints it: "GPU Memory" (3.x), "memory" (4.x)
  std::string category;  // "Deployment", "Integration", "Hardware", "Stress" (or 4.x's own)
  // The test's own state: its table row ("Fail", "Pass - All"), a 4.x test_summary, or a
  // result naming no entity (deployment tests). nullopt where dcgmi gave only per-GPU results.
  std::optional<DiagState> overall;
  bool all_gpus = false;  // 3.x "<State> - All": every GPU of the run has the overall state
  std::vector<EntityResult> entities;  // GPUs listed by number, in order given
  std::vector<DiagMessage> warnings;   // not tied to an entity, or tied by "GPU n" in the text only
  std::vector<std::string> info;

  // The GPU's state in this test: its own result, else the overall one where it covers all
  // GPUs; nullopt where the output does not say.
  std::optional<DiagState> GpuState(int gpu) const;
};

struct EnvironmentEvidence {
  EnvironmentFailure failure = EnvironmentFailure::kNone;
  std::string test;      // the test whose message it is; empty for a runtime error
  std::optional<int> gpu;
  std::string evidence;  // the message, verbatim
};

struct DcgmDiagReport {
  std::string origin;
  std::string format;  // "json" or "text"
  std::string command;  // the transcript's dcgmi command line, where the text has one
  std::optional<int> level;  // 1-4, from the command line ("-r 2", "--run long")
  std::string dcgm_version;    // "3.3.8"
  std::string driver_version;  // "560.35.03"
  std::vector<std::string> gpu_device_ids;  // PCI device ids, one per GPU: "2330"
  std::vector<DiagTest> tests;              // in the order printed
  std::vector<std::string> runtime_errors;  // the run did not complete: dcgmi's own error lines
  // Messages saying the run's environment failed, not a GPU: where non-empty, the results do
  // not judge the GPUs (see dcgm_environment.h for which does what).
  std::vector<EnvironmentEvidence> environment_failures;
  // The text table reached its closing border (a cut-off table may hide failures); JSON is
  // complete once it parses.
  bool complete = false;

  const DiagTest* FindTest(const std::string& name) const;
};

// JSON when the first character is '{', else the text table (or dcgmi's error lines).
Result<DcgmDiagReport> ParseDcgmDiag(const std::string& text, const std::string& origin);

}  // namespace gpuconform::dcgm
