#include "probes/ibverbs/ibverbs_parse.h"

#include <map>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::ibverbs {

namespace {

// The value of `key` in `words`, or an error naming the line and what is allowed.
Result<std::string> OneOf(const RecordLine& record, const std::string& key,
                          const std::map<std::string, std::string>& words, const std::string& origin) {
  const auto it = words.find(record.Get(key));
  if (it != words.end()) return it->second;
  std::string allowed;
  for (const auto& [word, meaning] : words) allowed += (allowed.empty() ? "" : "|") + word;
  return ErrorAt(origin, record.line, key + " must be " + allowed + ", got " + QuoteForMessage(record.Get(key)));
}

const std::map<std::string, std::string>& PortStates() {
  static const std::map<std::string, std::string> kWords = {{"nop", "NOP"},           {"down", "Down"},
                                                            {"init", "Initializing"}, {"armed", "Armed"},
                                                            {"active", "Active"},     {"active_defer", "ActiveDefer"}};
  return kWords;
}

const std::map<std::string, std::string>& PhysicalStates() {
  static const std::map<std::string, std::string> kWords = {
      {"sleep", "Sleep"},       {"polling", "Polling"},
      {"disabled", "Disabled"}, {"port_configuration_training", "PortConfigurationTraining"},
      {"link_up", "LinkUp"},    {"link_error_recovery", "LinkErrorRecovery"},
      {"phy_test", "PhyTest"}};
  return kWords;
}

const std::map<std::string, std::string>& LinkLayers() {
  static const std::map<std::string, std::string> kWords = {{"InfiniBand", "InfiniBand"}, {"Ethernet", "Ethernet"}};
  return kWords;
}

// Per-lane data rate in Gb/s as ibstat's Rate counts it (FDR 14 x 4 = 56, FDR10 10 x 4 = 40).
const std::map<std::string, double>& LaneRates() {
  static const std::map<std::string, double> kRates = {{"SDR", 2.5},  {"DDR", 5},   {"QDR", 10},
                                                       {"FDR10", 10}, {"FDR", 14},  {"EDR", 25},
                                                       {"HDR", 50},   {"NDR", 100}, {"XDR", 200}};
  return kRates;
}

const std::map<std::string, int>& Lanes() {
  static const std::map<std::string, int> kLanes = {{"1x", 1}, {"2x", 2}, {"4x", 4}, {"8x", 8}, {"12x", 12}};
  return kLanes;
}

Result<IbPort> ReadPort(const RecordLine& record, const std::map<std::string, std::string>& ca_types,
                        const std::string& origin) {
  IbPort port;
  port.line = record.line;
  auto device = RequiredField(record, "device", origin);
  if (!device) return Error{device.error()};
  port.ca = *device;
  const auto type = ca_types.find(port.ca);
  if (type == ca_types.end()) return ErrorAt(origin, record.line, "port of " + port.ca + " before its device line");
  port.ca_type = type->second;
  auto number = IntegerField(record, "port", origin);
  if (!number) return Error{number.error()};
  if (!*number || **number < 1 || **number > 255) return ErrorAt(origin, record.line, "a port line needs port=1..255");
  port.port = static_cast<int>(**number);
  auto state = OneOf(record, "state", PortStates(), origin);
  if (!state) return Error{state.error()};
  port.state = *state;
  auto physical = OneOf(record, "phys_state", PhysicalStates(), origin);
  if (!physical) return Error{physical.error()};
  port.physical_state = *physical;
  auto layer = OneOf(record, "link_layer", LinkLayers(), origin);
  if (!layer) return Error{layer.error()};
  port.link_layer = *layer;
  // A port that is down has no trained width or speed; libibverbs then reports what it last
  // knew, so the rate is taken only where both are named.
  const auto lanes = Lanes().find(record.Get("width"));
  const auto lane_rate = LaneRates().find(record.Get("speed"));
  if (record.Has("width") && lanes == Lanes().end()) {
    return ErrorAt(origin, record.line, "width must be 1x|2x|4x|8x|12x, got " + QuoteForMessage(record.Get("width")));
  }
  if (record.Has("speed") && lane_rate == LaneRates().end()) {
    return ErrorAt(origin, record.line,
                   "speed must be an InfiniBand speed name (SDR..XDR), got " + QuoteForMessage(record.Get("speed")));
  }
  if (lanes != Lanes().end() && lane_rate != LaneRates().end())
    port.rate_gbit_per_s = lanes->second * lane_rate->second;
  return port;
}

}  // namespace

Result<IbPortReport> ParseIbverbs(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  IbPortReport report;
  report.format = PortListingFormat::kIbverbs;
  bool header = false;
  long long devices_expected = 0;
  std::map<std::string, std::string> ca_types;  // device -> "MT4129"
  std::map<std::string, std::string> ca_firmware;  // device -> "28.39.1002"
  for (const auto& record : *records) {
    if (record.kind == "ibverbs") {
      if (header) return ErrorAt(origin, record.line, "a second ibverbs line");
      header = true;
      auto count = IntegerField(record, "device_count", origin);
      if (!count) return Error{count.error()};
      if (!*count || **count < 0) return ErrorAt(origin, record.line, "the ibverbs line needs device_count=<n>");
      devices_expected = **count;
    } else if (!header) {
      return ErrorAt(origin, record.line, "expected the 'ibverbs ...' line first (is this gpuconform's ibverbs.txt?)");
    } else if (record.kind == "device") {
      auto name = RequiredField(record, "name", origin);
      if (!name) return Error{name.error()};
      const std::string part = record.Get("vendor_part_id");
      ca_types[*name] = part.empty() ? "" : "MT" + part;
      ca_firmware[*name] = record.Get("fw_ver");
    } else if (record.kind == "port") {
      auto port = ReadPort(record, ca_types, origin);
      if (!port) return Error{port.error()};
      port.value().firmware_version = ca_firmware[port.value().ca];
      report.ports.push_back(std::move(port).value());
    } else if (record.kind == "error") {
      const std::string what = record.Get("device") + ": " + record.Get("message");
      report.tool_error += (report.tool_error.empty() ? "" : "; ") + what;
    } else {
      return ErrorAt(origin, record.line,
                     "unknown record '" + record.kind + "' (expected ibverbs, device, port or error)");
    }
  }
  const int last_line = std::max(1, static_cast<int>(SplitLines(text).size()));
  if (!header) return ErrorAt(origin, last_line, "no 'ibverbs ...' line (is this gpuconform's ibverbs.txt?)");
  if (static_cast<long long>(ca_types.size()) != devices_expected) {
    return ErrorAt(origin, last_line,
                   "the ibverbs line says device_count=" + std::to_string(devices_expected) + " but " +
                       std::to_string(ca_types.size()) + " device lines follow: the file is truncated");
  }
  return report;
}

}  // namespace gpuconform::ibverbs
