// The two forms ParseNvbandwidth (nvbandwidth_parse.h) reads, and the words they share.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "harness/util/result.h"
#include "probes/nvbandwidth/nvbandwidth_parse.h"

namespace gpuconform::nvbandwidth {

Result<NvbandwidthReport> ParseNvbandwidthJson(const std::string& text, const std::string& origin);
Result<NvbandwidthReport> ParseNvbandwidthText(const std::string& text, const std::string& origin);

// A matrix cell: "276.07" -> 276.07, "N/A" -> an empty value; nullopt for anything else.
std::optional<std::optional<double>> CellValue(std::string_view text);

// "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)" -> "GB/s".
std::string UnitOf(std::string_view description);

// A fatal error as nvbandwidth's error_handling.h words it, with its code.
NvbandwidthError FatalError(std::string_view line);

}  // namespace gpuconform::nvbandwidth
