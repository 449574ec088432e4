// NvSwitch.NvlinkErrorCountersWithinLimits: every NVLink's error counters (nvidia-smi nvlink -e)
// within their limits, and, with a history, rising no faster than the profile's link_counters
// rate. Replays and CRC errors are corrected by retransmission, so a few since the driver
// loaded are tolerated; a recovery is the link retraining and has no place on an accepted node.
// Pure: the node's report and the profile in, one judgement out; every message names the node,
// the GPU (index and UUID), the link, the counter and its value or rate, and what to do.
#pragma once

#include <cstdint>
#include <string>

#include "harness/core/counter_history.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"

namespace gpuconform::nvswitch {

GPUCONFORM_CHECK_NAME(NvlinkErrorCountersWithinLimits);

// The count limits: at most this many since the driver loaded.
struct NvlinkErrorLimits {
  std::uint64_t crc_errors = 100;
  std::uint64_t replay_errors = 100;
  std::uint64_t recovery_errors = 0;
};
inline constexpr char kNvlinkLimitSource[] =
    "gpuconform's defaults: a recovery retrains the link and has no place on an accepted node (an NVLink's "
    "recovery counter rose for five days before an Xid 149 took its node down: marin-community/marin#9086); "
    "CRC and replay errors are corrected by retransmission, so up to 100 since the driver loaded are tolerated "
    "and their rise between runs is what is judged";

CheckResult CheckNvlinkErrorCounters(const std::string& node, const nvidia_smi::NvlinkErrorReport& report,
                                     const LinkCounterRates& rates = {}, const NodeCounterReadings* previous = nullptr,
                                     const NvlinkErrorLimits& limits = {});

}  // namespace gpuconform::nvswitch
