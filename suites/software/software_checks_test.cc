#include "suites/software/software_checks.h"

#include <gtest/gtest.h>

#include "probes/versions/versions_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::software {

using namespace gpuconform::versions;
namespace {

Profile GpuProfile() {
  Profile p;
  p.name = "h100-sxm-8";
  p.gpu = GpuExpectation{true, 8, "H100", "datasheet"};
  p.Set(SoftwareExpectation{.identical_across_nodes = {"kernel", "driver", "nccl", "slurm"}});
  return p;
}

Profile NoGpuProfile() {
  Profile p = GpuProfile();
  p.name = "local";
  p.gpu->present = false;
  return p;
}

const Component kKernel{"kernel", "kernel", "KernelVersionIdentical", false, "reimage the odd node"};
const Component kDriver{"driver", "NVIDIA driver", "DriverVersionIdentical", true, "install the same driver"};
const Component kMunge{"munge", "MUNGE", "MungeVersionIdentical", false, "same munge"};

VersionReading Version(const std::string& v) { return {v, false, ""}; }
VersionReading NotInstalled(const std::string& why) { return {std::nullopt, true, why}; }
VersionReading Unreadable(const std::string& why) { return {std::nullopt, false, why}; }

TEST(SoftwareParse, ReadsRealToolOutputs) {
  EXPECT_EQ(*ParseSlurmdVersion("slurm-wlm 22.05.8\n", "o"), "22.05.8");
  EXPECT_EQ(*ParseSlurmdVersion("slurm 23.02.7\n", "o"), "23.02.7");
  EXPECT_EQ(*ParseMungedVersion("munge-0.5.15 (2022-06-22)\n", "o"), "0.5.15");
  EXPECT_EQ(*ParseKernelRelease("6.1.0-18-amd64\n", "o"), "6.1.0-18-amd64");
  EXPECT_EQ(*ParseMpiLibraryVersion(
                "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022\n", "o"),
            "Open MPI v4.1.4");
  EXPECT_EQ(*ParseDottedVersion("2.18.3\n", "o"), "2.18.3");
  EXPECT_EQ(*ParseGpuconformVersion("0.1.0\n", "o"), "0.1.0");
  EXPECT_EQ(*ParseGpuconformVersion("1.2.0+12.gabc1234\n", "o"), "1.2.0+12.gabc1234");
  EXPECT_EQ(*ParseGpuconformVersion("0.1.0+git229.gcec10b0.dirty\n", "o"), "0.1.0+git229.gcec10b0.dirty");
}

TEST(SoftwareParse, GarbageIsAnErrorNamingOriginAndLine) {
  test_support::ExpectErrorStartingWith(
      ParseSlurmdVersion("\n\nIllegal instruction (core dumped)\n", "snap/nodes/n1/slurmd-V.txt"),
      "snap/nodes/n1/slurmd-V.txt:3: ");
  EXPECT_FALSE(ParseKernelRelease("", "o"));
  EXPECT_FALSE(ParseDottedVersion("not a version", "o"));
  EXPECT_FALSE(ParseGpuconformVersion("0.1.0 and more\n", "o"));
}

TEST(SoftwareParse, NvidiaSmiXmlTruncatedOrWrongRootIsAnError) {
  const auto ok = test_support::Parsed(
      ParseNvidiaSmiVersions("<?xml version=\"1.0\" ?>\n<nvidia_smi_log><driver_version>550.54.15</driver_version>"
                             "<cuda_version>12.4</cuda_version></nvidia_smi_log>",
                             "o"));
  EXPECT_EQ(ok.driver, "550.54.15");
  EXPECT_EQ(ok.cuda, "12.4");
  auto truncated = ParseNvidiaSmiVersions("<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n<driver_vers", "f.xml");
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().find("f.xml:"), std::string::npos);
  EXPECT_FALSE(ParseNvidiaSmiVersions("<graphs/>", "o"));
}

TEST(SoftwareParse, SurvivesArbitraryBytes) {
  test_support::ForEachNoisyString({.seed = 12345, .count = 2000, .max_extra = 97}, [](const std::string& bytes) {
    (void)ParseKernelRelease(bytes, "fuzz");
    (void)ParseSlurmdVersion(bytes, "fuzz");
    (void)ParseMungedVersion(bytes, "fuzz");
    (void)ParseMpiLibraryVersion(bytes, "fuzz");
    (void)ParseNvidiaSmiVersions(bytes, "fuzz");
  });
  SUCCEED() << "no crash on 2000 random inputs";
}

TEST(SoftwareVersions, IdenticalVersionsOnAllNodesConform) {
  auto r = CheckVersionsIdentical(kKernel, {{"n1", Version("6.1.0")}, {"n2", Version("6.1.0")}}, GpuProfile());
  EXPECT_EQ(r.verdict, Verdict::kPass);
  ASSERT_EQ(r.measurements.size(), 2u);
  EXPECT_EQ(r.measurements[0].name, "n1.kernel");
  EXPECT_EQ(r.measurements[0].value, "6.1.0");
}

TEST(SoftwareVersions, OddNodeOutIsNamedWithObservedAndExpected) {
  auto r = CheckVersionsIdentical(
      kDriver, {{"n1", Version("550.54.15")}, {"n2", Version("535.129.03")}, {"n3", Version("550.54.15")}},
      GpuProfile());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].entity, "n2");
  EXPECT_EQ(r.findings[0].code, "version-skew");
  EXPECT_EQ(r.findings[0].message.rfind("n2: NVIDIA driver 535.129.03, expected 550.54.15 like n1, n3 (2 of 3 nodes)", 0),
            0u)
      << r.findings[0].message;
}

// A pinned version is the reference even where every node agrees on another, and pinning
// alone makes the component judged.
TEST(SoftwareVersions, APinnedVersionWinsOverTheMajority) {
  Profile profile = GpuProfile();
  profile.Set(SoftwareExpectation{.pinned = {{"munge", "", "0.5.15"}}, .source = "the site's image manifest"});
  auto r = CheckVersionsIdentical(kMunge, {{"n1", Version("0.5.13")}, {"n2", Version("0.5.13")}}, profile);
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].message.rfind(
                "n1: MUNGE 0.5.13, expected 0.5.15 (pinned in profile h100-sxm-8: the site's image manifest)", 0),
            0u)
      << r.findings[0].message;
  EXPECT_EQ(CheckVersionsIdentical(kMunge, {{"n1", Version("0.5.15")}}, profile).verdict, Verdict::kPass);
}

TEST(SoftwareVersions, ToolMissingOnOneNodeOnlyIsSkew) {
  auto r = CheckVersionsIdentical(kKernel, {{"n1", Version("6.1.0")}, {"n2", NotInstalled("n2: `uname` is not installed")}},
                                  GpuProfile());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].code, "missing-on-node");
  EXPECT_EQ(r.findings[0].entity, "n2");
}

TEST(SoftwareVersions, NotInstalledAnywhereIsAnErrorNotAPass) {
  auto r = CheckVersionsIdentical(kDriver, {{"n1", NotInstalled("n1: `nvidia-smi` is not installed")}}, GpuProfile());
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(r.findings[0].message.find("nvidia-smi"), std::string::npos);
}

TEST(SoftwareVersions, UnreadableOutputIsAnErrorCarryingTheParseMessage) {
  auto r = CheckVersionsIdentical(kKernel, {{"n1", Version("6.1.0")}, {"n2", Unreadable("f:3: expected a kernel")}},
                                  GpuProfile());
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(r.findings[0].message, "f:3: expected a kernel");
}

TEST(SoftwareVersions, GpuComponentsAreSkippedWhereTheProfileHasNoGpus) {
  auto r = CheckVersionsIdentical(kDriver, {{"n1", NotInstalled("no nvidia-smi")}}, NoGpuProfile());
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_NE(r.findings[0].message.find("has no GPUs"), std::string::npos);
}

TEST(SoftwareVersions, ComponentNotRequiredByProfileIsRecordedAndSkipped) {
  auto r = CheckVersionsIdentical(kMunge, {{"n1", Version("0.5.15")}, {"n2", Version("0.5.13")}}, GpuProfile());
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_EQ(r.measurements.size(), 2u);
}

}  // namespace
}  // namespace gpuconform::software
