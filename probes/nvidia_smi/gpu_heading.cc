#include "probes/nvidia_smi/gpu_heading.h"

#include <charconv>

#include "harness/util/text_util.h"

namespace gpuconform::nvidia_smi {

std::optional<GpuHeading> ParseGpuHeading(std::string_view trimmed) {
  if (!StartsWith(trimmed, "GPU ")) return std::nullopt;
  const auto colon = trimmed.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view digits = trimmed.substr(4, colon - 4);
  GpuHeading heading;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), heading.index);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || heading.index < 0) {
    return std::nullopt;
  }
  std::string_view name = Trim(trimmed.substr(colon + 1));
  if (const auto uuid_at = name.find(" (UUID: "); uuid_at != std::string_view::npos) {
    std::string_view uuid = name.substr(uuid_at + 8);
    if (!uuid.empty() && uuid.back() == ')') uuid.remove_suffix(1);
    heading.uuid = std::string(uuid);
    name = name.substr(0, uuid_at);
  }
  heading.name = std::string(name);
  return heading;
}

std::optional<NvlinkOutputLines::Line> NvlinkOutputLines::Next() {
  while (const auto line = lines_.Next()) {
    last_line_ = line->number;
    const std::string clean = StripAnsiEscapes(WithoutCarriageReturn(line->text));
    const std::string_view trimmed = Trim(clean);
    if (!trimmed.empty()) return Line{line->number, std::string(trimmed)};
  }
  return std::nullopt;
}

}  // namespace gpuconform::nvidia_smi
