#include "probes/kernel_log/kernel_log_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "harness/text_util.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::kernel_log {

namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool HexRun(std::string_view text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return false;
  for (std::size_t i = at; i < at + count; ++i) {
    if (!IsHex(text[i])) return false;
  }
  return true;
}

// "0000:a1:00.0" or "0000:a1:00" (the XID line's form) anywhere in the text, canonical.
std::string FindPciAddress(std::string_view text) {
  for (std::size_t i = 0; i + 10 <= text.size(); ++i) {
    if (i > 0 && IsHex(text[i - 1])) continue;
    if (!HexRun(text, i, 4) || text[i + 4] != ':' || !HexRun(text, i + 5, 2) || text[i + 7] != ':' ||
        !HexRun(text, i + 8, 2)) {
      continue;
    }
    std::string address(text.substr(i, 10));
    if (i + 12 <= text.size() && text[i + 10] == '.' && IsHex(text[i + 11])) {
      address += text.substr(i + 10, 2);
    } else {
      address += ".0";
    }
    return nvidia_smi::CanonicalBusId(address);
  }
  return "";
}

// What precedes "NVRM:" on the line, less the `dmesg --decode` facility prefix and brackets:
// the time as the tool printed it.
std::string TimestampOf(std::string_view prefix) {
  std::string_view text = Trim(prefix);
  if (StartsWith(text, "kern ")) {
    const std::size_t second = text.find(':', text.find(':') + 1);
    text = second == std::string_view::npos ? std::string_view() : Trim(text.substr(second + 1));
  }
  // journalctl: "Feb 14 05:03:42 host kernel:" - the time is what precedes the host.
  if (text.size() > 7 && text.substr(text.size() - 7) == "kernel:") {
    text = Trim(text.substr(0, text.size() - 7));
    const std::size_t host = text.rfind(' ');
    text = host == std::string_view::npos ? std::string_view() : text.substr(0, host);
  }
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    text = close == std::string_view::npos ? text.substr(1) : text.substr(1, close - 1);
  }
  return std::string(Trim(text));
}

// "NVRM: Xid (PCI:0000:19:00): 48, pid=..., text" -> the event, or nothing.
std::optional<XidEvent> XidLine(std::string_view line, int number) {
  const std::size_t nvrm = line.find("NVRM: Xid");
  if (nvrm == std::string_view::npos) return std::nullopt;
  const std::string_view rest = line.substr(nvrm + 9);
  const std::size_t close = rest.find("):");
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view after = Trim(rest.substr(close + 2));
  int xid = 0;
  const auto [end, error] = std::from_chars(after.data(), after.data() + after.size(), xid);
  if (error != std::errc() || end == after.data() || xid <= 0) return std::nullopt;
  XidEvent event;
  event.line = number;
  event.xid = xid;
  event.bus_id = FindPciAddress(rest.substr(0, close));
  event.timestamp = TimestampOf(line.substr(0, nvrm));
  event.message = std::string(Trim(line.substr(nvrm + 6)));
  return event;
}

}  // namespace

Result<KernelLog> ParseKernelLog(const std::string& text, const std::string& origin) {
  (void)origin;  // every line is acceptable; kept for the parsers' common signature
  KernelLog log;
  const std::vector<std::string_view> lines = SplitLines(text);
  log.lines = static_cast<int>(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    if (auto event = XidLine(lines[i], number)) {
      log.events.push_back(std::move(*event));
      continue;
    }
    if (!Contains(lines[i], "fallen off the bus")) continue;
    // Newer drivers say it over three lines ("The NVIDIA GPU 0000:18:00.0 / (PCI ID: ...)
    // installed in this system has / fallen off the bus ..."): the address is up to two lines up.
    std::string bus_id;
    std::size_t first = i;
    for (std::size_t back = 0; back <= 2 && back <= i && bus_id.empty(); ++back) {
      bus_id = FindPciAddress(lines[i - back]);
      if (!bus_id.empty()) first = i - back;
    }
    XidEvent event;
    event.line = static_cast<int>(first) + 1;
    event.xid = 79;
    event.bus_id = bus_id;
    const std::size_t nvrm = lines[first].find("NVRM:");
    event.timestamp = nvrm == std::string_view::npos ? "" : TimestampOf(lines[first].substr(0, nvrm));
    event.message = std::string(
        Trim(lines[i].substr(lines[i].find("NVRM:") == std::string_view::npos ? 0 : lines[i].find("NVRM:") + 6)));
    event.from_bus_message = true;
    log.events.push_back(std::move(event));
  }
  // The same fall is often logged twice, as "Xid ... 79" and as a message; keep the Xid line.
  std::vector<std::string> xid79_buses;
  for (const XidEvent& event : log.events) {
    if (!event.from_bus_message && event.xid == 79) xid79_buses.push_back(event.bus_id);
  }
  std::erase_if(log.events, [&](const XidEvent& event) {
    return event.from_bus_message &&
           std::find(xid79_buses.begin(), xid79_buses.end(), event.bus_id) != xid79_buses.end();
  });
  return log;
}

}  // namespace gpuconform::kernel_log
