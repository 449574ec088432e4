#include "harness/core/gpu_applicability.h"

namespace gpuconform {

std::optional<std::string> GpuSkipReason(const Profile& profile, std::string_view consequence) {
  if (!profile.gpu) return "profile " + profile.name + " has no gpu section (it expects no GPUs), so " + std::string(consequence);
  if (!profile.gpu->present) {
    return "profile " + profile.name + " has no GPUs (gpu.present: false), so " + std::string(consequence);
  }
  return std::nullopt;
}

std::optional<CheckResult> SkipWithoutGpus(const std::string& suite, const std::string& check,
                                           const std::string& node, const Profile& profile) {
  if (auto reason = GpuSkipReason(profile, "there is nothing to check")) return Skipped(suite, check, node, *reason);
  return std::nullopt;
}

}  // namespace gpuconform
