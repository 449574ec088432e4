#include "probes/dcgm/dcgm_nvlink_parse.h"

#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::dcgm {

namespace {

std::optional<NvlinkState> StateOf(std::string_view letter) {
  if (letter == "U") return NvlinkState::kUp;
  if (letter == "D") return NvlinkState::kDown;
  if (letter == "X") return NvlinkState::kDisabled;
  if (letter == "_") return NvlinkState::kNotSupported;
  return std::nullopt;
}

// "gpuId 3:" or "physicalId 8:" -> 3 / 8.
std::optional<int> DeviceHeading(std::string_view line, std::string_view word) {
  if (!StartsWith(line, word) || line.back() != ':') return std::nullopt;
  const std::string_view number = Trim(line.substr(word.size(), line.size() - word.size() - 1));
  int id = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), id);
  if (number.empty() || error != std::errc() || end != number.data() + number.size() || id < 0) return std::nullopt;
  return id;
}

}  // namespace

int NvlinkDevice::CountIn(NvlinkState state) const {
  int count = 0;
  for (const auto link : links) count += link == state ? 1 : 0;
  return count;
}

Result<DcgmNvlinkStatus> ParseDcgmNvlinkStatus(const std::string& text, const std::string& origin) {
  DcgmNvlinkStatus status;
  status.origin = origin;
  std::vector<NvlinkDevice>* section = nullptr;
  NvlinkDevice* device = nullptr;  // waiting for its row of states
  bool seen_title = false;
  int last_line = 0;
  TextLines lines(text);
  while (const auto numbered = lines.Next()) {
    const int line_number = numbered->number;
    last_line = line_number;
    const std::string_view line = Trim(numbered->text);
    if (line.empty() || StartsWith(line, "+--") || StartsWith(line, "Key:") || StartsWith(line, "Link Entities:")) continue;
    if (line == "|  NvLink Link Status  |" || line == "| NvLink Link Status |") {
      seen_title = true;
      continue;
    }
    if (StartsWith(line, "Error:")) {
      status.errors.emplace_back(line);
      continue;
    }
    if (!seen_title) continue;  // the prompt and command line
    if (line == "GPUs:" || line == "NvSwitches:") {
      if (device) return ErrorAt(origin, line_number, "gpuId/physicalId without its row of link states");
      section = line == "GPUs:" ? &status.gpus : &status.nvswitches;
      continue;
    }
    if (line == "No GPUs found." || line == "No NvSwitches found.") continue;
    if (!section) return ErrorAt(origin, line_number, "a line before GPUs: " + QuoteForMessage(line));
    const auto id = DeviceHeading(line, section == &status.gpus ? "gpuId" : "physicalId");
    if (id) {
      if (device) return ErrorAt(origin, line_number, "gpuId/physicalId without its row of link states");
      section->push_back(NvlinkDevice{*id, {}});
      device = &section->back();
      continue;
    }
    if (!device) return ErrorAt(origin, line_number, "not a link status line: " + QuoteForMessage(line));
    for (const auto letter : SplitWords(line)) {
      const auto state = StateOf(letter);
      if (!state) return ErrorAt(origin, line_number, "link state " + QuoteForMessage(letter) + " is none of U D X _");
      device->links.push_back(*state);
    }
    device = nullptr;
  }
  if (device) return ErrorAt(origin, last_line, "the output ends before the last row of link states");
  if (!seen_title && status.errors.empty()) {
    return ErrorAt(origin, 1, "not dcgmi nvlink --link-status output: no 'NvLink Link Status' title");
  }
  return status;
}

}  // namespace gpuconform::dcgm
