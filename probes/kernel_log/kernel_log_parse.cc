#include "probes/kernel_log/kernel_log_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <optional>

#include "harness/util/text_util.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/pci_devices/pci_devices.h"

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

// The first PCI address in the text as written, "0000:a1:00.0" or "0000:a1:00" (the XID
// line's form, completed as function 0), and where it starts; npos when there is none.
struct FoundAddress {
  std::size_t at = std::string_view::npos;
  std::size_t size = 0;
  std::string address;
};

FoundAddress FirstPciAddress(std::string_view text) {
  for (std::size_t i = 0; i + 10 <= text.size(); ++i) {
    if (i > 0 && IsHex(text[i - 1])) continue;
    if (!HexRun(text, i, 4) || text[i + 4] != ':' || !HexRun(text, i + 5, 2) || text[i + 7] != ':' ||
        !HexRun(text, i + 8, 2)) {
      continue;
    }
    FoundAddress found{i, 10, std::string(text.substr(i, 10))};
    if (i + 12 <= text.size() && text[i + 10] == '.' && IsHex(text[i + 11])) {
      found.address += text.substr(i + 10, 2);
      found.size = 12;
    } else {
      found.address += ".0";
    }
    return found;
  }
  return {};
}

// The first PCI address anywhere in the text, canonical as nvidia-smi spells bus ids.
std::string FindPciAddress(std::string_view text) {
  const FoundAddress found = FirstPciAddress(text);
  return found.at == std::string_view::npos ? "" : nvidia_smi::CanonicalBusId(found.address);
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


// ---- PCIe AER reports ----

std::optional<AerSeverity> AerSeverityIn(std::string_view text) {
  // "Corrected", "Correctable", "Uncorrected (Non-Fatal)", "Uncorrectable (Fatal)"
  if (Contains(text, "Non-Fatal") || Contains(text, "NonFatal") || Contains(text, "Nonfatal")) {
    return AerSeverity::kNonFatal;
  }
  if (Contains(text, "Fatal")) return AerSeverity::kFatal;
  if (Contains(text, "Uncorrect")) return AerSeverity::kNonFatal;
  if (Contains(text, "Correct")) return AerSeverity::kCorrected;
  return std::nullopt;
}

std::string SysfsAddress(const std::string& address) {
  const auto canonical = pci_devices::CanonicalBusId(address);
  return canonical ? *canonical : address;
}

// "id=0010": a requester ID (bus << 8 | device << 3 | function) in the reporting port's domain.
std::string RequesterAddress(std::string_view id, const std::string& reporter) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(id.data(), id.data() + std::min<std::size_t>(id.size(), 4), value, 16);
  if (error != std::errc() || end == id.data()) return "";
  const std::string domain = reporter.substr(0, reporter.find(':'));
  char address[32];
  std::snprintf(address, sizeof(address), "%s:%02x:%02x.%x", domain.empty() ? "0000" : domain.c_str(),
                (value >> 8) & 0xffu, (value >> 3) & 0x1fu, value & 0x7u);
  return address;
}

// The value of "key=" in an AER line, up to the next ',' ("severity=Corrected, type=...").
std::string FieldOf(std::string_view text, std::string_view key) {
  const std::size_t at = text.find(key);
  if (at == std::string_view::npos) return "";
  std::string_view value = text.substr(at + key.size());
  return std::string(Trim(value.substr(0, value.find(','))));
}

// "   [ 5] Surprise Down Error    (First)" -> "Surprise Down Error"; empty when not such a line.
std::string AerErrorName(std::string_view text) {
  text = Trim(text);
  if (text.empty() || text.front() != '[') return "";
  const std::size_t close = text.find(']');
  if (close == std::string_view::npos || close > 6) return "";
  for (const char c : text.substr(1, close - 1)) {
    if (c != ' ' && (c < '0' || c > '9')) return "";
  }
  std::string_view name = Trim(text.substr(close + 1));
  if (name.ends_with("(First)")) name = Trim(name.substr(0, name.size() - 7));
  return std::string(name);
}

// Reads the AER lines into log.aer_events: a report's "error received" line opens it, naming
// the source; each "PCIe Bus Error" line that follows is one device's error status, its
// "[NN] name" lines the errors. A report with no details stays as the source it named.
class AerReader {
 public:
  explicit AerReader(KernelLog& log) : log_(log) {}

  void Read(std::string_view line, int number) {
    const FoundAddress found = FirstPciAddress(line);
    if (found.at == std::string_view::npos) return;
    const std::string address = SysfsAddress(found.address);
    std::string_view rest = line.substr(found.at + found.size);
    if (!rest.empty() && rest.front() == ':') rest.remove_prefix(1);
    const std::string_view before = Trim(line.substr(0, found.at));
    const std::size_t space = before.find_last_of(" \t");
    std::string driver(space == std::string_view::npos ? before : before.substr(space + 1));
    if (driver.empty() || driver.back() == ']' || driver.back() == ':') driver.clear();
    const std::string timestamp = TimestampOf(before.substr(0, before.size() - driver.size()));

    if (Contains(rest, "AER:") && (Contains(rest, "received:") || Contains(rest, "received from"))) {
      const auto severity = AerSeverityIn(rest.substr(0, rest.find("received")));
      if (!severity) return;
      const std::size_t from = rest.find("received") + 8;
      std::string_view source = Trim(rest.substr(from));
      if (StartsWith(source, ":")) source = Trim(source.substr(1));
      if (StartsWith(source, "from")) source = Trim(source.substr(4));
      AerEvent event;
      event.line = number;
      event.reported_by = address;
      event.severity = *severity;
      event.timestamp = timestamp;
      if (StartsWith(source, "id=")) {
        event.device.address = RequesterAddress(source.substr(3), address);
      } else {
        const FoundAddress named = FirstPciAddress(source);
        if (named.at != std::string_view::npos) event.device.address = SysfsAddress(named.address);
      }
      if (event.device.address.empty()) event.device.address = address;
      if (event.device.address == address) event.device.driver = driver;
      log_.aer_events.push_back(std::move(event));
      bare_header_ = static_cast<int>(log_.aer_events.size()) - 1;
      reporter_ = address;
      current_ = bare_header_;
      return;
    }
    if (Contains(rest, "PCIe Bus Error:")) {
      const auto severity = AerSeverityIn(FieldOf(rest, "severity="));
      if (!severity) return;
      // The report's details replace the bare source its header named.
      if (bare_header_ >= 0 && bare_header_ == static_cast<int>(log_.aer_events.size()) - 1) {
        log_.aer_events.pop_back();
      }
      bare_header_ = -1;
      AerEvent event;
      event.line = number;
      event.device = {address, driver};
      event.reported_by = reporter_;
      event.severity = *severity;
      event.layer = FieldOf(rest, "type=");
      event.timestamp = timestamp;
      log_.aer_events.push_back(std::move(event));
      current_ = static_cast<int>(log_.aer_events.size()) - 1;
      return;
    }
    if (current_ >= 0 && log_.aer_events[current_].device.address == address) {
      std::string name = AerErrorName(rest);
      if (!name.empty()) {
        log_.aer_events[current_].errors.push_back(std::move(name));
        return;
      }
    }
    if (Contains(rest, "no AER-aware driver") || Contains(rest, "can't recover") ||
        Contains(rest, "no error_detected callback")) {
      for (auto it = log_.aer_events.rbegin(); it != log_.aer_events.rend(); ++it) {
        if (it->severity == AerSeverity::kCorrected) continue;
        if (it->device.address == address) break;
        const bool known = std::any_of(it->affected.begin(), it->affected.end(),
                                       [&](const LoggedDevice& d) { return d.address == address; });
        if (!known) it->affected.push_back({address, driver});
        break;
      }
    }
  }

 private:
  KernelLog& log_;
  int bare_header_ = -1;  // the last report's header event, while no details followed it
  int current_ = -1;      // the event whose "[NN] name" lines are being read
  std::string reporter_;  // the port that received the last report
};

// Newer drivers say it over three lines ("The NVIDIA GPU 0000:18:00.0 / (PCI ID: ...)
// installed in this system has / fallen off the bus ..."): the address is up to two lines up.
// `above` holds the line above `line` and the one above that; `number` is line's.
XidEvent BusFallEvent(std::string_view line, const std::string (&above)[2], int number) {
  auto back = [&](int lines_up) -> std::string_view { return lines_up == 0 ? line : above[lines_up - 1]; };
  std::string bus_id;
  int first = 0;  // how many lines up the address is
  for (int up = 0; up <= 2 && up < number && bus_id.empty(); ++up) {
    bus_id = FindPciAddress(back(up));
    if (!bus_id.empty()) first = up;
  }
  XidEvent event;
  event.line = number - first;
  event.xid = 79;
  event.bus_id = bus_id;
  const std::string_view first_line = back(first);
  const std::size_t nvrm = first_line.find("NVRM:");
  event.timestamp = nvrm == std::string_view::npos ? "" : TimestampOf(first_line.substr(0, nvrm));
  event.message =
      std::string(Trim(line.substr(line.find("NVRM:") == std::string_view::npos ? 0 : line.find("NVRM:") + 6)));
  event.from_bus_message = true;
  return event;
}

}  // namespace

const char* AerSeverityName(AerSeverity severity) {
  switch (severity) {
    case AerSeverity::kCorrected: return "corrected";
    case AerSeverity::kNonFatal: return "non-fatal";
    case AerSeverity::kFatal: return "fatal";
  }
  return "corrected";
}

bool AerEvent::SurpriseDown() const {
  return std::any_of(errors.begin(), errors.end(), [](const std::string& error) {
    return error == "SDES" || Contains(error, "Surprise Down");
  });
}

Result<KernelLog> ParseKernelLog(LineSource& source, const std::string& origin) {
  KernelLog log;
  AerReader aer(log);
  // The two lines above the current one, as a fall off the bus names its GPU up to two lines up.
  std::string above[2];
  while (const auto next = source.Next()) {
    const std::string_view line = WithoutCarriageReturn(next->text);
    const int number = next->number;
    log.lines = number;
    aer.Read(line, number);
    if (auto event = XidLine(line, number)) {
      log.events.push_back(std::move(*event));
    } else if (Contains(line, "fallen off the bus")) {
      log.events.push_back(BusFallEvent(line, above, number));
    }
    std::swap(above[1], above[0]);
    above[0].assign(line);
  }
  if (const std::string error = source.error(); !error.empty()) return Error{origin + ": " + error};
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

Result<KernelLog> ParseKernelLog(const std::string& text, const std::string& origin) {
  TextLines lines(text);
  return ParseKernelLog(lines, origin);
}

}  // namespace gpuconform::kernel_log
