#include "probes/nvbandwidth/nvbandwidth_parse.h"

#include <charconv>
#include <cmath>

#include "harness/util/text_util.h"
#include "probes/nvbandwidth/nvbandwidth_formats.h"

namespace gpuconform::nvbandwidth {

std::optional<std::optional<double>> CellValue(std::string_view text) {
  text = Trim(text);
  if (text == "N/A") return std::optional<double>();
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return std::optional<double>(value);
}

std::string UnitOf(std::string_view description) {
  description = Trim(description);
  const std::size_t open = description.rfind('(');
  if (open == std::string_view::npos || !description.ends_with(')')) return "";
  return std::string(description.substr(open + 1, description.size() - open - 2));
}

// "[CUDA_ERROR_NO_DEVICE] no CUDA-capable device ..." -> CUDA_ERROR_NO_DEVICE; "NVML_ERROR: [...]"
// -> NVML_ERROR; "ASSERT in expression ..." -> ASSERT.
NvbandwidthError FatalError(std::string_view line) {
  line = Trim(line);
  NvbandwidthError error;
  error.line = std::string(line);
  if (StartsWith(line, "[") && line.find(']') != std::string_view::npos) {
    error.code = std::string(line.substr(1, line.find(']') - 1));
  } else if (StartsWith(line, "NVML_ERROR")) {
    error.code = "NVML_ERROR";
  } else if (StartsWith(line, "ASSERT")) {
    error.code = "ASSERT";
  }
  return error;
}

std::optional<double> Matrix::At(std::size_t row, std::size_t column) const {
  if (row >= values.size() || column >= values[row].size()) return std::nullopt;
  return values[row][column];
}

const Testcase* NvbandwidthReport::Find(const std::string& name) const {
  for (const auto& testcase : testcases) {
    if (testcase.name == name) return &testcase;
  }
  return nullptr;
}

Result<NvbandwidthReport> ParseNvbandwidth(const std::string& text, const std::string& origin) {
  const std::string_view content = Trim(text);
  if (!content.empty() && content.front() == '{') return ParseNvbandwidthJson(text, origin);
  return ParseNvbandwidthText(text, origin);
}

}  // namespace gpuconform::nvbandwidth
