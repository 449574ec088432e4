#include "probes/nvml/nvml_probe.h"

#include <string>
#include <utility>
#include <vector>

#include "harness/util/dynamic_library.h"
#include "harness/util/record_lines.h"
#include "probes/nvml/nvml_api.h"

namespace gpuconform::nvml {

namespace {

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

// A counter field of the device (scope = link), in whichever unsigned width NVML answers.
std::optional<unsigned long long> CounterFieldValue(const Nvml& api, NvmlDevice device, unsigned field,
                                                    unsigned scope) {
  if (!api.field_values) return std::nullopt;
  NvmlFieldValue value{};
  value.field_id = field;
  value.scope_id = scope;
  if (api.field_values(device, 1, &value) != kNvmlSuccess || value.nvml_return != kNvmlSuccess) return std::nullopt;
  switch (value.value_type) {
    case kNvmlValueTypeUnsignedInt:
      return value.value.ui;
    case kNvmlValueTypeUnsignedLong:
      return value.value.ul;
    case kNvmlValueTypeUnsignedLongLong:
      return value.value.ull;
    default:
      return std::nullopt;  // a signed or floating counter is not one NVML documents
  }
}

std::string RemoteName(int type) {
  switch (type) {
    case kNvlinkDeviceGpu:
      return "gpu";
    case kNvlinkDeviceIbmNpu:
      return "ibmnpu";
    case kNvlinkDeviceSwitch:
      return "nvswitch";
    default:
      return "unknown";  // kNvlinkDeviceUnknown
  }
}

std::string FabricStateName(unsigned char state) {
  switch (state) {
    case kFabricNotStarted:
      return "not-started";
    case kFabricInProgress:
      return "in-progress";
    case kFabricCompleted:
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
    NvmlEnableState active = 0;
    // A link index the GPU does not have answers INVALID_ARGUMENT or NOT_SUPPORTED: not a link.
    if (api.link_state(device, link, &active) != kNvmlSuccess) continue;
    Fields fields = {
        {"gpu", std::to_string(gpu)}, {"link", std::to_string(link)}, {"state", active ? "active" : "inactive"}};
    NvmlNvlinkDeviceType type = kNvlinkDeviceUnknown;
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
      // The counters nvidia-smi nvlink -e prints, read where the link is up; a GPU that does not
      // keep one answers NOT_SUPPORTED, and the key is left out.
      for (const auto& [key, field] : {std::pair{"replay_errors", kFieldNvlinkErrorDlReplay},
                                       std::pair{"recovery_errors", kFieldNvlinkErrorDlRecovery},
                                       std::pair{"crc_errors", kFieldNvlinkErrorDlCrc}}) {
        if (auto count = CounterFieldValue(api, device, field, link)) fields.emplace_back(key, std::to_string(*count));
      }
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
  char name[kNameBufferBytes] = {};
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
    if (fabric.state == kFabricCompleted) {
      fields.emplace_back("fabric_status", fabric.status == kNvmlSuccess ? "success" : api.ErrorText(fabric.status));
    }
  }
  std::vector<std::string> lines = {FormatRecord("gpu", fields)};
  for (auto& line : LinkLines(api, device, index)) lines.push_back(std::move(line));
  return lines;
}

// What usually lies behind nvmlInit's answer, for the codes whose cause is known; else "".
std::string InitHint(NvmlReturn code) {
  switch (code) {
    case kNvmlErrorDriverNotLoaded:
      return "NVIDIA's user-space libraries are installed but the kernel module is not loaded (or there is no GPU), "
             "or this container has no access to /dev/nvidia*";
    case kNvmlErrorLibRmVersionMismatch:
      return "the loaded kernel module and libnvidia-ml.so.1 come from different driver versions: reboot, or reload "
             "the module, after a driver upgrade";
    case kNvmlErrorNoPermission:
      return "this user may not open /dev/nvidia*";
    default:
      return "";
  }
}

}  // namespace

RawOutput NvmlOutput(const LiveContext& context) {
  const std::string origin = context.host + ": NVML (libnvidia-ml.so.1)";
  auto library = DynamicLibrary::Open({"libnvidia-ml.so.1"}, context.options.gpu_library_dir);
  if (!library) {
    return {ProbeStatus::kToolMissing, "", origin,
            context.host + ": no NVIDIA driver (libnvidia-ml.so.1 not found: " + library.error() + ")"};
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
    // NVML's own words first, as nvmlErrorString gives them; then the code, then what it usually means.
    const std::string hint = InitHint(code);
    out.detail = context.host + ": nvmlInit_v2 failed: " + api.ErrorText(code) + " (NVML error " +
                 std::to_string(code) + ")" + (hint.empty() ? "" : ": " + hint);
    return out;
  }
  Fields header;
  char version[kVersionBufferBytes] = {};
  if (api.driver_version && api.driver_version(version, sizeof(version)) == kNvmlSuccess) {
    header.emplace_back("driver_version", version);
  }
  char nvml_version[kVersionBufferBytes] = {};
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
