// The streamed parse of nccl-tests output (ParseNcclTestsOutput over a LineSource, keeping only
// the runs it may judge) chooses the run a choice among all the runs of the whole text does, on the
// fixtures' and the published outputs (realdata, skipped where absent), and on a long sweep of
// many runs where only some reached their summary.
#include <gtest/gtest.h>

#include <sstream>

#include "harness/core/live_source.h"
#include "probes/nccl_tests/nccl_tests_facts.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "probes/nccl_tests/nccl_tests_probe.h"
#include "tests/support/streamed_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_tests {
namespace {

namespace fs = std::filesystem;

std::string Describe(const Result<BandwidthTable>& result) {
  return test_support::DescribedParse(result, [](std::ostream& out, const BandwidthTable& table) {
    out << table.origin << " " << table.tool << " ranks " << table.ranks << " nodes " << table.nodes << " summary "
        << table.ended_with_summary << " avg " << table.reported_avg_busbw_gb_per_s << "\n";
    for (const auto& row : table.rows) {
      out << row.size_bytes << " " << row.time_us << " " << row.algbw_gb_per_s << " " << row.busbw_gb_per_s << " "
          << row.checked << " " << row.correct << " " << row.wrong_elements << "\n";
    }
  });
}

// The run to judge chosen from every run of the whole text: the last that reached its summary,
// else the last.
Result<BandwidthTable> JudgedRunOfAll(const std::string& text, const std::string& origin) {
  auto runs = ParseNcclTestsRuns(text, origin);
  if (!runs) return Error{runs.error()};
  for (auto run = runs->rbegin(); run != runs->rend(); ++run) {
    if (run->ended_with_summary) return *run;
  }
  return runs->back();
}

void ExpectStreamedRunEqualsWholeText(const fs::path& path) {
  test_support::ExpectChunkedEqualsWhole(
      path, [&](const std::string& text) { return Describe(JudgedRunOfAll(text, path.string())); },
      [&](LineSource& lines) { return Describe(ParseNcclTestsOutput(lines, path.string())); });
}

TEST(NcclTestsStream, EveryFixtureOutputChoosesTheSameRunStreamedAsWhole) {
  const auto outputs = test_support::FilesUnder(test_support::FixturesDir(), [](const fs::path& path) {
    return path.filename().string().starts_with("all_reduce_perf");
  });
  ASSERT_FALSE(outputs.empty());
  for (const auto& path : outputs) ExpectStreamedRunEqualsWholeText(path);
}

TEST(NcclTestsStream, EveryPublishedOutputChoosesTheSameRunStreamedAsWhole) {
  test_support::ForEachPublishedOutput("nccl-tests-output", ExpectStreamedRunEqualsWholeText);
}

TEST(NcclTestsStream, ALongSweepKeepsTheRunTheWholeTextWouldJudge) {
  const std::string header = "#       size         count      type   redop    root     time   algbw   busbw #wrong\n";
  auto run = [&](int busbw, bool summary) {
    std::string text = header;
    for (long long size = 1024; size <= 8192; size *= 2) {
      text += "  " + std::to_string(size) + "  " + std::to_string(size / 4) + "  float  sum  -1  10.0  1.00  " +
              std::to_string(busbw) + ".00  0\n";
    }
    return text + (summary ? "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : " + std::to_string(busbw) + "\n" : "");
  };
  test_support::TempDir dir;
  // Summaries at runs 3 and 7 of 10: the last with a summary is judged, however far back.
  std::string sweep;
  for (int i = 0; i < 10; ++i) sweep += run(100 + i, i == 3 || i == 7);
  const fs::path path = fs::path(dir.path()) / "all_reduce_perf.txt";
  std::ofstream(path, std::ios::binary) << sweep;
  ExpectStreamedRunEqualsWholeText(path);
  TextLines lines(sweep);
  const auto table = ParseNcclTestsOutput(lines, "sweep");
  ASSERT_TRUE(table) << table.error();
  EXPECT_DOUBLE_EQ(table->rows.back().busbw_gb_per_s, 107);
}

// Live, an operator's output (GPUCONFORM_NCCL_TESTS_OUTPUT) is taken on rank 0 as a reference
// to its file, which the reader streams.
TEST(NcclTestsStream, AnOperatorsOutputIsReadFromItsFileLive) {
  test_support::TempDir dir;
  const std::string path = dir.path() + "/all_reduce_perf.txt";
  std::ofstream(path) << "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
                         "     1048576        262144     float     sum      -1    100.0   10.49   19.66      0\n"
                         "# Out of bounds values : 0 OK\n";
  RunOptions options = DefaultRunOptions();
  options.nccl_tests_output = path;
  const ProbeSpec spec = NcclTestsOutputProbe();
  ASSERT_TRUE(spec.large_output);
  const RawOutput out = spec.builtin(LiveContext{"node1", nullptr, options});
  ASSERT_TRUE(out.ok()) << out.detail;
  EXPECT_EQ(out.file, path);
  EXPECT_TRUE(out.text.empty());
  ClusterRaw raw;
  raw.cluster[spec.id] = out;
  const auto& table = ReadBandwidthTable(raw, spec.id);
  ASSERT_TRUE(table) << table.error();
  ASSERT_EQ(table->rows.size(), 1u);
  EXPECT_DOUBLE_EQ(table->rows[0].busbw_gb_per_s, 19.66);
}

}  // namespace
}  // namespace gpuconform::nccl_tests
