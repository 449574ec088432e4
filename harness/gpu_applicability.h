// GPU applicability: whether a GPU check applies under a profile. One rule for every suite
// that judges GPUs: a profile without a gpu section, or with gpu.present: false, expects no
// GPUs, so the check is skipped with that reason. Pure.
#pragma once

#include <optional>
#include <string>

#include "harness/profile.h"
#include "harness/verdict.h"

namespace gpuconform {

// The skip a GPU check gets where the profile has no GPUs (or does not say), else nullopt.
std::optional<CheckResult> SkipWithoutGpus(const std::string& suite, const std::string& check,
                                           const std::string& node, const Profile& profile);

}  // namespace gpuconform
