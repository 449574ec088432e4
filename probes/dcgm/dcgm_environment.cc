#include "probes/dcgm/dcgm_environment.h"

#include "harness/util/text_util.h"
#include "probes/dcgm/dcgm_error_codes.h"

namespace gpuconform::dcgm {

const char* EnvironmentFailureName(EnvironmentFailure failure) {
  switch (failure) {
    case EnvironmentFailure::kNone: return "none";
    case EnvironmentFailure::kHostEngineUnreachable: return "host-engine-unreachable";
    case EnvironmentFailure::kCudaNotInitialized: return "cuda-not-initialized";
    case EnvironmentFailure::kDcgmInternalError: return "dcgm-internal-error";
  }
  return "none";
}

EnvironmentFailure ClassifyEnvironment(std::string_view message, std::optional<long long> error_id) {
  if (error_id == kErrorHostEngineConnection) return EnvironmentFailure::kHostEngineUnreachable;
  if (error_id == kErrorCudaFmNotInitialized) return EnvironmentFailure::kCudaNotInitialized;
  if (error_id == kErrorInternal) return EnvironmentFailure::kDcgmInternalError;
  // The words, for the text table (no codes) and for codes DCGM reuses for these messages
  // (a cuInit failure comes as DCGM_FR_CUDA_API with the CUDA error's own text).
  const std::string lower = Lowercase(message);
  if (Contains(lower, "unable to connect to host engine") || Contains(lower, "host engine connection invalid") ||
      Contains(lower, "could not connect to the host engine") ||
      Contains(lower, "unable to establish a connection to the specified host")) {
    return EnvironmentFailure::kHostEngineUnreachable;
  }
  if (Contains(lower, "system not yet initialized") || Contains(lower, "cuda_error_system_not_ready")) {
    return EnvironmentFailure::kCudaNotInitialized;
  }
  if (Contains(lower, "there was an internal error during the test") || Contains(lower, "dcgm_fr_internal")) {
    return EnvironmentFailure::kDcgmInternalError;
  }
  return EnvironmentFailure::kNone;
}

}  // namespace gpuconform::dcgm
