// The version readers: a probe's output through its parser, once per run; a tool that is not
// installed is a reading of its own, any other missing output a problem with its probe's code.
#include "probes/versions/versions_facts.h"

#include <gtest/gtest.h>

#include "probes/versions/versions_probes.h"

namespace gpuconform::versions {
namespace {

ClusterRaw OneNode(const std::string& probe_id, RawOutput output) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  raw.node["n1"][probe_id] = std::move(output);
  return raw;
}

TEST(VersionsFacts, ReadsTheVersionOnceAndKeepsIt) {
  ClusterRaw raw = OneNode(KernelRelease().id, {ProbeStatus::kOk, "6.1.0-18-amd64\n", "n1/uname-r.txt", ""});
  EXPECT_EQ(ReadKernelRelease(raw, "n1").version, "6.1.0-18-amd64");
  raw.node["n1"][KernelRelease().id].text = "not a release\n";
  EXPECT_EQ(ReadKernelRelease(raw, "n1").version, "6.1.0-18-amd64") << "parsed a second time";
}

TEST(VersionsFacts, NotInstalledUnparseableAndMissingAreReadingsSayingWhy) {
  const auto missing = ReadSlurmdVersion(
      OneNode(SlurmdVersion().id, {ProbeStatus::kToolMissing, "", "", "n1: `slurmd` is not installed"}), "n1");
  EXPECT_FALSE(missing.version);
  EXPECT_TRUE(missing.not_installed);
  EXPECT_EQ(missing.reason, "tool-missing");
  EXPECT_EQ(missing.problem, "n1: not installed on the node: `slurmd` is not installed");

  const auto garbled = ReadMungedVersion(
      OneNode(MungedVersion().id, {ProbeStatus::kOk, "Illegal instruction\n", "n1/munged-version.txt", ""}), "n1");
  EXPECT_FALSE(garbled.version);
  EXPECT_FALSE(garbled.not_installed);
  EXPECT_EQ(garbled.reason, "unparseable");
  EXPECT_EQ(garbled.problem.rfind("n1/munged-version.txt:1: ", 0), 0u) << garbled.problem;

  ClusterRaw nothing;
  nothing.nodes = {"n1"};
  const auto absent = ReadNcclVersion(nothing, "n1");
  EXPECT_FALSE(absent.version);
  EXPECT_FALSE(absent.not_installed);
  EXPECT_NE(absent.problem.find("n1"), std::string::npos) << absent.problem;
}

}  // namespace
}  // namespace gpuconform::versions
