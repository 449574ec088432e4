// Reads a results document (`run --json FILE`, reports/json_report.h) back into the run
// record and check results it was rendered from: what `gpuconform diff`, `baseline` and
// `--baseline FILE` compare.
// Contract: pure. The inverse of RenderResultsJson for every field the document carries
// (numbers come back as their shortest text, "0.096"; the catalogue's fault class and next
// step are looked up again). Errors name the origin and the field ("r.json: results[3].verdict:
// ..."), and a schema_version other than kResultsSchemaVersion is refused, saying so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "harness/util/result.h"
#include "reports/json_report.h"
#include "results/run.h"

namespace gpuconform {

Result<Run> ParseResultsDocument(const std::string& text, const std::string& origin);

// The verdict a document names ("pass", "regression", ...: VerdictName's inverse), if any.
std::optional<Verdict> VerdictNamed(const std::string& name);

}  // namespace gpuconform
