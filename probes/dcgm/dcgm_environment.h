// Whether a dcgmi message says the diagnostic's own environment failed rather than a GPU: the
// host engine unreachable, CUDA unusable on the whole node, or DCGM failing inside itself. A
// check reads such a run as saying nothing about the GPUs' health (inconclusive) or, for CUDA,
// as a node configuration fault; never as a GPU defect to replace. Pure.
#pragma once

#include <optional>
#include <string_view>

namespace gpuconform::dcgm {

enum class EnvironmentFailure {
  kNone,
  // nv-hostengine is not running or not reachable: "Error: Unable to connect to host engine.
  // Host engine connection invalid/disconnected." (dcgmi), DCGM_FR_HOSTENGINE_CONN.
  kHostEngineUnreachable,
  // cuInit failed with 'system not yet initialized' (CUDA_ERROR_SYSTEM_NOT_READY, 802): on an
  // NVSwitch system, Fabric Manager has not set the fabric up; DCGM_FR_CUDA_FM_NOT_INITIALIZED.
  kCudaNotInitialized,
  // DCGM failed inside itself: "There was an internal error during the test" (DCGM_FR_INTERNAL),
  // e.g. a plugin's output it could not parse when a cgroup denied it CPU affinity.
  kDcgmInternalError,
};

const char* EnvironmentFailureName(EnvironmentFailure failure);  // "host-engine-unreachable", ...

// The class of one message, from its DCGM error code where dcgmi gave one, else its words.
EnvironmentFailure ClassifyEnvironment(std::string_view message, std::optional<long long> error_id = std::nullopt);

}  // namespace gpuconform::dcgm
