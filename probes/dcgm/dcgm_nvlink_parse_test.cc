// dcgmi nvlink --link-status as published (../shared/realdata/dcgm-diag) and as
// dcgmi/Nvlink.cpp prints NVSwitches and its error; broken input is refused.
#include <gtest/gtest.h>

#include "probes/dcgm/dcgm_nvlink_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::dcgm {
namespace {

using test_support::Parsed;

TEST(DcgmNvlinkParse, H100NvlPairHasAllEighteenLinksDownOnBothGpusAndNoNvswitch) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  const auto status = Parsed(ParseDcgmNvlinkStatus(
      test_support::ReadFile(dir / "dcgmi-nvlink-link-status-2xH100NVL-all-links-down.txt"), "f"));
  ASSERT_EQ(status.gpus.size(), 2u);
  for (int gpu = 0; gpu < 2; ++gpu) {
    EXPECT_EQ(status.gpus[static_cast<std::size_t>(gpu)].id, gpu);
    EXPECT_EQ(status.gpus[static_cast<std::size_t>(gpu)].links.size(), 18u);
    EXPECT_EQ(status.gpus[static_cast<std::size_t>(gpu)].CountIn(NvlinkState::kDown), 18);
    EXPECT_EQ(status.gpus[static_cast<std::size_t>(gpu)].CountIn(NvlinkState::kUp), 0);
  }
  EXPECT_TRUE(status.nvswitches.empty());
  EXPECT_TRUE(status.errors.empty());
}

TEST(DcgmNvlinkParse, ReadsNvswitchesEntityIdsAndDcgmsError) {
  const auto status = Parsed(ParseDcgmNvlinkStatus(
      "+----------------------+\n|  NvLink Link Status  |\n+----------------------+\nGPUs:\n    gpuId 0:\n"
      "        U U X _\n    Link Entities: 0:8\nNvSwitches:\n    physicalId 8:\n        U D\n\n"
      "Key: Up=U, Down=D, Disabled=X, Not Supported=_\n",
      "f"));
  ASSERT_EQ(status.gpus.size(), 1u);
  EXPECT_EQ(status.gpus[0].links,
            (std::vector<NvlinkState>{NvlinkState::kUp, NvlinkState::kUp, NvlinkState::kDisabled, NvlinkState::kNotSupported}));
  ASSERT_EQ(status.nvswitches.size(), 1u);
  EXPECT_EQ(status.nvswitches[0].id, 8);
  EXPECT_EQ(status.nvswitches[0].CountIn(NvlinkState::kDown), 1);
  const auto error = Parsed(ParseDcgmNvlinkStatus(
      "Error: Unable to retrieve NvLink link status from DCGM. Return: Host engine connection invalid/disconnected.\n", "f"));
  ASSERT_EQ(error.errors.size(), 1u);
}

TEST(DcgmNvlinkParse, RefusesOtherTextAndBadStates) {
  const std::string head = "|  NvLink Link Status  |\nGPUs:\n    gpuId 0:\n";
  test_support::ExpectEachRefused(ParseDcgmNvlinkStatus,
                                  {
                                      {"", "f:1: not dcgmi nvlink --link-status output"},
                                      {"GPU 0: NVIDIA H100\n", "f:1: not dcgmi nvlink --link-status output"},
                                      {head + "        U Q\n", "f:4: link state 'Q' is none of U D X _"},
                                      {head, "f:3: the output ends before the last row"},
                                      {"|  NvLink Link Status  |\nhello\n", "f:2: a line before GPUs:"},
                                  });
}

TEST(DcgmNvlinkParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "|  NvLink Link Status  |\nGPUs:\n    gpuId 0:\n        U D X _\nNvSwitches:\n    physicalId 8:\n        U\n",
      ParseDcgmNvlinkStatus);
}

}  // namespace
}  // namespace gpuconform::dcgm
