// Dcgm suite glue: the node's DCGM diagnostic (dcgm::ReadDcgmDiag: the live `dcgmi diag -r
// <level> -j` at the profile's level, or a snapshot's JSON or text), judged per node and skipped
// before anything is read where the profile has no GPUs or no dcgm section; and the
// registration. An active test: never part of `gpuconform health-check`.
#include "harness/core/suite_registry.h"
#include "probes/dcgm/dcgm_facts.h"
#include "probes/dcgm/dcgm_probes.h"
#include "suites/dcgm/dcgm_checks.h"

namespace gpuconform::dcgm_suite {

namespace {

CheckResult JudgeDiagnostics(const SuiteContext& context, const std::string& node) {
  const auto& report = dcgm::ReadDcgmDiag(context.raw, node);
  if (report) return CheckDiagnosticsPass(node, *report);
  const bool tool_missing =
      context.raw.NodeOutput(node, dcgm::DcgmDiagJsonProbe().id).status == ProbeStatus::kToolMissing;
  return DiagnosticsUnread(node, tool_missing, report.error());
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "NVIDIA DCGM's diagnostic (dcgmi diag at the profile's level) passes on every GPU",
      .checks = {{.name = kDiagnosticsPass,
                  .requirement = "every DCGM diagnostic test passes on every GPU; a run whose environment failed is "
                                 "judged as such, never as a GPU defect",
                  .per_node = true,
                  .judge = JudgeDiagnostics,
                  .not_applicable =
                      [](const SuiteContext& c, const std::string&) { return DiagnosticsSkipReason(c.profile); }}},
      .probes = {dcgm::DcgmDiagJsonProbe(), dcgm::DcgmDiagTextProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::dcgm_suite
