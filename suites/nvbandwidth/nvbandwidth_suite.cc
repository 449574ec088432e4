// Nvbandwidth suite glue: the node's nvbandwidth run (nvbandwidth::ReadNvbandwidth: the live
// `nvbandwidth -j`, or a snapshot's JSON or text), judged per node against the profile's floors
// and skipped before anything is read where the profile has no GPUs or no nvbandwidth section;
// and the registration. An active test: never part of `gpuconform health-check`.
#include "harness/core/suite_registry.h"
#include "probes/nvbandwidth/nvbandwidth_facts.h"
#include "probes/nvbandwidth/nvbandwidth_probes.h"
#include "suites/nvbandwidth/nvbandwidth_checks.h"

namespace gpuconform::nvbandwidth_suite {

namespace {

CheckResult JudgeCopies(const SuiteContext& context, const std::string& node) {
  const auto& report = nvbandwidth::ReadNvbandwidth(context.raw, node);
  if (report) return CheckCopyBandwidthAtFloors(node, *report, *context.profile.Get<nvbandwidth::NvbandwidthExpectation>());
  const bool tool_missing =
      context.raw.NodeOutput(node, nvbandwidth::NvbandwidthJsonProbe().id).status == ProbeStatus::kToolMissing;
  return NvbandwidthUnread(node, tool_missing, report.error());
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "nvbandwidth's host-device and device-device copy-engine bandwidths at the profile's floors",
      .checks = {{.name = kCopyBandwidthAtFloors,
                  .requirement = "every GPU's host-to-device and device-to-host copy, and every GPU pair's "
                                 "device-to-device copy, at or above the profile's floor",
                  .per_node = true,
                  .judge = JudgeCopies,
                  .not_applicable =
                      [](const SuiteContext& c, const std::string&) { return CopyBandwidthSkipReason(c.profile); }}},
      .probes = {nvbandwidth::NvbandwidthJsonProbe(), nvbandwidth::NvbandwidthTextProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nvbandwidth_suite
