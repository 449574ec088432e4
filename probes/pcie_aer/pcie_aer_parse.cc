#include "probes/pcie_aer/pcie_aer_parse.h"

#include <limits>
#include <optional>
#include <regex>

#include "harness/util/line_source.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/pci_devices/pci_devices.h"

namespace gpuconform::pcie_aer {

namespace {

// The correctable errors the kernel counts in aer_dev_correctable (drivers/pci/pcie/aer.c):
// a group of "NAME count" lines with none of the uncorrectable names is the correctable file.
bool IsCorrectableName(std::string_view name) {
  static const std::vector<std::string_view> kNames = {"RxErr",       "BadTLP",     "BadDLLP",  "Rollover",
                                                       "Timeout",     "NonFatalErr", "CorrIntErr", "HeaderOF",
                                                       "TOTAL_ERR_COR"};
  for (const auto known : kNames) {
    if (name == known) return true;
  }
  return false;
}

std::optional<Severity> SeverityOfFile(std::string_view file) {
  if (file == "aer_dev_correctable") return Severity::kCorrectable;
  if (file == "aer_dev_nonfatal") return Severity::kNonFatal;
  if (file == "aer_dev_fatal") return Severity::kFatal;
  return std::nullopt;
}

std::optional<Severity> SeverityOfTotal(std::string_view name) {
  if (name == "TOTAL_ERR_COR") return Severity::kCorrectable;
  if (name == "TOTAL_ERR_NONFATAL") return Severity::kNonFatal;
  if (name == "TOTAL_ERR_FATAL") return Severity::kFatal;
  return std::nullopt;
}

SeverityCounts& CountsOf(AerDevice& device, Severity severity) {
  switch (severity) {
    case Severity::kCorrectable: return device.correctable;
    case Severity::kNonFatal: return device.nonfatal;
    case Severity::kFatal: return device.fatal;
  }
  return device.correctable;
}

// One "NAME count" line into the device: a TOTAL_ERR_* line is the file's total, any other
// an error's count.
void AddCount(AerDevice& device, Severity severity, const std::string& name, std::uint64_t value) {
  SeverityCounts& counts = CountsOf(device, severity);
  counts.read = true;
  if (SeverityOfTotal(name)) {
    counts.total = value;
  } else {
    counts.errors[name] = value;
  }
}

// Where a file had no TOTAL_ERR_* line (a truncated dump), its total is the sum of its errors.
void FillMissingTotals(AerDevice& device, const std::map<Severity, bool>& has_total) {
  for (const Severity severity : {Severity::kCorrectable, Severity::kNonFatal, Severity::kFatal}) {
    SeverityCounts& counts = CountsOf(device, severity);
    const auto found = has_total.find(severity);
    if (!counts.read || (found != has_total.end() && found->second)) continue;
    std::uint64_t sum = 0;
    for (const auto& [name, value] : counts.errors) sum = value > std::numeric_limits<std::uint64_t>::max() - sum
                                                                ? std::numeric_limits<std::uint64_t>::max()
                                                                : sum + value;
    counts.total = sum;
  }
}

std::string CanonicalOrAsIs(const std::string& address) {
  const auto canonical = pci_devices::CanonicalBusId(address);
  return canonical ? *canonical : address;
}

AerDevice* FindDevice(AerReport& report, const std::string& address) {
  for (auto& device : report.devices) {
    if (device.address == address) return &device;
  }
  return nullptr;
}

Result<AerReport> ParseRecords(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  AerReport report{origin, "sysfs", false, {}};
  std::map<std::string, std::map<Severity, bool>> has_total;
  for (const auto& record : *records) {
    if (record.kind == "aer") continue;
    const auto address = pci_devices::CanonicalBusId(record.Get("address"));
    if (!address) return ErrorAt(origin, record.line, "address='" + record.Get("address") + "' is not a PCI address");
    if (record.kind == "device") {
      if (FindDevice(report, *address) != nullptr) return ErrorAt(origin, record.line, *address + " listed twice");
      AerDevice device;
      device.address = *address;
      device.class_code = record.Get("class");
      device.vendor = record.Get("vendor");
      device.parent = CanonicalOrAsIs(record.Get("parent"));
      device.kind = KindOfClass(device.class_code);
      device.line = record.line;
      report.devices.push_back(std::move(device));
      continue;
    }
    if (record.kind != "counter") return ErrorAt(origin, record.line, "unexpected '" + record.kind + "' record");
    AerDevice* device = FindDevice(report, *address);
    if (device == nullptr) return ErrorAt(origin, record.line, "a counter of " + *address + " before its device record");
    const auto severity = SeverityOfFile(record.Get("file"));
    if (!severity) return ErrorAt(origin, record.line, "file='" + record.Get("file") + "' is not an aer_dev_* file");
    const std::string name = record.Get("name");
    if (name.empty()) return ErrorAt(origin, record.line, "a counter needs name=");
    const auto value = WholeCount(record.Get("value"));
    if (!value) return ErrorAt(origin, record.line, "value='" + record.Get("value") + "' is not a count");
    AddCount(*device, *severity, name, *value);
    if (SeverityOfTotal(name)) has_total[*address][*severity] = true;
  }
  for (auto& device : report.devices) FillMissingTotals(device, has_total[device.address]);
  return report;
}

// "RxErr 0", or grep's "/sys/bus/pci/devices/0000:19:00.0/aer_dev_correctable:RxErr 0".
const std::regex& DumpLine() {
  static const std::regex kLine(R"(^(?:(.*)/(aer_dev_[a-z]+):)?([A-Za-z_][A-Za-z0-9_]*)[ \t]+([0-9]+)$)");
  return kLine;
}

// The device a dump's path names: its PCI address where a path component is one, else the
// directory (a class link such as /sys/class/drm/card1/device).
std::string DeviceOfDirectory(const std::string& dir) {
  if (dir.empty()) return "device";
  std::size_t end = dir.size();
  while (end > 0) {
    const std::size_t slash = dir.rfind('/', end - 1);
    const std::size_t start = slash == std::string::npos ? 0 : slash + 1;
    if (const auto address = pci_devices::CanonicalBusId(std::string_view(dir).substr(start, end - start))) {
      return *address;
    }
    if (slash == std::string::npos) break;
    end = slash;
  }
  return dir;
}

Result<AerReport> ParseDump(const std::string& text, const std::string& origin) {
  AerReport report{origin, "sysfs-dump", false, {}};
  std::map<std::string, std::map<Severity, bool>> has_total;
  // Lines of a bare file (no path) wait for the TOTAL_ERR_* line that says which file it was.
  struct Pending {
    int line;
    std::string name;
    std::uint64_t value;
  };
  std::vector<Pending> pending;
  auto device_at = [&](const std::string& address, int line) -> AerDevice& {
    if (AerDevice* found = FindDevice(report, address)) return *found;
    AerDevice device;
    device.address = address;
    device.line = line;
    report.devices.push_back(std::move(device));
    return report.devices.back();
  };
  auto flush = [&](Severity severity) {
    if (pending.empty()) return;
    AerDevice& device = device_at("device", pending.front().line);
    for (const auto& p : pending) AddCount(device, severity, p.name, p.value);
    pending.clear();
  };
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    const std::string line(Trim(line_view));
    if (line.empty() || line.starts_with("#")) continue;
    std::smatch match;
    if (line.size() > 4096 || !std::regex_match(line, match, DumpLine())) {
      return ErrorAt(origin, number, "not an aer_dev_* counter line (\"NAME count\")");
    }
    const std::string name = match[3].str();
    const auto value = WholeCount(match[4].str());
    if (!value) return ErrorAt(origin, number, name + ": '" + match[4].str() + "' is not a count");
    if (match[2].matched) {
      const auto severity = SeverityOfFile(match[2].str());
      if (!severity) return ErrorAt(origin, number, match[2].str() + " is not an aer_dev_* file");
      const std::string address = DeviceOfDirectory(match[1].str());
      AddCount(device_at(address, number), *severity, name, *value);
      if (SeverityOfTotal(name)) has_total[address][*severity] = true;
      continue;
    }
    pending.push_back({number, name, *value});
    if (const auto severity = SeverityOfTotal(name)) {
      has_total["device"][*severity] = true;
      flush(*severity);
    }
  }
  if (!pending.empty()) {
    for (const auto& p : pending) {
      if (!IsCorrectableName(p.name)) {
        return ErrorAt(origin, p.line,
                       p.name + ": counters without a TOTAL_ERR_* line or an aer_dev_* path, so their file "
                                "(non-fatal or fatal) is unknown");
      }
    }
    flush(Severity::kCorrectable);
  }
  for (auto& device : report.devices) FillMissingTotals(device, has_total[device.address]);
  return report;
}

// "19:00.0 3D controller: NVIDIA ..." or, with -D, "0000:19:00.0 ..."; with -nn the class is
// also given as "[0302]".
const std::regex& LspciHeader() {
  static const std::regex kHeader(R"(^((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]) ([^:]*):.*$)");
  return kHeader;
}

std::string LspciClassCode(const std::string& class_text) {
  static const std::regex kNumeric(R"(\[([0-9a-fA-F]{4})\])");
  std::smatch match;
  if (std::regex_search(class_text, match, kNumeric)) return "0x" + Lowercase(match[1].str()) + "00";
  static const std::vector<std::pair<std::string_view, std::string_view>> kNames = {
      {"VGA compatible controller", "0x030000"}, {"3D controller", "0x030200"},
      {"Display controller", "0x038000"},        {"Ethernet controller", "0x020000"},
      {"Infiniband controller", "0x020700"},     {"Network controller", "0x028000"},
      {"PCI bridge", "0x060400"}};
  for (const auto& [name, code] : kNames) {
    if (StartsWith(class_text, name)) return std::string(code);
  }
  return "";
}

// "RxErr+ BadTLP- ..." -> name -> set; a token that is not a flag is an error.
Result<std::map<std::string, bool>> Flags(std::string_view list, const std::string& origin, int number) {
  std::map<std::string, bool> flags;
  for (const std::string_view word : SplitWords(list)) {
    if (word.size() < 2 || (word.back() != '+' && word.back() != '-')) {
      return ErrorAt(origin, number, QuoteForMessage(word) + " is not a +/- flag");
    }
    flags[std::string(word.substr(0, word.size() - 1))] = word.back() == '+';
  }
  return flags;
}

Result<AerReport> ParseLspci(const std::string& text, const std::string& origin) {
  AerReport report{origin, "lspci", true, {}};
  std::optional<AerDevice> device;
  std::map<std::string, bool> ue_status;
  std::map<std::string, bool> ue_severity;
  bool has_aer = false;
  bool has_ue_status = false;
  auto close = [&]() {
    if (device && has_aer) {
      device->nonfatal.read = device->fatal.read = has_ue_status;
      for (const auto& [name, set] : ue_status) {
        if (!set) continue;
        // A '+' in the severity register makes the error fatal; without the register, the
        // error is counted non-fatal (uncorrected, its severity not shown).
        const auto severe = ue_severity.find(name);
        SeverityCounts& counts = severe != ue_severity.end() && severe->second ? device->fatal : device->nonfatal;
        counts.errors[name] = 1;
        ++counts.total;
      }
      report.devices.push_back(std::move(*device));
    }
    device.reset();
    ue_status.clear();
    ue_severity.clear();
    has_aer = has_ue_status = false;
  };
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    if (line_view.size() > 4096) continue;
    const std::string raw(line_view);
    std::smatch match;
    if (!raw.empty() && raw[0] != ' ' && raw[0] != '\t' && std::regex_match(raw, match, LspciHeader())) {
      close();
      device = AerDevice{};
      device->address = CanonicalOrAsIs(match[1].str());
      device->class_code = LspciClassCode(match[2].str());
      device->kind = KindOfClass(device->class_code);
      device->line = number;
      continue;
    }
    if (!device) continue;
    const std::string_view line = Trim(line_view);
    for (const auto& [prefix, target] : {std::pair<std::string_view, int>{"CESta:", 0}, {"UESta:", 1}, {"UESvrt:", 2}}) {
      if (!StartsWith(line, prefix)) continue;
      auto flags = Flags(line.substr(prefix.size()), origin, number);
      if (!flags) return Error{flags.error()};
      if (target == 0) {
        has_aer = true;
        device->correctable.read = true;
        for (const auto& [name, set] : *flags) {
          if (!set) continue;
          device->correctable.errors[name] = 1;
          ++device->correctable.total;
        }
      } else if (target == 1) {
        has_aer = has_ue_status = true;
        ue_status = std::move(*flags);
      } else {
        ue_severity = std::move(*flags);
      }
    }
  }
  close();
  return report;
}

}  // namespace

DeviceKind KindOfClass(std::string_view class_code) {
  if (StartsWith(class_code, "0x")) class_code.remove_prefix(2);
  if (class_code.size() < 4) return DeviceKind::kOther;
  const std::string code = Lowercase(class_code.substr(0, 4));
  if (code.starts_with("03")) return DeviceKind::kGpu;
  if (code.starts_with("02")) return DeviceKind::kNic;
  if (code == "0604") return DeviceKind::kBridge;
  return DeviceKind::kOther;
}

const char* KindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kGpu: return "GPU";
    case DeviceKind::kNic: return "NIC";
    case DeviceKind::kBridge: return "bridge";
    case DeviceKind::kOther: return "device";
  }
  return "device";
}

const SeverityCounts& AerDevice::Counts(Severity severity) const {
  switch (severity) {
    case Severity::kCorrectable: return correctable;
    case Severity::kNonFatal: return nonfatal;
    case Severity::kFatal: return fatal;
  }
  return correctable;
}

Result<AerReport> ParseAer(const std::string& text, const std::string& origin) {
  int stopped_at = 1;  // the line that named no format
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    stopped_at = next->number;
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    const std::string_view line = Trim(line_view);
    if (line.empty() || line.starts_with("#")) continue;
    if (line.starts_with("aer ") || line.starts_with("device ") || line.starts_with("counter ")) {
      return ParseRecords(text, origin);
    }
    if (line.size() > 4096) break;
    const std::string first(line_view);
    if (std::regex_match(first, LspciHeader())) return ParseLspci(text, origin);
    if (std::regex_match(std::string(line), DumpLine())) return ParseDump(text, origin);
    break;
  }
  return ErrorAt(origin, stopped_at,
                 "not PCIe AER counters: expected gpuconform's aer records, aer_dev_* files or lspci -vvv");
}

}  // namespace gpuconform::pcie_aer
