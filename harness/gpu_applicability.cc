#include "harness/gpu_applicability.h"

namespace gpuconform {

std::optional<CheckResult> SkipWithoutGpus(const std::string& suite, const std::string& check,
                                           const std::string& node, const Profile& profile) {
  if (!profile.gpu) {
    return Skipped(suite, check, node, "profile " + profile.name + " has no gpu section, so it expects no GPUs");
  }
  if (!profile.gpu->present) {
    return Skipped(suite, check, node,
                   "profile " + profile.name + " has no GPUs (gpu.present: false), so there is nothing to check");
  }
  return std::nullopt;
}

}  // namespace gpuconform
