#include "probes/nvml/nvml_probe.h"

#include <string>
#include <utility>
#include <vector>

#include "harness/dynamic_library.h"
#include "harness/record_lines.h"

namespace gpuconform::nvml {

namespace {

// The few NVML declarations this probe needs, following nvml.h of the NVML API (r530 and
// later); there is no nvml.h on build machines without the CUDA toolkit, and the layouts
// below are part of NVML's stable ABI.
using NvmlReturn = int;                           // nvmlReturn_t
using NvmlDevice = void*;                         // nvmlDevice_t
constexpr NvmlReturn kNvmlSuccess = 0;            // NVML_SUCCESS
constexpr unsigned kNvmlNvlinkMaxLinks = 18;      // NVML_NVLINK_MAX_LINKS
constexpr unsigned kFieldNvlinkSpeedCommon = 90;  // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON (MB/s, active links)
constexpr unsigned kFieldNvlinkLinkCount = 91;    // NVML_FI_DEV_NVLINK_LINK_COUNT
constexpr unsigned kFieldNvlinkGetSpeed = 164;    // NVML_FI_DEV_NVLINK_GET_SPEED (MB/s, scopeId = link)

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
  int value_type;  // nvmlValueType_t; 1 = NVML_VALUE_TYPE_UNSIGNED_INT
  NvmlReturn nvml_return;
  NvmlValue value;
};

struct NvmlGpuFabricInfo {  // nvmlGpuFabricInfo_t (nvmlDeviceGetGpuFabricInfo)
  unsigned char cluster_uuid[16];
  NvmlReturn status;
  unsigned clique_id;
  unsigned char state;  // nvmlGpuFabricState_t: 0 not supported, 1 not started, 2 in progress, 3 completed
};

struct Nvml {
  NvmlReturn (*init)() = nullptr;                                          // nvmlInit_v2
  NvmlReturn (*shutdown)() = nullptr;                                      // nvmlShutdown
  const char* (*error_string)(NvmlReturn) = nullptr;                       // nvmlErrorString
  NvmlReturn (*driver_version)(char*, unsigned) = nullptr;                 // nvmlSystemGetDriverVersion
  NvmlReturn (*nvml_version)(char*, unsigned) = nullptr;                   // nvmlSystemGetNVMLVersion
  NvmlReturn (*count)(unsigned*) = nullptr;                                // nvmlDeviceGetCount_v2
  NvmlReturn (*handle)(unsigned, NvmlDevice*) = nullptr;                   // nvmlDeviceGetHandleByIndex_v2
  NvmlReturn (*name)(NvmlDevice, char*, unsigned) = nullptr;               // nvmlDeviceGetName
  NvmlReturn (*pci)(NvmlDevice, NvmlPciInfo*) = nullptr;                   // nvmlDeviceGetPciInfo_v3
  NvmlReturn (*gen_current)(NvmlDevice, unsigned*) = nullptr;              // nvmlDeviceGetCurrPcieLinkGeneration
  NvmlReturn (*gen_max)(NvmlDevice, unsigned*) = nullptr;                  // nvmlDeviceGetMaxPcieLinkGeneration
  NvmlReturn (*width_current)(NvmlDevice, unsigned*) = nullptr;            // nvmlDeviceGetCurrPcieLinkWidth
  NvmlReturn (*width_max)(NvmlDevice, unsigned*) = nullptr;                // nvmlDeviceGetMaxPcieLinkWidth
  NvmlReturn (*fabric)(NvmlDevice, NvmlGpuFabricInfo*) = nullptr;          // nvmlDeviceGetGpuFabricInfo
  NvmlReturn (*link_state)(NvmlDevice, unsigned, int*) = nullptr;          // nvmlDeviceGetNvLinkState
  NvmlReturn (*link_version)(NvmlDevice, unsigned, unsigned*) = nullptr;   // nvmlDeviceGetNvLinkVersion
  NvmlReturn (*remote_type)(NvmlDevice, unsigned, int*) = nullptr;         // nvmlDeviceGetNvLinkRemoteDeviceType
  NvmlReturn (*remote_pci)(NvmlDevice, unsigned, NvmlPciInfo*) = nullptr;  // nvmlDeviceGetNvLinkRemotePciInfo_v2
  NvmlReturn (*field_values)(NvmlDevice, int, NvmlFieldValue*) = nullptr;  // nvmlDeviceGetFieldValues

  std::string ErrorText(NvmlReturn code) const {
    const char* text = error_string ? error_string(code) : nullptr;
    return text ? text : "NVML error " + std::to_string(code);
  }
};

Nvml Resolve(const DynamicLibrary& library) {
  Nvml api;
  api.init = library.Symbol<decltype(api.init)>("nvmlInit_v2");
  api.shutdown = library.Symbol<decltype(api.shutdown)>("nvmlShutdown");
  api.error_string = library.Symbol<decltype(api.error_string)>("nvmlErrorString");
  api.driver_version = library.Symbol<decltype(api.driver_version)>("nvmlSystemGetDriverVersion");
  api.nvml_version = library.Symbol<decltype(api.nvml_version)>("nvmlSystemGetNVMLVersion");
  api.count = library.Symbol<decltype(api.count)>("nvmlDeviceGetCount_v2");
  api.handle = library.Symbol<decltype(api.handle)>("nvmlDeviceGetHandleByIndex_v2");
  api.name = library.Symbol<decltype(api.name)>("nvmlDeviceGetName");
  api.pci = library.Symbol<decltype(api.pci)>("nvmlDeviceGetPciInfo_v3");
  api.gen_current = library.Symbol<decltype(api.gen_current)>("nvmlDeviceGetCurrPcieLinkGeneration");
  api.gen_max = library.Symbol<decltype(api.gen_max)>("nvmlDeviceGetMaxPcieLinkGeneration");
  api.width_current = library.Symbol<decltype(api.width_current)>("nvmlDeviceGetCurrPcieLinkWidth");
  api.width_max = library.Symbol<decltype(api.width_max)>("nvmlDeviceGetMaxPcieLinkWidth");
  api.fabric = library.Symbol<decltype(api.fabric)>("nvmlDeviceGetGpuFabricInfo");
  api.link_state = library.Symbol<decltype(api.link_state)>("nvmlDeviceGetNvLinkState");
  api.link_version = library.Symbol<decltype(api.link_version)>("nvmlDeviceGetNvLinkVersion");
  api.remote_type = library.Symbol<decltype(api.remote_type)>("nvmlDeviceGetNvLinkRemoteDeviceType");
  api.remote_pci = library.Symbol<decltype(api.remote_pci)>("nvmlDeviceGetNvLinkRemotePciInfo_v2");
  api.field_values = library.Symbol<decltype(api.field_values)>("nvmlDeviceGetFieldValues");
  return api;
}

using Fields = std::vector<std::pair<std::string, std::string>>;

// Appends key=<value> when the call exists and succeeds.
void AddUnsigned(Fields& fields, const char* key, NvmlReturn (*call)(NvmlDevice, unsigned*), NvmlDevice device) {
  unsigned value = 0;
  if (call && call(device, &value) == kNvmlSuccess) fields.emplace_back(key, std::to_string(value));
}

// One field value of the device (scope = link for per-link fields), or nullopt.
std::optional<unsigned> FieldValue(const Nvml& api, NvmlDevice device, unsigned field, unsigned scope) {
  if (!api.field_values) return std::nullopt;
  NvmlFieldValue value{};
  value.field_id = field;
  value.scope_id = scope;
  if (api.field_values(device, 1, &value) != kNvmlSuccess || value.nvml_return != kNvmlSuccess) return std::nullopt;
  return value.value.ui;
}

std::string RemoteName(int type) {
  switch (type) {
    case 0:
      return "gpu";  // NVML_NVLINK_DEVICE_TYPE_GPU
    case 1:
      return "ibmnpu";  // NVML_NVLINK_DEVICE_TYPE_IBMNPU
    case 2:
      return "nvswitch";  // NVML_NVLINK_DEVICE_TYPE_SWITCH
    default:
      return "unknown";  // NVML_NVLINK_DEVICE_TYPE_UNKNOWN (0xFF)
  }
}

std::string FabricStateName(unsigned char state) {
  switch (state) {
    case 1:
      return "not-started";
    case 2:
      return "in-progress";
    case 3:
      return "completed";
    default:
      return "not-supported";
  }
}

std::vector<std::string> LinkLines(const Nvml& api, NvmlDevice device, unsigned gpu) {
  std::vector<std::string> lines;
  if (!api.link_state) return lines;
  const auto count = FieldValue(api, device, kFieldNvlinkLinkCount, 0);
  const unsigned links = count && *count > 0 ? *count : kNvmlNvlinkMaxLinks;
  const auto common_speed = FieldValue(api, device, kFieldNvlinkSpeedCommon, 0);
  for (unsigned link = 0; link < links; ++link) {
    int active = 0;
    // A link index the GPU does not have answers INVALID_ARGUMENT or NOT_SUPPORTED: not a link.
    if (api.link_state(device, link, &active) != kNvmlSuccess) continue;
    Fields fields = {
        {"gpu", std::to_string(gpu)}, {"link", std::to_string(link)}, {"state", active ? "active" : "inactive"}};
    int type = 0;
    if (api.remote_type && api.remote_type(device, link, &type) == kNvmlSuccess) {
      fields.emplace_back("remote", RemoteName(type));
    }
    NvmlPciInfo remote{};
    if (active && api.remote_pci && api.remote_pci(device, link, &remote) == kNvmlSuccess && remote.bus_id[0]) {
      remote.bus_id[sizeof(remote.bus_id) - 1] = '\0';
      fields.emplace_back("remote_bus_id", remote.bus_id);
    }
    unsigned version = 0;
    if (api.link_version && api.link_version(device, link, &version) == kNvmlSuccess) {
      fields.emplace_back("version", std::to_string(version));
    }
    if (active) {
      auto speed = FieldValue(api, device, kFieldNvlinkGetSpeed, link);
      if (!speed || *speed == 0) speed = common_speed;
      if (speed && *speed > 0) fields.emplace_back("speed_mbyte_per_s", std::to_string(*speed));
    }
    lines.push_back(FormatRecord("link", fields));
  }
  return lines;
}

std::vector<std::string> GpuLines(const Nvml& api, unsigned index) {
  NvmlDevice device = nullptr;
  const NvmlReturn got = api.handle ? api.handle(index, &device) : -1;
  if (got != kNvmlSuccess) {
    return {
        FormatRecord("gpu", {{"index", std::to_string(index)},
                             {"error", api.handle ? api.ErrorText(got) : "nvmlDeviceGetHandleByIndex_v2 missing"}})};
  }
  Fields fields = {{"index", std::to_string(index)}};
  char name[96] = {};
  if (api.name && api.name(device, name, sizeof(name)) == kNvmlSuccess) fields.emplace_back("name", name);
  NvmlPciInfo pci{};
  if (api.pci && api.pci(device, &pci) == kNvmlSuccess) {
    pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
    fields.emplace_back("bus_id", pci.bus_id);
  }
  AddUnsigned(fields, "pcie_gen_current", api.gen_current, device);
  AddUnsigned(fields, "pcie_gen_max", api.gen_max, device);
  AddUnsigned(fields, "pcie_width_current", api.width_current, device);
  AddUnsigned(fields, "pcie_width_max", api.width_max, device);
  NvmlGpuFabricInfo fabric{};
  if (api.fabric && api.fabric(device, &fabric) == kNvmlSuccess) {
    fields.emplace_back("fabric_state", FabricStateName(fabric.state));
    // The status means something only once registration has finished.
    if (fabric.state == 3) {
      fields.emplace_back("fabric_status", fabric.status == kNvmlSuccess ? "success" : api.ErrorText(fabric.status));
    }
  }
  std::vector<std::string> lines = {FormatRecord("gpu", fields)};
  for (auto& line : LinkLines(api, device, index)) lines.push_back(std::move(line));
  return lines;
}

}  // namespace

RawOutput NvmlOutput(const LiveContext& context) {
  const std::string origin = context.host + ": NVML (libnvidia-ml.so.1)";
  auto library = DynamicLibrary::Open({"libnvidia-ml.so.1"});
  if (!library) {
    return {ProbeStatus::kToolMissing, "", origin, context.host + ": no NVIDIA driver (libnvidia-ml.so.1 not found)"};
  }
  RawOutput out;
  out.origin = origin;
  const Nvml api = Resolve(*library);
  if (!api.init || !api.shutdown) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": libnvidia-ml.so.1 loaded but exports no nvmlInit_v2/nvmlShutdown";
    return out;
  }
  if (const NvmlReturn code = api.init(); code != kNvmlSuccess) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": nvmlInit_v2 failed: " + api.ErrorText(code) +
                 " (the driver package is installed but its kernel module is not loaded, or this container "
                 "has no access to /dev/nvidia*)";
    return out;
  }
  Fields header;
  char version[96] = {};
  if (api.driver_version && api.driver_version(version, sizeof(version)) == kNvmlSuccess) {
    header.emplace_back("driver_version", version);
  }
  char nvml_version[96] = {};
  if (api.nvml_version && api.nvml_version(nvml_version, sizeof(nvml_version)) == kNvmlSuccess) {
    header.emplace_back("nvml_version", nvml_version);
  }
  unsigned count = 0;
  const NvmlReturn counted = api.count ? api.count(&count) : -1;
  if (counted == kNvmlSuccess) header.emplace_back("device_count", std::to_string(count));
  out.text = "# nvml.txt v1: gpuconform's NVML probe; format in probes/nvml/nvml_parse.h\n" +
             FormatRecord("nvml", header) + "\n";
  for (unsigned index = 0; index < count; ++index) {
    for (const auto& line : GpuLines(api, index)) out.text += line + "\n";
  }
  api.shutdown();
  if (counted != kNvmlSuccess) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": nvmlDeviceGetCount_v2 failed: " +
                 (api.count ? api.ErrorText(counted) : std::string("symbol missing"));
    return out;
  }
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& NvmlProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("nvml", ProbeScope::kNode, "nvml.txt", NvmlOutput);
  return kSpec;
}

}  // namespace gpuconform::nvml
