#include "probes/ib_counters/ib_counters_parse.h"

#include <limits>
#include <regex>

#include "harness/util/line_source.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::ib_counters {

namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

CounterValue ValueOf(const CounterInfo& info, std::uint64_t value) {
  const std::uint64_t max = info.width_bits >= 64 ? std::numeric_limits<std::uint64_t>::max()
                                                  : (std::uint64_t{1} << info.width_bits) - 1;
  return {value, value >= max};
}

Result<CounterReport> ParseSysfs(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  CounterReport report{origin, "sysfs", {}};
  for (const auto& record : *records) {
    if (record.kind == "ib-counters") continue;
    if (record.kind != "counter") return ErrorAt(origin, record.line, "unexpected '" + record.kind + "' record");
    const std::string device = record.Get("device");
    const std::string port = record.Get("port");
    if (device.empty() || port.empty()) return ErrorAt(origin, record.line, "a counter needs device= and port=");
    const CounterInfo* info = FindCounter(record.Get("name"));
    if (info == nullptr) continue;  // a counter gpuconform does not judge (the data counters)
    const auto value = WholeCount(record.Get("value"));
    if (!value) return ErrorAt(origin, record.line, "value='" + record.Get("value") + "' is not a count");
    if (report.ports.empty() || report.ports.back().device != device || report.ports.back().port != port) {
      report.ports.push_back({device, "", port, {}});
    }
    report.ports.back().counters[info->name] = ValueOf(*info, *value);
  }
  return report;
}

Result<CounterReport> ParsePerfquery(const std::string& text, const std::string& origin) {
  static const std::regex kHeader(R"(^# Port (?:extended )?counters: Lid (\d+) port (\d+|ALL|255)\b.*)");
  static const std::regex kLine(R"(^([A-Za-z0-9]+):\.*(.*)$)");
  CounterReport report{origin, "perfquery", {}};
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    const std::string line(Trim(line_view));
    if (line.empty() || line.size() > 4096) continue;
    std::smatch match;
    if (std::regex_match(line, match, kHeader)) {
      report.ports.push_back({"LID " + match[1].str(), "", match[2].str(), {}});
      continue;
    }
    if (!std::regex_match(line, match, kLine)) continue;
    const CounterInfo* info = FindCounter(match[1].str());
    if (info == nullptr) continue;
    if (report.ports.empty()) return ErrorAt(origin, number, "a counter before any '# Port counters' header");
    const auto value = WholeCount(match[2].str());
    if (!value) return ErrorAt(origin, number, match[1].str() + ": '" + match[2].str() + "' is not a count");
    report.ports.back().counters[info->name] = ValueOf(*info, *value);
  }
  if (report.ports.empty()) return ErrorAt(origin, 1, "no '# Port counters: Lid N port P' header (perfquery -x)");
  return report;
}

Result<CounterReport> ParseIbqueryerrors(const std::string& text, const std::string& origin) {
  static const std::regex kNode(R"(^Errors for (.*)$)");
  static const std::regex kPort(R"(^GUID (0x[0-9a-fA-F]+) port (\d+|ALL):\s*(.*)$)");
  static const std::regex kCounter(R"(\[([A-Za-z0-9]+) == (\d+)\])");
  CounterReport report{origin, "ibqueryerrors", {}};
  std::string node;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    const std::string line(Trim(line_view));
    if (line.empty() || line.size() > 4096) continue;
    std::smatch match;
    if (std::regex_match(line, match, kNode)) {
      // "Errors for "dl380g7 mlx4_0"" (an HCA) or "Errors for 0x2c903006e29b0 "MF0;...:SX6036/U1""
      // (a switch, its GUID first): the quoted description names it.
      node = match[1].str();
      const auto open = node.find('"');
      const auto close = node.rfind('"');
      if (open != std::string::npos && close > open) node = node.substr(open + 1, close - open - 1);
      continue;
    }
    if (!std::regex_match(line, match, kPort)) continue;
    PortCounters port{"GUID " + match[1].str(), node, match[2].str(), {}};
    const std::string counters = match[3].str();
    for (std::sregex_iterator it(counters.begin(), counters.end(), kCounter), end; it != end; ++it) {
      const CounterInfo* info = FindCounter((*it)[1].str());
      if (info == nullptr) continue;
      const auto value = WholeCount((*it)[2].str());
      if (!value) return ErrorAt(origin, next->number, (*it)[1].str() + ": not a count");
      port.counters[info->name] = ValueOf(*info, *value);
    }
    report.ports.push_back(port);
  }
  if (report.ports.empty() && text.find("Errors for") == std::string::npos &&
      text.find("ports checked") == std::string::npos) {
    return ErrorAt(origin, 1, "no 'Errors for' block nor summary (ibqueryerrors)");
  }
  return report;
}

}  // namespace

const std::vector<CounterInfo>& KnownCounters() {
  static const std::vector<CounterInfo> kCounters = {
      {"symbol_error", "SymbolErrorCounter", 16, CounterKind::kPhysical, 10},
      {"link_error_recovery", "LinkErrorRecoveryCounter", 8, CounterKind::kPhysical, 0},
      {"link_downed", "LinkDownedCounter", 8, CounterKind::kLinkDown, 0},
      {"port_rcv_errors", "PortRcvErrors", 16, CounterKind::kPhysical, 10},
      {"port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors", 16, CounterKind::kPhysical, 100},
      {"local_link_integrity_errors", "LocalLinkIntegrityErrors", 4, CounterKind::kPhysical, 10},
      {"excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors", 4, CounterKind::kPhysical, 10},
      {"port_rcv_switch_relay_errors", "PortRcvSwitchRelayErrors", 16, CounterKind::kDiscard, 100},
      {"port_xmit_discards", "PortXmitDiscards", 16, CounterKind::kDiscard, 100},
      {"port_xmit_constraint_errors", "PortXmitConstraintErrors", 8, CounterKind::kDiscard, 100},
      {"port_rcv_constraint_errors", "PortRcvConstraintErrors", 8, CounterKind::kDiscard, 100},
      {"VL15_dropped", "VL15Dropped", 16, CounterKind::kDiscard, 0},
      {"port_xmit_wait", "PortXmitWait", 32, CounterKind::kCongestion, kNoLimit},
  };
  return kCounters;
}

const CounterInfo* FindCounter(const std::string& name) {
  for (const auto& info : KnownCounters()) {
    if (info.name == name || info.perfquery_name == name) return &info;
  }
  return nullptr;
}

Result<CounterReport> ParseIbCounters(const std::string& text, const std::string& origin) {
  for (const auto line_view : SplitLines(text)) {
    const std::string_view line = Trim(line_view);
    if (line.empty()) continue;
    if (line.starts_with("ib-counters ") || line.starts_with("counter ")) return ParseSysfs(text, origin);
    if (line.starts_with("# Port ")) return ParsePerfquery(text, origin);
    if (line.starts_with("Errors for ") || line.starts_with("## Summary") || line == "# ibqueryerrors") {
      return ParseIbqueryerrors(text, origin);
    }
    if (line.starts_with("#")) continue;  // our own comment lines
    break;
  }
  return ErrorAt(origin, 1,
                 "not InfiniBand counters: expected gpuconform's ib-counters records, perfquery -x or ibqueryerrors");
}

}  // namespace gpuconform::ib_counters
