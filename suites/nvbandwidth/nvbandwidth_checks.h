// Nvbandwidth suite checks: NVIDIA's nvbandwidth copy-engine bandwidths held to the profile's
// floors, so a GPU whose PCIe link trained down or a GPU pair that lost NVLinks is named by the
// copies that suffer from it. Pure: the node's parsed nvbandwidth run (nvbandwidth::
// ReadNvbandwidth) + profile in, one judgement per node out.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nvbandwidth/nvbandwidth_parse.h"
#include "probes/nvbandwidth/nvbandwidth_profile.h"

namespace gpuconform::nvbandwidth_suite {

inline constexpr char kSuite[] = "Nvbandwidth";
GPUCONFORM_CHECK_NAME(CopyBandwidthAtFloors);

// The testcases judged, as nvbandwidth names them. Device-to-device copies are judged from the
// write testcase, else the read one.
inline constexpr char kHostToDevice[] = "host_to_device_memcpy_ce";
inline constexpr char kDeviceToHost[] = "device_to_host_memcpy_ce";
inline constexpr char kDeviceToDeviceWrite[] = "device_to_device_memcpy_write_ce";
inline constexpr char kDeviceToDeviceRead[] = "device_to_device_memcpy_read_ce";

// Why CopyBandwidthAtFloors does not apply: the profile expects no GPUs, or has no nvbandwidth
// section. nullopt when it applies.
std::optional<std::string> CopyBandwidthSkipReason(const Profile& profile);

// Each GPU's host-to-device and device-to-host copy, and each GPU pair's device-to-device copy,
// at or above its floor (a floor of 0 is recorded, not judged). A low value is a finding
// (copy-bandwidth-low) naming the GPU or the pair (GPU i -> GPU j), observed vs floor and the
// likely cause: a downtrained PCIe link for host copies, an NVLink down for a pair. The lowest
// value of each testcase is a measurement "<node>.<testcase>_min" in GB/s against its floor; a
// testcase the run does not hold is recorded as such, not judged. A run that stopped on a fatal
// error, or holds none of the testcases, is an error (not-measured).
CheckResult CheckCopyBandwidthAtFloors(const std::string& node, const nvbandwidth::NvbandwidthReport& report,
                                       const nvbandwidth::NvbandwidthExpectation& floors);

// The judgement where the run could not be read: nvbandwidth not installed under a GPU profile
// is tool-missing naming the node and where operators get it; anything else is unavailable.
CheckResult NvbandwidthUnread(const std::string& node, bool tool_missing, const std::string& problem);

}  // namespace gpuconform::nvbandwidth_suite
