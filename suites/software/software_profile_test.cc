// The profile's software: section: the components judged across nodes, pinned versions per
// component and per firmware model with their source, the defaults where the section is
// absent, and the lists the built-in profiles judge.
#include "suites/software/software_profile.h"

#include <string>
#include <vector>

#include "tests/support/profile_text.h"

namespace gpuconform::software {
namespace {

using namespace test_support::profile_tests;

TEST(SoftwareProfile, AbsentIsTheDefaultsThatJudgeNothing) {
  const Profile profile = test_support::Parsed(ParseProfile("name: minimal\n", test_support::kProfileFile));
  EXPECT_EQ(profile.Get<SoftwareExpectation>(), nullptr);
  EXPECT_TRUE(profile.GetOrDefault<SoftwareExpectation>().identical_across_nodes.empty());
  EXPECT_TRUE(profile.GetOrDefault<SoftwareExpectation>().pinned.empty());
}

TEST(SoftwareProfile, RejectsUnknownAndRepeatedSoftwareComponents) {
  EXPECT_EQ(
      ParseError(
          Lines({"name: n", "software:", "  identical_across_nodes:", "    - kernel", "    - kernal"})),
      "t.yaml:5:software.identical_across_nodes[1]: unknown component 'kernal' (known: kernel, driver, cuda, "
      "nccl, slurm, munge, mpi, gpuconform, vbios, inforom, hca_firmware)");
  EXPECT_EQ(ParseError(Lines({"name: n", "software:", "  identical_across_nodes: [nccl, nccl]"})),
            "t.yaml:3:software.identical_across_nodes[1]: 'nccl' is listed twice");
}

TEST(SoftwareProfile, ReadsPinnedVersionsPerComponentAndPerFirmwareModel) {
  auto profile = ParseProfile(Lines({"name: n", "software:", "  pinned:", "    driver: 550.54.15",
                                     "    hca_firmware: {MT4129: 28.39.1002, MT4125: 22.39.1002}",
                                     "  source: the vendor's support matrix"}),
                              "t.yaml");
  ASSERT_TRUE(profile) << profile.error();
  const SoftwareExpectation& software = profile->GetOrDefault<SoftwareExpectation>();
  ASSERT_EQ(software.pinned.size(), 3u);
  ASSERT_NE(software.PinFor("driver"), nullptr);
  EXPECT_EQ(software.PinFor("driver")->version, "550.54.15");
  EXPECT_EQ(software.PinFor("hca_firmware", "MT4125")->version, "22.39.1002");
  EXPECT_EQ(software.PinFor("hca_firmware", "MT4115"), nullptr) << "a model with no pin of its own";
  EXPECT_EQ(software.PinFor("kernel"), nullptr);
  EXPECT_EQ(software.source, "the vendor's support matrix");
}

TEST(SoftwareProfile, RejectsPinsWithoutSourceOrOfUnknownComponentsOrModels) {
  EXPECT_EQ(ParseError(Lines({"name: n", "software:", "  pinned: {driver: 550.54.15}"})),
            "t.yaml:2:software.source: missing; say where the pinned versions come from, e.g. the vendor's support "
            "matrix");
  EXPECT_EQ(ParseError(Lines({"name: n", "software:", "  pinned: {drivr: 550}", "  source: s"})),
            "t.yaml:3:software.pinned.drivr: unknown component 'drivr' (known: kernel, driver, cuda, nccl, slurm, "
            "munge, mpi, gpuconform, vbios, inforom, hca_firmware)");
  EXPECT_EQ(ParseError(Lines({"name: n", "software:", "  pinned: {kernel: {x86: 6.1}}", "  source: s"})),
            "t.yaml:3:software.pinned.kernel: expected a version string, got a mapping");
  EXPECT_EQ(ParseError(Lines({"name: n", "software:", "  pinned: [driver]", "  source: s"})),
            "t.yaml:3:software.pinned: expected a mapping of component: version, got a list");
}

// The GPU profiles judge every component, firmware (vbios, inforom, hca_firmware) included;
// the local cluster only what it runs.
TEST(SoftwareProfile, BuiltinProfilesJudgeTheComponentsTheyRun) {
  for (const char* name : kGpuProfiles) {
    const Profile profile = test_support::BuiltinProfile(name);
    EXPECT_EQ(profile.GetOrDefault<SoftwareExpectation>().identical_across_nodes.size(), 11u) << name;
  }
  EXPECT_EQ(test_support::BuiltinProfile("local").GetOrDefault<SoftwareExpectation>().identical_across_nodes,
            (std::vector<std::string>{"kernel", "slurm", "munge", "mpi", "gpuconform"}));
}

}  // namespace
}  // namespace gpuconform::software
