// NvSwitch checks of the CUDA P2P probe (cuda-p2p.txt): every GPU can map every other's
// memory, every pair copies at or above the profile's floor, and no pair is far below the
// node's own median (a pair that is merely slower than its siblings points at one bad link or
// NVSwitch port before any floor is crossed). Pure: the parsed report, already read, + profile
// in, one judgement per node out; judged only where LinkChecksSkipReason (nvswitch_checks.h)
// says they apply. A node with one GPU has no pairs: skipped, saying so.
#pragma once

#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::cuda_p2p;

// A pair below this fraction of the node's median (per direction mode) is named.
inline constexpr double kUniformMinFractionOfMedian = 0.8;

// cudaDeviceCanAccessPeer is 1 for every ordered pair.
GPUCONFORM_CHECK_NAME(PeerAccessAllPairs);
CheckResult CheckPeerAccessAllPairs(const std::string& node, const P2pReport& report, const Profile& profile);

// Every ordered pair with peer access copies at >= nvlink.p2p_bandwidth_floor_gb_per_s one way.
inline constexpr char kP2pBandwidthAtFloor[] = "P2pBandwidthAtFloor";
CheckResult CheckP2pBandwidthAtFloor(const std::string& node, const P2pReport& report, const Profile& profile);

// Every measured pair, one way and both ways, is >= kUniformMinFractionOfMedian x the node's
// median for that mode. Pairs already under the floor are left to P2pBandwidthAtFloor, so one
// slow pair is named once.
inline constexpr char kP2pBandwidthUniform[] = "P2pBandwidthUniform";
CheckResult CheckP2pBandwidthUniform(const std::string& node, const P2pReport& report, const Profile& profile);

}  // namespace gpuconform::nvswitch
