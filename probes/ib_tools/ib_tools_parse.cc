#include "probes/ib_tools/ib_tools_parse.h"

#include <charconv>
#include <map>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::ib_tools {

namespace {



template <typename Number>
std::optional<Number> Whole(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// The number in "(5)" or before ":" in "5: LinkUp", as sysfs and ibv_devinfo print states.
std::optional<int> StateCode(std::string_view value) {
  const auto open = value.find('(');
  const auto close = value.find(')', open == std::string_view::npos ? 0 : open);
  if (open != std::string_view::npos && close != std::string_view::npos) {
    if (auto code = Whole<int>(Trim(value.substr(open + 1, close - open - 1)))) return code;
  }
  const auto colon = value.find(':');
  if (colon != std::string_view::npos) return Whole<int>(Trim(value.substr(0, colon)));
  return std::nullopt;
}

// Logical port state as ibstat words it (IB spec PortState: 1 Down, 2 Init, 3 Armed, 4 Active).
std::string NormalPortState(std::string_view value) {
  static const std::map<int, std::string> kByCode = {
      {1, "Down"}, {2, "Initializing"}, {3, "Armed"}, {4, "Active"}, {5, "ActiveDefer"}};
  if (const auto code = StateCode(value); code && kByCode.count(*code)) return kByCode.at(*code);
  return std::string(value);
}

// Physical state as ibstat words it (IB spec PortPhysicalState codes).
std::string NormalPhysicalState(std::string_view value) {
  static const std::map<int, std::string> kByCode = {{1, "Sleep"},    {2, "Polling"},
                                                     {3, "Disabled"}, {4, "PortConfigurationTraining"},
                                                     {5, "LinkUp"},   {6, "LinkErrorRecovery"},
                                                     {7, "PhyTest"}};
  if (const auto code = StateCode(value); code && kByCode.count(*code)) return kByCode.at(*code);
  return std::string(value);
}

struct KeyValue {
  std::string_view key;
  std::string_view value;
};

std::optional<KeyValue> SplitKeyValue(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return KeyValue{Trim(line.substr(0, colon)), Trim(line.substr(colon + 1))};
}

// The name between the first pair of single quotes: "CA 'mlx5_2'      //VF" -> mlx5_2.
std::optional<std::string> Quoted(std::string_view line) {
  const auto open = line.find('\'');
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = line.find('\'', open + 1);
  if (close == std::string_view::npos || close == open + 1) return std::nullopt;
  return std::string(line.substr(open + 1, close - open - 1));
}

// The format a (trimmed) line tells, or nullopt for a line that tells none.
std::optional<PortListingFormat> FormatToldBy(std::string_view line) {
  if (StartsWith(line, "CA '")) return PortListingFormat::kIbstat;
  if (StartsWith(line, "Infiniband device '")) return PortListingFormat::kIbstatus;
  if (StartsWith(line, "hca_id:")) return PortListingFormat::kIbvDevinfo;
  if (Contains(line, "==>") && Contains(line, " port ")) return PortListingFormat::kIbdev2netdev;
  return std::nullopt;
}

// Every port of a full listing states these; one missing means the output was cut short.
std::optional<Error> CheckComplete(const IbPortReport& report, const std::string& origin) {
  for (const auto& port : report.ports) {
    const char* missing = port.state.empty()            ? "State"
                          : port.physical_state.empty() ? "Physical state"
                          : !port.rate_gbit_per_s       ? "Rate"
                          : port.link_layer.empty()     ? "Link layer"
                                                        : nullptr;
    if (missing) {
      return ErrorAt(origin, port.line, port.Name() + " has no " + missing + " (truncated output?)");
    }
  }
  return std::nullopt;
}

Result<IbPortReport> ParseIbstat(std::string_view output, const std::string& origin) {
  IbPortReport report;
  report.format = PortListingFormat::kIbstat;
  std::string ca, ca_type, firmware;
  int ca_line = 0;
  bool ca_has_port = false;
  bool in_port = false;
  auto close_ca = [&]() -> std::optional<Error> {
    if (ca_line && !ca_has_port) return ErrorAt(origin, ca_line, "CA '" + ca + "' lists no port (truncated output?)");
    return std::nullopt;
  };
  TextLines lines(output);
  while (const auto next = lines.Next()) {
    const int line = next->number;
    const std::string_view text = Trim(next->text);
    if (StartsWith(text, "ibpanic:") || StartsWith(text, "ibwarn:") || StartsWith(text, "ibstat:")) {
      if (report.tool_error.empty()) report.tool_error = std::string(text.substr(0, 300));
      continue;
    }
    if (StartsWith(text, "CA '")) {
      if (auto error = close_ca()) return *error;
      const auto name = Quoted(text);
      if (!name) return ErrorAt(origin, line, "expected CA '<name>', got " + QuoteForMessage(text));
      ca = *name;
      ca_type.clear();
      firmware.clear();
      ca_line = line;
      ca_has_port = false;
      in_port = false;
      continue;
    }
    if (!ca_line) continue;  // a prompt or banner before the first CA
    const auto kv = SplitKeyValue(text);
    if (!kv) continue;
    if (kv->key == "CA type") {
      ca_type = std::string(kv->value);
    } else if (kv->key == "Firmware version" && !in_port) {
      firmware = std::string(kv->value);
    } else if (StartsWith(kv->key, "Port ") && kv->value.empty()) {
      const auto number = Whole<int>(Trim(kv->key.substr(5)));
      if (!number) return ErrorAt(origin, line, "expected 'Port <n>:', got " + QuoteForMessage(text));
      report.ports.push_back(IbPort{ca, *number, ca_type, "", "", std::nullopt, "", "", "", line, firmware});
      ca_has_port = true;
      in_port = true;
    } else if (in_port) {
      IbPort& port = report.ports.back();
      if (kv->key == "State") {
        port.state = std::string(kv->value);
      } else if (kv->key == "Physical state") {
        port.physical_state = std::string(kv->value);
      } else if (kv->key == "Link layer") {
        port.link_layer = std::string(kv->value);
      } else if (kv->key == "Rate") {
        port.rate_gbit_per_s = Whole<double>(kv->value);
        if (!port.rate_gbit_per_s) return ErrorAt(origin, line, "Rate of " + port.Name() + " is not a number: " + QuoteForMessage(kv->value));
      }
    }
  }
  if (auto error = close_ca()) return *error;
  if (auto error = CheckComplete(report, origin)) return *error;
  return report;
}

Result<IbPortReport> ParseIbstatus(std::string_view output, const std::string& origin) {
  IbPortReport report;
  report.format = PortListingFormat::kIbstatus;
  TextLines lines(output);
  while (const auto next = lines.Next()) {
    const int line = next->number;
    const std::string_view text = Trim(next->text);
    if (StartsWith(text, "Infiniband device '")) {
      // "Infiniband device 'mlx5_0' port 1 status:"
      const auto name = Quoted(text);
      const auto words = SplitWords(text);
      const auto number = words.size() >= 5 && words[3] == "port" ? Whole<int>(words[4]) : std::nullopt;
      if (!name || !number) return ErrorAt(origin, line, "expected \"Infiniband device '<name>' port <n> status:\", got " + QuoteForMessage(text));
      report.ports.push_back(IbPort{*name, *number, "", "", "", std::nullopt, "", "", "", line, ""});
      continue;
    }
    if (report.ports.empty()) continue;
    const auto kv = SplitKeyValue(text);
    if (!kv) continue;
    IbPort& port = report.ports.back();
    if (kv->key == "state") {
      port.state = NormalPortState(kv->value);
    } else if (kv->key == "phys state") {
      port.physical_state = NormalPhysicalState(kv->value);
    } else if (kv->key == "link_layer") {
      port.link_layer = std::string(kv->value);
    } else if (kv->key == "rate") {
      const auto words = SplitWords(kv->value);  // "200 Gb/sec (4X HDR)"
      port.rate_gbit_per_s = words.empty() ? std::nullopt : Whole<double>(words[0]);
      if (!port.rate_gbit_per_s) return ErrorAt(origin, line, "rate of " + port.Name() + " is not '<n> Gb/sec': " + QuoteForMessage(kv->value));
    }
  }
  if (auto error = CheckComplete(report, origin)) return *error;
  return report;
}

// ibv_devinfo -v: rate = active_width x active_speed ("4X (2)" x "100.0 Gbps (128)" = 400).
Result<IbPortReport> ParseIbvDevinfo(std::string_view output, const std::string& origin) {
  IbPortReport report;
  report.format = PortListingFormat::kIbvDevinfo;
  std::string ca, ca_type, firmware;
  std::map<std::size_t, std::pair<std::optional<double>, std::optional<double>>> width_speed;
  TextLines lines(output);
  while (const auto next = lines.Next()) {
    const int line = next->number;
    const auto kv = SplitKeyValue(Trim(next->text));
    if (!kv) continue;
    if (kv->key == "hca_id") {
      ca = std::string(kv->value);
      ca_type.clear();
      firmware.clear();
      if (ca.empty()) return ErrorAt(origin, line, "hca_id without a device name");
      continue;
    }
    if (ca.empty()) continue;
    if (kv->key == "vendor_part_id") {
      ca_type = "MT" + std::string(kv->value);
    } else if (kv->key == "fw_ver") {
      firmware = std::string(kv->value);
    } else if (kv->key == "port") {
      const auto number = Whole<int>(kv->value);
      if (!number) return ErrorAt(origin, line, "expected 'port: <n>', got " + QuoteForMessage(kv->value));
      report.ports.push_back(IbPort{ca, *number, ca_type, "", "", std::nullopt, "", "", "", line, firmware});
    } else if (!report.ports.empty() && report.ports.back().ca == ca) {
      IbPort& port = report.ports.back();
      auto& [width, speed] = width_speed[report.ports.size() - 1];
      const auto first_word = [&]() {
        const auto words = SplitWords(kv->value);
        return words.empty() ? std::string_view() : words[0];
      };
      if (kv->key == "state") {
        port.state = NormalPortState(kv->value);
      } else if (kv->key == "phys_state") {
        port.physical_state = NormalPhysicalState(kv->value);
      } else if (kv->key == "link_layer") {
        port.link_layer = std::string(kv->value);
      } else if (kv->key == "active_width") {
        std::string_view word = first_word();
        if (!word.empty() && (word.back() == 'X' || word.back() == 'x')) word.remove_suffix(1);
        width = Whole<double>(word);
      } else if (kv->key == "active_speed") {
        speed = Whole<double>(first_word());
      }
      if (width && speed) port.rate_gbit_per_s = *width * *speed;
    }
  }
  for (const auto& port : report.ports) {
    if (port.state.empty() || port.link_layer.empty()) {
      return ErrorAt(origin, port.line, port.Name() + " has no state or link_layer (truncated output?)");
    }
  }
  return report;
}

// ibdev2netdev: "mlx5_0 port 1 ==> ibp24s0 (Up)", optionally followed by "# note". The link
// layer is inferred from the netdev: IPoIB interfaces are named ib*, Ethernet ones are not.
Result<IbPortReport> ParseIbdev2netdev(std::string_view output, const std::string& origin) {
  IbPortReport report;
  report.format = PortListingFormat::kIbdev2netdev;
  TextLines lines(output);
  while (const auto next = lines.Next()) {
    const int line = next->number;
    std::string_view text = WithoutCarriageReturn(next->text);
    if (!Contains(text, "==>")) continue;
    text = text.substr(0, text.find('#'));
    const auto words = SplitWords(text);
    const auto number = words.size() >= 6 && words[1] == "port" ? Whole<int>(words[2]) : std::nullopt;
    if (!number || words[3] != "==>" || words[5].size() < 3 || words[5].front() != '(' || words[5].back() != ')') {
      return ErrorAt(origin, line, "expected '<dev> port <n> ==> <netdev> (Up|Down)', got " + QuoteForMessage(Trim(next->text)));
    }
    IbPort port;
    port.ca = std::string(words[0]);
    port.port = *number;
    port.netdev = std::string(words[4]);
    port.netdev_state = std::string(words[5].substr(1, words[5].size() - 2));
    port.link_layer = StartsWith(port.netdev, "ib") ? "InfiniBand" : "Ethernet";
    port.line = line;
    report.ports.push_back(std::move(port));
  }
  return report;
}

}  // namespace

const char* PortListingFormatName(PortListingFormat format) {
  switch (format) {
    case PortListingFormat::kIbstat: return "ibstat";
    case PortListingFormat::kIbstatus: return "ibstatus";
    case PortListingFormat::kIbvDevinfo: return "ibv_devinfo";
    case PortListingFormat::kIbdev2netdev: return "ibdev2netdev";
    case PortListingFormat::kIbverbs: return "libibverbs (ibverbs.txt)";
  }
  return "?";
}

Result<IbPortReport> ParseIbPorts(const std::string& text, const std::string& origin) {
  // The first line that tells the format; without one, the error names the last line.
  std::optional<PortListingFormat> format;
  int last_line = 1;
  for (TextLines lines(text); !format;) {
    const auto line = lines.Next();
    if (!line) break;
    last_line = line->number;
    format = FormatToldBy(Trim(line->text));
  }
  if (!format) {
    return ErrorAt(origin, last_line,
              "no InfiniBand port listing: expected ibstat (CA '<name>' blocks), ibv_devinfo (hca_id:), "
              "ibstatus or ibdev2netdev output");
  }
  switch (*format) {
    case PortListingFormat::kIbstat: return ParseIbstat(text, origin);
    case PortListingFormat::kIbstatus: return ParseIbstatus(text, origin);
    case PortListingFormat::kIbvDevinfo: return ParseIbvDevinfo(text, origin);
    case PortListingFormat::kIbdev2netdev: return ParseIbdev2netdev(text, origin);
    case PortListingFormat::kIbverbs: break;  // never detected here: ibverbs.txt has its own parser
  }
  return ErrorAt(origin, 1, "unknown format");
}

}  // namespace gpuconform::ib_tools
