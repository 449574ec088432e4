#include "probes/mpi_sweep/collective_tables.h"

#include <vector>

#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

namespace gpuconform::mpi_sweep {

namespace {

constexpr std::string_view kMarker = "# collective ";

// One marked part of the file: its collective and the lines it spans (1-based, inclusive).
struct Part {
  std::string collective;
  int marker_line = 0;
  int first_line = 0;
  int last_line = 0;
};

}  // namespace

std::string CollectiveMarkerLine(const std::string& collective) { return std::string(kMarker) + collective + "\n"; }

Result<CollectiveTables> ParseCollectiveTables(const std::string& text, const std::string& origin) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<Part> parts;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = Trim(lines[i]);
    const int number = static_cast<int>(i) + 1;
    if (!StartsWith(line, kMarker)) continue;
    const std::string name(Trim(line.substr(kMarker.size())));
    if (!allreduce_sweep::FindCollective(name)) {
      return ErrorAt(origin, number, "unknown collective " + QuoteForMessage(name) + " (known: " +
                                         allreduce_sweep::CollectiveNames() + ")");
    }
    for (const Part& part : parts) {
      if (part.collective == name) {
        return ErrorAt(origin, number, "collective " + name + " again (first at line " +
                                           std::to_string(part.marker_line) + ")");
      }
    }
    if (!parts.empty()) parts.back().last_line = number - 1;
    parts.push_back({name, number, number + 1, static_cast<int>(lines.size())});
  }
  CollectiveTables tables;
  for (const Part& part : parts) {
    // The part's lines at their own line numbers (the lines before it left empty, which the
    // parser skips), so that an error names the file's line, not the part's.
    std::string section(static_cast<std::size_t>(part.first_line - 1), '\n');
    for (int number = part.first_line; number <= part.last_line; ++number) {
      section.append(lines[static_cast<std::size_t>(number - 1)]);
      section.push_back('\n');
    }
    auto table = nccl_tests::ParseNcclTestsOutput(section, origin, nccl_tests::RowsOf::kAnyCollective);
    if (!table) return Error{table.error()};
    nccl_tests::BandwidthTable one = *table;
    one.tool = "gpuconform MPI " + part.collective;
    tables.emplace(part.collective, std::move(one));
  }
  return tables;
}

}  // namespace gpuconform::mpi_sweep
