#include "probes/nvidia_smi/nvlink_errors_parse.h"

#include <charconv>
#include <optional>
#include <string_view>

#include "harness/util/line_source.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/nvidia_smi/gpu_heading.h"

namespace gpuconform::nvidia_smi {

namespace {

std::optional<int> WholeIndex(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) return std::nullopt;
  return value;
}

// "Replay Errors" -> kNvlinkReplay; nothing for a counter this parser does not know.
const char* CounterNamed(std::string_view label) {
  if (label == "Replay Errors") return kNvlinkReplay;
  if (label == "Recovery Errors") return kNvlinkRecovery;
  if (label == "CRC Errors") return kNvlinkCrc;
  return nullptr;
}

}  // namespace

Result<NvlinkErrorReport> ParseNvlinkErrors(const std::string& text, const std::string& origin) {
  NvlinkErrorReport report;
  report.origin = origin;
  NvlinkOutputLines lines(text);
  while (const auto line = lines.Next()) {
    const std::string_view trimmed = line->trimmed;
    if (const auto heading = ParseGpuHeading(trimmed)) {
      report.gpus.push_back({heading->index, heading->name, heading->uuid, {}});
      continue;
    }
    // Before the first GPU there may be a shell prompt or a comment.
    if (report.gpus.empty()) continue;
    if (trimmed == "..." || trimmed == "[...]") continue;  // an excerpt's elision
    NvlinkGpuErrors& gpu = report.gpus.back();
    if (!StartsWith(trimmed, "Link ")) {
      return ErrorAt(origin, line->number, "unexpected line in nvidia-smi nvlink -e output: " + QuoteForMessage(trimmed));
    }
    // "Link 0: Replay Errors: 0"
    const auto first = trimmed.find(':');
    const auto second = first == std::string_view::npos ? std::string_view::npos : trimmed.find(':', first + 1);
    const auto link = first == std::string_view::npos ? std::nullopt : WholeIndex(Trim(trimmed.substr(5, first - 5)));
    if (!link || second == std::string_view::npos) {
      return ErrorAt(origin, line->number,
                     "expected 'Link <n>: <counter> Errors: <count>' (nvidia-smi nvlink -e), got " +
                         QuoteForMessage(trimmed) +
                         (Contains(trimmed, "GB/s") || Contains(trimmed, "inactive") ? " (this is nvlink -s output)" : ""));
    }
    const std::string_view label = Trim(trimmed.substr(first + 1, second - first - 1));
    const std::string_view value = Trim(trimmed.substr(second + 1));
    if (gpu.links.empty() || gpu.links.back().link != *link) gpu.links.push_back({*link, {}});
    const char* counter = CounterNamed(label);
    if (!counter || value == "N/A") continue;  // a newer driver's extra counter, or one this GPU does not keep
    const auto count = WholeCount(value);
    if (!count) {
      return ErrorAt(origin, line->number, "expected a count for link " + std::to_string(*link) + "'s " + std::string(label) +
                                       ", got " + QuoteForMessage(value));
    }
    gpu.links.back().counters[counter] = *count;
  }
  if (report.gpus.empty()) {
    return ErrorAt(origin, lines.last_line(), "no 'GPU <n>: ...' line: not nvidia-smi nvlink -e output");
  }
  return report;
}

}  // namespace gpuconform::nvidia_smi
