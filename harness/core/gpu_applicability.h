// GPU applicability: whether a GPU check applies under a profile. One rule for every suite
// that judges GPUs (NvSwitch, Pcie, InfiniBand, NcclTopology, NcclTransport, Software): a
// profile without a gpu section, or with gpu.present: false, expects no GPUs, so the check
// is skipped with that reason. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"

namespace gpuconform {

// The skip a GPU check gets where the profile has no GPUs (or does not say), else nullopt.
// Why GPU checks do not apply under `profile`, ending in what follows for the caller
// ("so <consequence>"), or nullopt when the profile expects GPUs.
std::optional<std::string> GpuSkipReason(const Profile& profile, std::string_view consequence);

// The skip a GPU check gets where the profile expects no GPUs ("there is nothing to check").
std::optional<CheckResult> SkipWithoutGpus(const std::string& suite, const std::string& check,
                                           const std::string& node, const Profile& profile);

}  // namespace gpuconform
