// nvbandwidth -j (json_output.cpp): {"nvbandwidth": {...}}, each matrix value a string ("N/A"
// or the number as the stream printed it), the sum a number.
#include <nlohmann/json.hpp>

#include "harness/util/text_util.h"
#include "probes/nvbandwidth/nvbandwidth_formats.h"

namespace gpuconform::nvbandwidth {

namespace {

using nlohmann::json;

// A string or a number as text (CUDA Runtime Version is a number, the rest strings).
std::string Text(const json& object, const char* key) {
  if (!object.contains(key)) return "";
  const json& value = object.at(key);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return value.dump();
  return "";
}

Result<Matrix> ReadMatrix(const json& rows, const std::string& origin, const std::string& testcase) {
  const auto fail = [&](const std::string& message) { return Error{origin + ": testcase '" + testcase + "': " + message}; };
  if (!rows.is_array()) return fail("bandwidth_matrix is not a list of rows");
  Matrix matrix;
  for (const auto& row : rows) {
    if (!row.is_array()) return fail("a bandwidth_matrix row is not a list");
    if (!matrix.values.empty() && row.size() != matrix.values.front().size()) return fail("bandwidth_matrix rows differ in length");
    std::vector<std::optional<double>> values;
    for (const auto& cell : row) {
      const auto value = cell.is_string() ? CellValue(cell.get<std::string>())
                         : cell.is_number() ? CellValue(cell.dump())
                                            : std::nullopt;
      if (!value) return fail("a matrix value that is neither a number nor N/A: " + QuoteForMessage(cell.dump()));
      values.push_back(*value);
    }
    matrix.row_labels.push_back(std::to_string(matrix.values.size()));
    matrix.values.push_back(std::move(values));
  }
  const std::size_t columns = matrix.values.empty() ? 0 : matrix.values.front().size();
  for (std::size_t column = 0; column < columns; ++column) matrix.column_labels.push_back(std::to_string(column));
  return matrix;
}

}  // namespace

Result<NvbandwidthReport> ParseNvbandwidthJson(const std::string& text, const std::string& origin) {
  NvbandwidthReport report;
  report.origin = origin;
  report.format = "json";
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& error) {
    return Error{origin + ": not valid JSON (" + std::string(error.what()) + ")"};
  }
  if (!root.is_object() || !root.contains("nvbandwidth") || !root.at("nvbandwidth").is_object()) {
    return Error{origin + ": not nvbandwidth -j output: no \"nvbandwidth\" object"};
  }
  const json& body = root.at("nvbandwidth");
  report.version = Text(body, "version");
  report.driver_version = Text(body, "Driver Version");
  report.cuda_version = Text(body, "CUDA Runtime Version");
  if (body.contains("GPU Device list") && body.at("GPU Device list").is_array()) {
    for (const auto& device : body.at("GPU Device list")) {
      if (device.is_string()) report.devices.push_back(device.get<std::string>());
    }
  }
  if (const std::string error = Text(body, "error"); !error.empty()) report.errors.push_back(FatalError(error));
  if (!body.contains("testcases")) return report;
  if (!body.at("testcases").is_array()) return Error{origin + ": \"testcases\" is not a list"};
  for (const auto& entry : body.at("testcases")) {
    if (!entry.is_object()) return Error{origin + ": a testcase that is not an object"};
    Testcase testcase;
    testcase.name = Text(entry, "name");
    testcase.status = Text(entry, "status");
    testcase.description = Text(entry, "bandwidth_description");
    testcase.unit = UnitOf(testcase.description);
    testcase.error = Text(entry, "error");
    if (entry.contains("bandwidth_matrix")) {
      auto matrix = ReadMatrix(entry.at("bandwidth_matrix"), origin, testcase.name);
      if (!matrix) return Error{matrix.error()};
      testcase.matrix = std::move(matrix.value());
    }
    if (entry.contains("sum")) {
      if (!entry.at("sum").is_number()) return Error{origin + ": testcase '" + testcase.name + "': sum is not a number"};
      testcase.sum = entry.at("sum").get<double>();
    }
    report.testcases.push_back(std::move(testcase));
  }
  return report;
}

}  // namespace gpuconform::nvbandwidth
