#include "probes/pci_devices/pci_devices.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::pci_devices {

namespace {

// Hex digits only, at most max_digits of them (NCCL reads bus ids into an int64, so no
// spelling it accepts has more than 16).
std::optional<std::uint64_t> Hex(std::string_view text, std::size_t max_digits) {
  if (text.empty() || text.size() > max_digits) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string LowerHexWord(std::string_view word) {
  std::string out(word);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::optional<std::string> CanonicalBusId(std::string_view text) {
  text = Trim(text);
  const auto dot = text.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto last_colon = text.rfind(':', dot);
  if (last_colon == std::string_view::npos) return std::nullopt;
  const auto first_colon = text.rfind(':', last_colon == 0 ? 0 : last_colon - 1);
  const bool has_domain = first_colon != std::string_view::npos && first_colon < last_colon;
  const auto domain = has_domain ? Hex(text.substr(0, first_colon), 16) : std::optional<std::uint64_t>(0);
  const std::size_t bus_start = has_domain ? first_colon + 1 : 0;
  const auto bus = Hex(text.substr(bus_start, last_colon - bus_start), 2);
  const auto device = Hex(text.substr(last_colon + 1, dot - last_colon - 1), 2);
  const auto function = Hex(text.substr(dot + 1), 1);
  if (!domain || !bus || !device || !function || *device > 0x1f || *function > 7) return std::nullopt;
  char canonical[40];
  std::snprintf(canonical, sizeof(canonical), "%04llx:%02llx:%02llx.%llx", static_cast<unsigned long long>(*domain),
                static_cast<unsigned long long>(*bus), static_cast<unsigned long long>(*device),
                static_cast<unsigned long long>(*function));
  return std::string(canonical);
}

bool IsVirtualBusId(std::string_view canonical_busid) { return StartsWith(canonical_busid, "ffff:"); }

Result<LivePciDevices> ParsePciDevices(std::string_view text, const std::string& origin) {
  LivePciDevices devices;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line = WithoutCarriageReturn(next->text);
    const auto words = SplitWords(line);
    if (words.empty()) continue;
    const auto busid = CanonicalBusId(words[0]);
    if (!busid) {
      return ErrorAt(origin, number,
                     "expected a PCI bus id such as 0000:18:00.0 at the start of the line, found " +
                         QuoteForMessage(words[0]));
    }
    LivePciDevice device;
    device.busid = *busid;
    device.line = number;
    if (words.size() > 1 && StartsWith(words[1], "0x")) device.class_code = LowerHexWord(words[1]);
    if (words.size() > 2 && StartsWith(words[2], "0x")) device.vendor = LowerHexWord(words[2]);
    if (words.size() > 3 && StartsWith(words[3], "0x")) device.device = LowerHexWord(words[3]);
    devices.emplace(device.busid, std::move(device));
  }
  if (devices.empty()) {
    return ErrorAt(origin, 1, "lists no PCI device (expected lines such as \"0000:18:00.0 0x030200\")");
  }
  return devices;
}

}  // namespace gpuconform::pci_devices
