#include "probes/ibverbs/ibverbs_probe.h"

// Only the types and the inline context accessors of rdma-core's header are used: every
// function is resolved with dlsym, so nothing here links against libibverbs.
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "harness/util/dynamic_library.h"
#include "harness/util/record_lines.h"

namespace gpuconform::ibverbs {

namespace {

struct Verbs {
  ibv_device** (*get_device_list)(int*) = nullptr;
  void (*free_device_list)(ibv_device**) = nullptr;
  const char* (*get_device_name)(ibv_device*) = nullptr;
  ibv_context* (*open_device)(ibv_device*) = nullptr;
  int (*close_device)(ibv_context*) = nullptr;
  int (*query_device)(ibv_context*, ibv_device_attr*) = nullptr;
  // The exported ibv_query_port takes the old, shorter attribute struct; verbs.h hides it behind
  // a macro and an inline wrapper (___ibv_query_port), which would need the library at link
  // time, so QueryPort below does what that wrapper does.
  int (*query_port_compat)(ibv_context*, uint8_t, _compat_ibv_port_attr*) = nullptr;

  bool Complete() const {
    return get_device_list && free_device_list && get_device_name && open_device && close_device && query_device &&
           query_port_compat;
  }
};

// ___ibv_query_port of rdma-core's verbs.h: the provider's size-aware query_port where the
// context has one, else the exported compat symbol over a zeroed struct.
int QueryPort(const Verbs& api, ibv_context* context, uint8_t port, ibv_port_attr* attr) {
  verbs_context* extended = verbs_get_ctx_op(context, query_port);
  if (extended != nullptr) return extended->query_port(context, port, attr, sizeof(*attr));
  std::memset(attr, 0, sizeof(*attr));
  return api.query_port_compat(context, port, reinterpret_cast<_compat_ibv_port_attr*>(attr));
}

std::string StateName(ibv_port_state state) {
  switch (state) {
    case IBV_PORT_NOP:
      return "nop";
    case IBV_PORT_DOWN:
      return "down";
    case IBV_PORT_INIT:
      return "init";
    case IBV_PORT_ARMED:
      return "armed";
    case IBV_PORT_ACTIVE:
      return "active";
    case IBV_PORT_ACTIVE_DEFER:
      return "active_defer";
  }
  return "nop";
}

std::string PhysicalStateName(uint8_t state) {  // IB spec PortPhysicalState
  switch (state) {
    case 1:
      return "sleep";
    case 2:
      return "polling";
    case 3:
      return "disabled";
    case 4:
      return "port_configuration_training";
    case 5:
      return "link_up";
    case 6:
      return "link_error_recovery";
    case 7:
      return "phy_test";
    default:
      return "sleep";
  }
}

std::string WidthName(uint8_t width) {  // ibv_port_attr.active_width
  switch (width) {
    case 1:
      return "1x";
    case 2:
      return "4x";
    case 4:
      return "8x";
    case 8:
      return "12x";
    case 16:
      return "2x";
    default:
      return "";
  }
}

std::string SpeedName(uint8_t speed) {  // ibv_port_attr.active_speed
  switch (speed) {
    case 1:
      return "SDR";
    case 2:
      return "DDR";
    case 4:
      return "QDR";
    case 8:
      return "FDR10";
    case 16:
      return "FDR";
    case 32:
      return "EDR";
    case 64:
      return "HDR";
    case 128:
      return "NDR";
    default:
      return "";
  }
}

using Fields = std::vector<std::pair<std::string, std::string>>;

void AddIfNamed(Fields& fields, const char* key, const std::string& value) {
  if (!value.empty()) fields.emplace_back(key, value);
}

std::string DeviceLines(const Verbs& api, ibv_device* device) {
  const char* raw_name = api.get_device_name(device);
  const std::string name = raw_name ? raw_name : "?";
  auto error = [&](const std::string& message) {
    return FormatRecord("device", {{"name", name}}) + "\n" +
           FormatRecord("error", {{"device", name}, {"message", message}}) + "\n";
  };
  ibv_context* context = api.open_device(device);
  if (context == nullptr) return error(std::string("ibv_open_device: ") + std::strerror(errno));
  ibv_device_attr attr{};
  if (const int rc = api.query_device(context, &attr); rc != 0) {
    api.close_device(context);
    return error(std::string("ibv_query_device: ") + std::strerror(rc));
  }
  std::string text = FormatRecord("device", {{"name", name},
                                             {"vendor_part_id", std::to_string(attr.vendor_part_id)},
                                             {"fw_ver", attr.fw_ver},
                                             {"phys_port_cnt", std::to_string(attr.phys_port_cnt)}}) +
                     "\n";
  for (int port = 1; port <= attr.phys_port_cnt; ++port) {
    ibv_port_attr port_attr{};
    if (const int rc = QueryPort(api, context, static_cast<uint8_t>(port), &port_attr); rc != 0) {
      text +=
          FormatRecord("error", {{"device", name},
                                 {"message", "ibv_query_port " + std::to_string(port) + ": " + std::strerror(rc)}}) +
          "\n";
      continue;
    }
    Fields fields = {{"device", name},
                     {"port", std::to_string(port)},
                     {"state", StateName(port_attr.state)},
                     {"phys_state", PhysicalStateName(port_attr.phys_state)}};
    AddIfNamed(fields, "width", WidthName(port_attr.active_width));
    AddIfNamed(fields, "speed", SpeedName(port_attr.active_speed));
    fields.emplace_back("link_layer", port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand");
    text += FormatRecord("port", fields) + "\n";
  }
  api.close_device(context);
  return text;
}

}  // namespace

RawOutput IbverbsOutput(const LiveContext& context) {
  const std::string origin = context.host + ": libibverbs (ibv_get_device_list, ibv_query_port)";
  auto library = DynamicLibrary::Open({"libibverbs.so.1"});
  if (!library) {
    return {ProbeStatus::kToolMissing, "", origin,
            context.host + ": libibverbs.so.1 not found (rdma-core is not installed)"};
  }
  RawOutput out;
  out.origin = origin;
  Verbs api;
  api.get_device_list = library->Symbol<decltype(api.get_device_list)>("ibv_get_device_list");
  api.free_device_list = library->Symbol<decltype(api.free_device_list)>("ibv_free_device_list");
  api.get_device_name = library->Symbol<decltype(api.get_device_name)>("ibv_get_device_name");
  api.open_device = library->Symbol<decltype(api.open_device)>("ibv_open_device");
  api.close_device = library->Symbol<decltype(api.close_device)>("ibv_close_device");
  api.query_device = library->Symbol<decltype(api.query_device)>("ibv_query_device");
  api.query_port_compat = library->Symbol<decltype(api.query_port_compat)>("ibv_query_port");
  if (!api.Complete()) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": libibverbs.so.1 lacks a function the probe needs";
    return out;
  }
  int count = 0;
  errno = 0;
  ibv_device** devices = api.get_device_list(&count);
  const std::string header =
      "# ibverbs.txt v1: gpuconform's libibverbs probe; format in probes/ibverbs/ibverbs_parse.h\n";
  if (devices == nullptr) {
    // No uverbs support in the kernel reads as "no device": there is nothing to open either way.
    if (errno == ENOSYS || errno == 0) {
      out.status = ProbeStatus::kOk;
      out.text = header + "# no RDMA device: ibv_get_device_list found none\n" +
                 FormatRecord("ibverbs", {{"library", library->name()}, {"device_count", "0"}}) + "\n";
      return out;
    }
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": ibv_get_device_list failed: " + std::strerror(errno);
    return out;
  }
  out.text = header;
  if (count == 0) out.text += "# no RDMA device: ibv_get_device_list found none\n";
  out.text += FormatRecord("ibverbs", {{"library", library->name()}, {"device_count", std::to_string(count)}}) + "\n";
  for (int i = 0; i < count; ++i) out.text += DeviceLines(api, devices[i]);
  api.free_device_list(devices);
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& IbverbsProbe() {
  static const ProbeSpec kSpec = BuiltinProbe("ibverbs", ProbeScope::kNode, "ibverbs.txt", IbverbsOutput);
  return kSpec;
}

}  // namespace gpuconform::ibverbs
