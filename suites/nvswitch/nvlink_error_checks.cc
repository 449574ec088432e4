#include "suites/nvswitch/nvlink_error_checks.h"

#include <fmt/format.h>

#include <vector>

#include "harness/util/text_util.h"
#include "suites/nvswitch/nvswitch_checks.h"

namespace gpuconform::nvswitch {

namespace {

std::uint64_t LimitOf(const std::string& counter, const NvlinkErrorLimits& limits) {
  if (counter == nvidia_smi::kNvlinkRecovery) return limits.recovery_errors;
  if (counter == nvidia_smi::kNvlinkReplay) return limits.replay_errors;
  return limits.crc_errors;
}

}  // namespace

CheckResult CheckNvlinkErrorCounters(const std::string& node, const nvidia_smi::NvlinkErrorReport& report,
                                     const LinkCounterRates& rates, const NodeCounterReadings* previous,
                                     const NvlinkErrorLimits& limits) {
  bool any_counter = false;
  for (const auto& gpu : report.gpus) {
    for (const auto& link : gpu.links) any_counter = any_counter || !link.counters.empty();
  }
  if (!any_counter) {
    return Skipped(node + ": " + report.origin +
                   " lists no NVLink error counters (no NVLink, or a GPU that keeps none): AllLinksActive judges the "
                   "links");
  }
  const std::string check = std::string(kSuite) + "." + kNvlinkErrorCountersWithinLimits;
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto& gpu : report.gpus) {
    const std::string gpu_name = fmt::format("GPU {}{}", gpu.index, gpu.uuid.empty() ? "" : " (" + gpu.uuid + ")");
    for (const auto& link : gpu.links) {
      const std::string where = fmt::format("{} NVLink {}", gpu_name, link.link);
      const std::string metric_link = fmt::format("gpu{}/link{}", gpu.index, link.link);
      const std::string entity = node + "/" + metric_link;
      std::vector<std::string> over, recovered, rising;
      for (const auto& [counter, value] : link.counters) {
        // The profile's count limit where it sets one, else gpuconform's default.
        const std::optional<std::uint64_t> profile_limit = rates.CountLimit(counter);
        const std::uint64_t limit = profile_limit.value_or(LimitOf(counter, limits));
        if (value > 0) {
          measurements.push_back({entity + "." + counter, std::to_string(value), kCounterUnit,
                                  "<= " + std::to_string(limit),
                                  profile_limit ? rates.source : std::string(kNvlinkLimitSource)});
        }
        if (value > limit) {
          (counter == nvidia_smi::kNvlinkRecovery ? recovered : over)
              .push_back(fmt::format("{} {} > {}", counter, value, limit));
        }
        const CounterRise rise = JudgeCounterRise(previous, check, metric_link + "." + counter,
                                                  static_cast<double>(value), false, rates.nvlink_errors_per_hour);
        if (auto rate = RiseMeasurement(entity + "." + counter, rise, rates.nvlink_errors_per_hour, rates.source)) {
          measurements.push_back(std::move(*rate));
        }
        if (rise.kind == CounterRise::Kind::kOver) {
          rising.push_back(fmt::format("{} {} ({:.2f}/h > {:g}/h; now {}{})", counter, rise.note, rise.per_hour,
                                       rates.nvlink_errors_per_hour, value,
                                       value <= limit ? fmt::format(", within its count limit {}", limit) : ""));
        }
      }
      if (!recovered.empty()) {
        findings.push_back({"nvlink-recovery", entity,
                            fmt::format("{}: {}: {}: the link retrained since the driver loaded; reseat the GPU "
                                        "(or its baseboard) and check the NVLink connector; RMA the GPU if it "
                                        "recovers again",
                                        node, where, Join(recovered, ", "))});
      }
      if (!over.empty()) {
        findings.push_back({"nvlink-errors", entity,
                            fmt::format("{}: {}: {}: the link's signal is marginal (every error cost a "
                                        "retransmission); reseat the GPU and check the NVLink connector, then watch "
                                        "the rate (run --history)",
                                        node, where, Join(over, ", "))});
      }
      if (!rising.empty()) {
        findings.push_back({"nvlink-error-rate", entity,
                            fmt::format("{}: {}: error counters rising: {}: the link is degrading; drain the node, "
                                        "reseat the GPU and check the NVLink connector before it fails (an Xid 149 "
                                        "or 74 follows)",
                                        node, where, Join(rising, "; "))});
      }
    }
  }
  CheckResult result = findings.empty() ? Passed() : Failed(std::move(findings));
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::nvswitch
