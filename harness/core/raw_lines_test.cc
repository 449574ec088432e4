// Large outputs travel as a reference to their file (RawOutput::file): a snapshot answers a
// large_output probe with the path, its reader streams the lines, the gather's JSON keeps the
// path, capture copies the file, and a reader that wants the text still gets it whole.
#include "harness/core/raw_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/core/cluster_raw.h"
#include "harness/core/raw_text.h"
#include "harness/core/snapshot_source.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> AllLines(LineSource& source) {
  std::vector<std::string> lines;
  while (const auto line = source.Next()) lines.emplace_back(line->text);
  return lines;
}

ProbeSpec LargeClusterProbe() {
  ProbeSpec spec = FileProbe("big-log", ProbeScope::kCluster, "big.log", "/nonexistent");
  spec.large_output = true;
  return spec;
}

TEST(RawLines, ASnapshotAnswersALargeOutputWithItsFileAndItsReaderStreamsIt) {
  test_support::TempDir dir;
  fs::create_directories(fs::path(dir.path()) / "cluster");
  std::ofstream(fs::path(dir.path()) / "cluster" / "big.log") << "one\ntwo\n";
  auto snapshot = OpenSnapshot(dir.path());
  ASSERT_TRUE(snapshot) << snapshot.error();
  const RawOutput out = (*snapshot)->Fetch(LargeClusterProbe(), "");
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out.text.empty());
  EXPECT_EQ(out.file, (fs::path(dir.path()) / "cluster" / "big.log").string());
  auto lines = RawLines(out);
  ASSERT_TRUE(lines) << lines.error();
  EXPECT_EQ(AllLines(**lines), (std::vector<std::string>{"one", "two"}));
  // A reader that wants the text gets it whole.
  auto text = UsableText(out, "cluster", "big.log", "");
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*text, "one\ntwo\n");
}

TEST(RawLines, AnAbsentLargeOutputIsAbsentNamingThePath) {
  test_support::TempDir dir;
  fs::create_directories(fs::path(dir.path()) / "cluster");
  auto snapshot = OpenSnapshot(dir.path());
  ASSERT_TRUE(snapshot) << snapshot.error();
  const RawOutput out = (*snapshot)->Fetch(LargeClusterProbe(), "");
  EXPECT_EQ(out.status, ProbeStatus::kAbsent);
  auto lines = UsableLines(out, "cluster", "big.log", "");
  ASSERT_FALSE(lines);
  EXPECT_NE(lines.error().find("big.log"), std::string::npos) << lines.error();
}

TEST(RawLines, TheGatherKeepsTheFileAndCaptureCopiesIt) {
  test_support::TempDir dir;
  const std::string log = dir.path() + "/operator-nccl.log";
  std::ofstream(log) << "line\n";
  ClusterRaw raw;
  raw.cluster["big-log"] = {ProbeStatus::kOk, "", "node1:" + log, ""};
  raw.cluster["big-log"].file = log;
  auto back = ClusterRaw::FromJson(raw.ToJson());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->ClusterOutput("big-log").file, log);

  const std::string snapshot = dir.path() + "/snapshot";
  auto written = WriteSnapshot(*back, {LargeClusterProbe()}, snapshot, {});
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(test_support::ReadFileIfPresent(snapshot + "/cluster/big.log"), "line\n");
}

TEST(RawLines, TextOutputsAreReadFromTheirText) {
  const RawOutput out{ProbeStatus::kOk, "a\r\nb", "node1: `tool`", ""};
  auto lines = RawLines(out);
  ASSERT_TRUE(lines) << lines.error();
  EXPECT_EQ(AllLines(**lines), (std::vector<std::string>{"a\r", "b"}));
}

}  // namespace
}  // namespace gpuconform
