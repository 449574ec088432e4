// DCGM's diagnostic error codes (dcgmError_t in DCGM's dcgm_errors.h): the number dcgmi diag -j
// gives as a warning's "error_id", and its DCGM_FR_* name. The text table prints no codes, only
// the messages. Pure.
#pragma once

#include <string>

namespace gpuconform::dcgm {

// The codes a check names: the ones that mean the run itself, not a GPU, went wrong.
inline constexpr int kErrorHostEngineConnection = 26;  // DCGM_FR_HOSTENGINE_CONN
inline constexpr int kErrorInternal = 44;              // DCGM_FR_INTERNAL
inline constexpr int kErrorCudaFmNotInitialized = 108;  // DCGM_FR_CUDA_FM_NOT_INITIALIZED

// "DCGM_FR_INTERNAL" for 44; empty for a number DCGM has not defined (as of DCGM 4.6).
std::string DcgmErrorName(long long error_id);

}  // namespace gpuconform::dcgm
