// The results document of one run (`run --json FILE`): what CI gates and fleet tooling read.
// Contract: versioned by kResultsSchemaVersion and described by schemas/results.schema.json
// (the tests validate every fixture's document against it with a real validator); a change
// that removes or renames a field raises the version. RenderResultsJson is pure;
// WriteResultsJson publishes the file atomically.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/core/verdict.h"
#include "harness/util/result.h"
#include "results/run.h"

namespace gpuconform {

inline constexpr int kResultsSchemaVersion = 1;

nlohmann::json RenderResultsJson(const Run& run);
// The document as the file holds it: RenderResultsJson dumped with a two-space indent, every
// string valid UTF-8 (invalid bytes become U+FFFD), and a final newline. Written one result at
// a time, so the whole document never exists in memory as a json value.
void WriteResultsJsonTo(const Run& run, const std::function<void(std::string_view)>& sink);
std::string RenderResultsJsonText(const Run& run);
Result<bool> WriteResultsJson(const std::string& path, const Run& run);

}  // namespace gpuconform
