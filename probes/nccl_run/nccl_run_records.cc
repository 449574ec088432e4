#include "probes/nccl_run/nccl_run_records.h"

#include <fmt/format.h>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::nccl_run {

namespace {
constexpr std::string_view kNotMeasured = "# not-measured ";
constexpr std::string_view kMarker = "# collective ";
}  // namespace

std::string NotMeasuredComment(const std::string& collective, const std::string& reason) {
  return "# " + FormatRecord("not-measured", {{"collective", collective}, {"reason", reason}}) + "\n";
}

Result<NcclCollectiveResults> ParseNcclCollectives(const std::string& text, const std::string& origin) {
  auto tables = mpi_sweep::ParseCollectiveTables(text, origin);
  if (!tables) return Error{tables.error()};
  NcclCollectiveResults results;
  for (const auto& [name, table] : *tables) {
    nccl_tests::BandwidthTable named = table;
    named.tool = "gpuconform NCCL " + name;
    results.tables.emplace(name, std::move(named));
  }
  // The not-measured lines stand before the first marker, where the table parser does not look.
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = Trim(lines[i]);
    if (StartsWith(line, kMarker)) break;
    if (!StartsWith(line, kNotMeasured)) continue;
    auto record = ParseRecordLines(std::string(line.substr(2)), origin);
    if (!record || record->size() != 1 || record->front().Get("collective").empty()) {
      return ErrorAt(origin, static_cast<int>(i) + 1, "malformed not-measured line");
    }
    results.not_measured[record->front().Get("collective")] = record->front().Get("reason");
  }
  return results;
}

std::string FormatNcclInit(const std::vector<NodeInit>& nodes) {
  std::string text;
  for (const auto& node : nodes) {
    const std::pair<std::string, std::string> said =
        node.seconds ? std::pair<std::string, std::string>{"seconds", fmt::format("{:.3f}", *node.seconds)}
                     : std::pair<std::string, std::string>{"problem", node.problem};
    text += FormatRecord("node", {{"host", node.host}, said}) + "\n";
  }
  return text;
}

Result<std::vector<NodeInit>> ParseNcclInit(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  std::vector<NodeInit> nodes;
  for (const auto& record : *records) {
    if (record.kind != "node") continue;  // kinds of a later version are left for it
    NodeInit node;
    node.host = record.Get("host");
    if (node.host.empty()) return ErrorAt(origin, record.line, "a node line without host=");
    const std::string seconds = record.Get("seconds");
    if (!seconds.empty()) {
      node.seconds = WholeNumber(seconds);
      if (!node.seconds || *node.seconds < 0) {
        return ErrorAt(origin, record.line, "seconds=" + QuoteForMessage(seconds) + " is not a number of seconds");
      }
    } else {
      node.problem = record.Get("problem");
      if (node.problem.empty()) return ErrorAt(origin, record.line, "a node line with neither seconds= nor problem=");
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace gpuconform::nccl_run
