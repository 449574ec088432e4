// Compile-time proof that the NVML declarations the NVML probe writes by hand
// (probes/nvml/nvml_api.h) match the real nvml.h: the same constants and field ids, struct
// sizes and member offsets, and function shapes. Built only where nvml.h is installed (Debian's
// libnvidia-ml-dev, which ci/install-deps installs); a mismatch fails the build, not a GPU node
// at run time. The fabric call came with r525: against an older header (Debian 12's is CUDA
// 11.8's) it cannot be checked, and the program says so when it runs.
#include <nvml.h>

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "probes/nvml/nvml_api.h"

namespace gpuconform::nvml {
namespace {

// The size of what a pointer parameter points to (0 for void and opaque handles such as
// nvmlDevice_t), so an `unsigned*` where NVML writes an `unsigned long long` is caught.
template <class T>
constexpr std::size_t PointeeSize() {
  if constexpr (std::is_pointer_v<T>) {
    using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
    if constexpr (!std::is_void_v<Pointee> && !std::is_function_v<Pointee> && requires { sizeof(Pointee); }) {
      return sizeof(Pointee);
    }
  }
  return 0;
}

// Two function pointer types agree in return size, arity, and every parameter's size and
// pointee size (the real ones use enum and typedef'd types where ours use int and void*).
template <class Real, class Ours>
struct SameShape;
template <class RealReturn, class... RealParams, class OurReturn, class... OurParams>
struct SameShape<RealReturn (*)(RealParams...), OurReturn (*)(OurParams...)> {
  static constexpr bool value =
      sizeof(RealReturn) == sizeof(OurReturn) && sizeof...(RealParams) == sizeof...(OurParams) &&
      ((sizeof(RealParams) == sizeof(OurParams) && PointeeSize<RealParams>() == PointeeSize<OurParams>()) && ...);
};
#define GPUCONFORM_SAME_SHAPE(real, ours) \
  static_assert(SameShape<decltype(&real), decltype(ours)>::value, #real " does not match " #ours)
#define GPUCONFORM_SAME_MEMBER(real_type, real_member, our_type, our_member)          \
  static_assert(offsetof(real_type, real_member) == offsetof(our_type, our_member) && \
                    sizeof(real_type::real_member) == sizeof(our_type::our_member),   \
                #real_type "::" #real_member " does not match " #our_type "::" #our_member)

// Types.
static_assert(sizeof(nvmlReturn_t) == sizeof(NvmlReturn));
static_assert(sizeof(nvmlDevice_t) == sizeof(NvmlDevice));
static_assert(sizeof(nvmlEnableState_t) == sizeof(NvmlEnableState));
static_assert(sizeof(nvmlIntNvLinkDeviceType_t) == sizeof(NvmlNvlinkDeviceType));
static_assert(sizeof(nvmlValueType_t) == sizeof(NvmlFieldValue::value_type));

// Constants.
static_assert(NVML_SUCCESS == kNvmlSuccess);
static_assert(NVML_ERROR_NO_PERMISSION == kNvmlErrorNoPermission);
static_assert(NVML_ERROR_DRIVER_NOT_LOADED == kNvmlErrorDriverNotLoaded);
static_assert(NVML_ERROR_LIB_RM_VERSION_MISMATCH == kNvmlErrorLibRmVersionMismatch);
static_assert(NVML_FEATURE_ENABLED == kNvmlFeatureEnabled);
static_assert(NVML_NVLINK_MAX_LINKS == kNvmlNvlinkMaxLinks);
static_assert(NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON == kFieldNvlinkSpeedCommon);
static_assert(NVML_FI_DEV_NVLINK_LINK_COUNT == kFieldNvlinkLinkCount);
static_assert(NVML_FI_DEV_NVLINK_GET_SPEED == kFieldNvlinkGetSpeed);
static_assert(NVML_VALUE_TYPE_UNSIGNED_INT == kNvmlValueTypeUnsignedInt);
static_assert(NVML_VALUE_TYPE_UNSIGNED_LONG == kNvmlValueTypeUnsignedLong);
static_assert(NVML_VALUE_TYPE_UNSIGNED_LONG_LONG == kNvmlValueTypeUnsignedLongLong);
static_assert(NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY == kFieldNvlinkErrorDlReplay);
static_assert(NVML_FI_DEV_NVLINK_ERROR_DL_RECOVERY == kFieldNvlinkErrorDlRecovery);
static_assert(NVML_FI_DEV_NVLINK_ERROR_DL_CRC == kFieldNvlinkErrorDlCrc);
static_assert(NVML_NVLINK_DEVICE_TYPE_GPU == kNvlinkDeviceGpu);
static_assert(NVML_NVLINK_DEVICE_TYPE_IBMNPU == kNvlinkDeviceIbmNpu);
static_assert(NVML_NVLINK_DEVICE_TYPE_SWITCH == kNvlinkDeviceSwitch);
static_assert(NVML_NVLINK_DEVICE_TYPE_UNKNOWN == kNvlinkDeviceUnknown);
static_assert(kNameBufferBytes >= NVML_DEVICE_NAME_V2_BUFFER_SIZE);
static_assert(kVersionBufferBytes >= NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE);
static_assert(kVersionBufferBytes >= NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE);

// Structs: size, and each member's offset and size.
static_assert(sizeof(nvmlPciInfo_t) == sizeof(NvmlPciInfo));
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, busIdLegacy, NvmlPciInfo, bus_id_legacy);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, domain, NvmlPciInfo, domain);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, bus, NvmlPciInfo, bus);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, device, NvmlPciInfo, device);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, pciDeviceId, NvmlPciInfo, pci_device_id);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, pciSubSystemId, NvmlPciInfo, pci_subsystem_id);
GPUCONFORM_SAME_MEMBER(nvmlPciInfo_t, busId, NvmlPciInfo, bus_id);
static_assert(sizeof(nvmlValue_t) == sizeof(NvmlValue));
static_assert(sizeof(nvmlFieldValue_t) == sizeof(NvmlFieldValue));
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, fieldId, NvmlFieldValue, field_id);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, scopeId, NvmlFieldValue, scope_id);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, timestamp, NvmlFieldValue, timestamp);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, latencyUsec, NvmlFieldValue, latency_usec);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, valueType, NvmlFieldValue, value_type);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, nvmlReturn, NvmlFieldValue, nvml_return);
GPUCONFORM_SAME_MEMBER(nvmlFieldValue_t, value, NvmlFieldValue, value);

// Functions.
GPUCONFORM_SAME_SHAPE(nvmlInit_v2, Nvml{}.init);
GPUCONFORM_SAME_SHAPE(nvmlShutdown, Nvml{}.shutdown);
GPUCONFORM_SAME_SHAPE(nvmlErrorString, Nvml{}.error_string);
GPUCONFORM_SAME_SHAPE(nvmlSystemGetDriverVersion, Nvml{}.driver_version);
GPUCONFORM_SAME_SHAPE(nvmlSystemGetNVMLVersion, Nvml{}.nvml_version);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetCount_v2, Nvml{}.count);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetHandleByIndex_v2, Nvml{}.handle);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetName, Nvml{}.name);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetPciInfo_v3, Nvml{}.pci);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetCurrPcieLinkGeneration, Nvml{}.gen_current);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetMaxPcieLinkGeneration, Nvml{}.gen_max);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetCurrPcieLinkWidth, Nvml{}.width_current);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetMaxPcieLinkWidth, Nvml{}.width_max);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetNvLinkState, Nvml{}.link_state);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetNvLinkVersion, Nvml{}.link_version);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetNvLinkRemoteDeviceType, Nvml{}.remote_type);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetNvLinkRemotePciInfo_v2, Nvml{}.remote_pci);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetFieldValues, Nvml{}.field_values);

#ifdef NVML_GPU_FABRIC_UUID_LEN
constexpr bool kFabricChecked = true;
static_assert(NVML_GPU_FABRIC_STATE_NOT_SUPPORTED == kFabricNotSupported);
static_assert(NVML_GPU_FABRIC_STATE_NOT_STARTED == kFabricNotStarted);
static_assert(NVML_GPU_FABRIC_STATE_IN_PROGRESS == kFabricInProgress);
static_assert(NVML_GPU_FABRIC_STATE_COMPLETED == kFabricCompleted);
static_assert(sizeof(nvmlGpuFabricState_t) == sizeof(NvmlGpuFabricInfo::state));
static_assert(sizeof(nvmlGpuFabricInfo_t) == sizeof(NvmlGpuFabricInfo));
GPUCONFORM_SAME_MEMBER(nvmlGpuFabricInfo_t, clusterUuid, NvmlGpuFabricInfo, cluster_uuid);
GPUCONFORM_SAME_MEMBER(nvmlGpuFabricInfo_t, status, NvmlGpuFabricInfo, status);
GPUCONFORM_SAME_MEMBER(nvmlGpuFabricInfo_t, state, NvmlGpuFabricInfo, state);
GPUCONFORM_SAME_SHAPE(nvmlDeviceGetGpuFabricInfo, Nvml{}.fabric);
#else
constexpr bool kFabricChecked = false;
#endif

}  // namespace
}  // namespace gpuconform::nvml

int main() {
  std::printf("NVML declarations match nvml.h (NVML API %s)\n", NVML_API_VERSION_STR);
  if (!gpuconform::nvml::kFabricChecked) {
    std::printf(
        "not checked: nvmlDeviceGetGpuFabricInfo, nvmlGpuFabricInfo_t and NVML_GPU_FABRIC_STATE_* "
        "(this nvml.h predates them; they follow r525's and later headers)\n");
  }
  return 0;
}
