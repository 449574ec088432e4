// The part of NVML's C API that the NVML probe calls, declared by hand: the probe loads
// libnvidia-ml.so.1 with dlopen so the binary runs where no driver exists, and most build
// machines have no nvml.h. Contract: every type, constant, struct layout and function shape
// here follows nvml.h (NVML API 11 and later; the fabric call and its struct r525 and later),
// and tests/nvml_abi_check.cc proves it against the real header wherever one is installed
// (ci/install-deps installs Debian's). Nothing here loads or calls anything.
#pragma once

#include <string>

namespace gpuconform::nvml {

using NvmlReturn = int;            // nvmlReturn_t
using NvmlDevice = void*;          // nvmlDevice_t
using NvmlEnableState = int;       // nvmlEnableState_t (nvmlDeviceGetNvLinkState's answer)
using NvmlNvlinkDeviceType = int;  // nvmlIntNvLinkDeviceType_t

constexpr NvmlReturn kNvmlSuccess = 0;                     // NVML_SUCCESS
constexpr NvmlReturn kNvmlErrorNoPermission = 4;           // NVML_ERROR_NO_PERMISSION
constexpr NvmlReturn kNvmlErrorDriverNotLoaded = 9;        // NVML_ERROR_DRIVER_NOT_LOADED
constexpr NvmlReturn kNvmlErrorLibRmVersionMismatch = 18;  // NVML_ERROR_LIB_RM_VERSION_MISMATCH
constexpr NvmlEnableState kNvmlFeatureEnabled = 1;         // NVML_FEATURE_ENABLED
constexpr unsigned kNvmlNvlinkMaxLinks = 18;               // NVML_NVLINK_MAX_LINKS
constexpr unsigned kFieldNvlinkSpeedCommon = 90;           // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON (MB/s, active links)
constexpr unsigned kFieldNvlinkLinkCount = 91;             // NVML_FI_DEV_NVLINK_LINK_COUNT
constexpr unsigned kFieldNvlinkGetSpeed = 164;             // NVML_FI_DEV_NVLINK_GET_SPEED (MB/s, scopeId = link)
// The DL (data link) error counters of one link (scopeId = link), as nvidia-smi nvlink -e
// reports them; unlike the _L0.._L11 fields they reach every link of an 18-link Hopper GPU.
constexpr unsigned kFieldNvlinkErrorDlReplay = 161;        // NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY
constexpr unsigned kFieldNvlinkErrorDlRecovery = 162;      // NVML_FI_DEV_NVLINK_ERROR_DL_RECOVERY
constexpr unsigned kFieldNvlinkErrorDlCrc = 163;           // NVML_FI_DEV_NVLINK_ERROR_DL_CRC
constexpr int kNvmlValueTypeUnsignedInt = 1;               // NVML_VALUE_TYPE_UNSIGNED_INT
constexpr int kNvmlValueTypeUnsignedLong = 2;              // NVML_VALUE_TYPE_UNSIGNED_LONG
constexpr int kNvmlValueTypeUnsignedLongLong = 3;          // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
constexpr NvmlNvlinkDeviceType kNvlinkDeviceGpu = 0;       // NVML_NVLINK_DEVICE_TYPE_GPU
constexpr NvmlNvlinkDeviceType kNvlinkDeviceIbmNpu = 1;    // NVML_NVLINK_DEVICE_TYPE_IBMNPU
constexpr NvmlNvlinkDeviceType kNvlinkDeviceSwitch = 2;    // NVML_NVLINK_DEVICE_TYPE_SWITCH
constexpr NvmlNvlinkDeviceType kNvlinkDeviceUnknown = 0xFF;  // NVML_NVLINK_DEVICE_TYPE_UNKNOWN
constexpr unsigned char kFabricNotSupported = 0;             // NVML_GPU_FABRIC_STATE_NOT_SUPPORTED
constexpr unsigned char kFabricNotStarted = 1;               // NVML_GPU_FABRIC_STATE_NOT_STARTED
constexpr unsigned char kFabricInProgress = 2;               // NVML_GPU_FABRIC_STATE_IN_PROGRESS
constexpr unsigned char kFabricCompleted = 3;                // NVML_GPU_FABRIC_STATE_COMPLETED
// Buffers the probe passes; each at least NVML's documented size for that call.
constexpr unsigned kNameBufferBytes = 96;     // >= NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kVersionBufferBytes = 96;  // >= NVML_SYSTEM_DRIVER/NVML_VERSION_BUFFER_SIZE

struct NvmlPciInfo {  // nvmlPciInfo_t (nvmlDeviceGetPciInfo_v3)
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};

union NvmlValue {  // nvmlValue_t
  double d;
  unsigned int ui;
  unsigned long ul;
  unsigned long long ull;
  long long sll;
};

struct NvmlFieldValue {  // nvmlFieldValue_t
  unsigned field_id;
  unsigned scope_id;
  long long timestamp;
  long long latency_usec;
  int value_type;  // nvmlValueType_t
  NvmlReturn nvml_return;
  NvmlValue value;
};

struct NvmlGpuFabricInfo {  // nvmlGpuFabricInfo_t (nvmlDeviceGetGpuFabricInfo)
  unsigned char cluster_uuid[16];
  NvmlReturn status;
  unsigned clique_id;
  unsigned char state;  // nvmlGpuFabricState_t: kFabric* above
};

struct Nvml {
  NvmlReturn (*init)() = nullptr;                                              // nvmlInit_v2
  NvmlReturn (*shutdown)() = nullptr;                                          // nvmlShutdown
  const char* (*error_string)(NvmlReturn) = nullptr;                           // nvmlErrorString
  NvmlReturn (*driver_version)(char*, unsigned) = nullptr;                     // nvmlSystemGetDriverVersion
  NvmlReturn (*nvml_version)(char*, unsigned) = nullptr;                       // nvmlSystemGetNVMLVersion
  NvmlReturn (*count)(unsigned*) = nullptr;                                    // nvmlDeviceGetCount_v2
  NvmlReturn (*handle)(unsigned, NvmlDevice*) = nullptr;                       // nvmlDeviceGetHandleByIndex_v2
  NvmlReturn (*name)(NvmlDevice, char*, unsigned) = nullptr;                   // nvmlDeviceGetName
  NvmlReturn (*pci)(NvmlDevice, NvmlPciInfo*) = nullptr;                       // nvmlDeviceGetPciInfo_v3
  NvmlReturn (*gen_current)(NvmlDevice, unsigned*) = nullptr;                  // nvmlDeviceGetCurrPcieLinkGeneration
  NvmlReturn (*gen_max)(NvmlDevice, unsigned*) = nullptr;                      // nvmlDeviceGetMaxPcieLinkGeneration
  NvmlReturn (*width_current)(NvmlDevice, unsigned*) = nullptr;                // nvmlDeviceGetCurrPcieLinkWidth
  NvmlReturn (*width_max)(NvmlDevice, unsigned*) = nullptr;                    // nvmlDeviceGetMaxPcieLinkWidth
  NvmlReturn (*fabric)(NvmlDevice, NvmlGpuFabricInfo*) = nullptr;              // nvmlDeviceGetGpuFabricInfo
  NvmlReturn (*link_state)(NvmlDevice, unsigned, NvmlEnableState*) = nullptr;  // nvmlDeviceGetNvLinkState
  NvmlReturn (*link_version)(NvmlDevice, unsigned, unsigned*) = nullptr;       // nvmlDeviceGetNvLinkVersion
  NvmlReturn (*remote_type)(NvmlDevice, unsigned,
                            NvmlNvlinkDeviceType*) = nullptr;              // nvmlDeviceGetNvLinkRemoteDeviceType
  NvmlReturn (*remote_pci)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;  // nvmlDeviceGetNvLinkRemotePciInfo_v2
  NvmlReturn (*field_values)(NvmlDevice, int, NvmlFieldValue*) = nullptr;  // nvmlDeviceGetFieldValues

  // nvmlErrorString's words for `code` ("Driver Not Loaded"), or "NVML error <code>".
  std::string ErrorText(NvmlReturn code) const {
    const char* text = error_string ? error_string(code) : nullptr;
    return text ? text : "NVML error " + std::to_string(code);
  }
};

}  // namespace gpuconform::nvml
