#include "harness/core/snapshot_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/core/cluster_raw.h"
#include "probes/versions/versions_probes.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

const std::string kFixtures = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots";

std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("gpuconform-test-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(SnapshotSource, ListsNodesSortedAndReadsFiles) {
  auto snapshot = OpenSnapshot(kFixtures + "/h100-2node-healthy");
  ASSERT_TRUE(snapshot) << snapshot.error();
  EXPECT_EQ((*snapshot)->Nodes(), (std::vector<std::string>{"gpu-node-01", "gpu-node-02"}));
  const auto out = (*snapshot)->Fetch(versions::KernelRelease(), "gpu-node-01");
  EXPECT_TRUE(out.ok());
  EXPECT_EQ(out.text, "5.15.0-105-generic\n");
  EXPECT_NE(out.origin.find("nodes/gpu-node-01/uname-r.txt"), std::string::npos);
  EXPECT_EQ((*snapshot)->manifest().fields.at("cluster"), "h100-acceptance");
}

TEST(SnapshotSource, AbsentFileIsAbsentNamingThePath) {
  auto snapshot = OpenSnapshot(kFixtures + "/h100-2node-healthy");
  ASSERT_TRUE(snapshot);
  ProbeSpec spec = versions::KernelRelease();
  spec.file = "no-such-output.txt";
  const auto out = (*snapshot)->Fetch(spec, "gpu-node-01");
  EXPECT_EQ(out.status, ProbeStatus::kAbsent);
  EXPECT_NE(out.detail.find("nodes/gpu-node-01/no-such-output.txt"), std::string::npos);
}

TEST(SnapshotSource, MissingDirectoryIsAnErrorNamingIt) {
  auto snapshot = OpenSnapshot("/nonexistent/snap");
  ASSERT_FALSE(snapshot);
  EXPECT_NE(snapshot.error().find("/nonexistent/snap"), std::string::npos);
}

TEST(SnapshotSource, DirectoryWithoutLayoutIsRejected) {
  const std::string dir = TempDir("nolayout");
  auto snapshot = OpenSnapshot(dir);
  ASSERT_FALSE(snapshot);
  EXPECT_NE(snapshot.error().find("layout v1"), std::string::npos);
}

TEST(SnapshotSource, InvalidManifestNamesFileAndLine) {
  auto snapshot = OpenSnapshot(kFixtures + "/invalid-manifest");
  test_support::ExpectErrorContaining(snapshot, "manifest.yaml:");
}

TEST(SnapshotSource, CaptureThenReplayRoundTripsOutputsAndFailures) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  raw.node["n1"]["uname-r"] = {ProbeStatus::kOk, "6.1.0-18-amd64\n", "n1: `uname -r`", ""};
  raw.node["n1"]["slurmd-V"] = {ProbeStatus::kTimedOut, "", "n1: `slurmd -V`",
                                "n1: `slurmd -V` did not finish within 15000 ms and was killed"};
  const std::string dir = TempDir("roundtrip");
  auto written = WriteSnapshot(raw, {versions::KernelRelease(), versions::SlurmdVersion()}, dir, {{"cluster", "t"}});
  ASSERT_TRUE(written) << written.error();

  auto snapshot = OpenSnapshot(dir);
  ASSERT_TRUE(snapshot) << snapshot.error();
  const ClusterRaw replay = FetchAll(**snapshot, {versions::KernelRelease(), versions::SlurmdVersion()});
  EXPECT_EQ(replay.NodeOutput("n1", "uname-r").text, "6.1.0-18-amd64\n");
  const auto failed = replay.NodeOutput("n1", "slurmd-V");
  EXPECT_EQ(failed.status, ProbeStatus::kTimedOut);
  EXPECT_NE(failed.detail.find("did not finish within 15000 ms"), std::string::npos) << failed.detail;
}

TEST(ClusterRaw, JsonRoundTripKeepsEveryField) {
  ClusterRaw raw;
  raw.nodes = {"a", "b"};
  raw.node["a"]["p"] = {ProbeStatus::kFailed, "text\x01", "a: p", "exited 1"};
  raw.cluster["sinfo"] = {ProbeStatus::kOk, "node1 gpu:8 idle\n", "sinfo", ""};
  auto back = ClusterRaw::FromJson(raw.ToJson());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->nodes, raw.nodes);
  EXPECT_EQ(back->NodeOutput("a", "p").status, ProbeStatus::kFailed);
  EXPECT_EQ(back->NodeOutput("a", "p").detail, "exited 1");
  EXPECT_EQ(back->ClusterOutput("sinfo").text, "node1 gpu:8 idle\n");
  EXPECT_EQ(back->NodeOutput("b", "p").status, ProbeStatus::kAbsent);
}

TEST(ClusterRaw, CorruptJsonIsAnErrorNotACrash) {
  EXPECT_FALSE(ClusterRaw::FromJson("{\"nodes\": [1"));
  EXPECT_FALSE(ClusterRaw::FromJson("[]"));
}

}  // namespace
}  // namespace gpuconform
