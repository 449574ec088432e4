// The two forms ParseDcgmDiag (dcgm_diag_parse.h) reads, each to a report without its
// environment evidence (ParseDcgmDiag adds that for both), and the words they share.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"
#include "probes/dcgm/dcgm_diag_parse.h"

namespace gpuconform::dcgm {

Result<DcgmDiagReport> ParseDcgmDiagJson(const std::string& text, const std::string& origin);
Result<DcgmDiagReport> ParseDcgmDiagText(const std::string& text, const std::string& origin);

// "Pass", "Fail", "Warn", "Skip", "Not Run" in any case; nullopt for anything else.
std::optional<DiagState> DiagStateFromWord(std::string_view word);

// "2330, 2330" -> {"2330", "2330"}: dcgmi's comma lists, each item trimmed, empty ones dropped.
std::vector<std::string> CommaList(std::string_view text);
// "0, 1, 3" -> {0, 1, 3}; nullopt where an item is not a GPU number.
std::optional<std::vector<int>> GpuNumbers(std::string_view text);

// A message with its code's name filled in.
DiagMessage MakeMessage(std::string text, std::optional<long long> error_id, std::optional<int> gpu);

}  // namespace gpuconform::dcgm
