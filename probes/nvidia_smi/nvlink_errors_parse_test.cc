// nvidia-smi nvlink -e: NVIDIA's documented layout read per GPU and link (a healthy H100 node's
// 8 x 18 links from the fixtures, an excerpt with "[...]" and N/A counters); another output (the
// published nvlink -s files) or garbage is refused naming origin:line, never a crash.
#include "probes/nvidia_smi/nvlink_errors_parse.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace gpuconform::nvidia_smi {
namespace {

using test_support::Parsed;

TEST(NvlinkErrors, AHealthyH100NodeHasEighteenLinksPerGpuAllAtZero) {
  const auto report = Parsed(ParseNvlinkErrors(
      test_support::ReadFile(test_support::FixtureDir("topo-h100-healthy") + "/nodes/hgx-node-01/nvidia-smi-nvlink-e.txt"),
      "hgx-node-01/nvidia-smi-nvlink-e.txt"));
  ASSERT_EQ(report.gpus.size(), 8u);
  EXPECT_EQ(report.gpus[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(report.gpus[0].uuid, "GPU-2bc323e3-b383-2f6d-7e1b-74dcf9b9d5cb");
  for (const auto& gpu : report.gpus) {
    ASSERT_EQ(gpu.links.size(), 18u) << gpu.index;
    for (const auto& link : gpu.links) {
      EXPECT_EQ(link.counters.size(), 3u);
      for (const auto& [name, value] : link.counters) EXPECT_EQ(value, 0u) << name;
    }
  }
}

TEST(NvlinkErrors, AnExcerptWithElisionNotAvailableAndUnknownCountersKeepsWhatItKnows) {
  const auto report = Parsed(ParseNvlinkErrors("$ nvidia-smi nvlink -e\n"
                                               "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-abc)\n"
                                               "\t Link 0: Replay Errors: 12\n"
                                               "\t Link 0: Recovery Errors: 1\n"
                                               "\t Link 0: CRC Errors: 18446744073709551615\n"
                                               "\n"
                                               "\t [...]\n"
                                               "\t Link 17: Replay Errors: N/A\n"
                                               "\t Link 17: Effective BER: 1e-15\n"
                                               "GPU 1: NVIDIA H100 80GB HBM3\n",
                                               "f"));
  ASSERT_EQ(report.gpus.size(), 2u);
  ASSERT_EQ(report.gpus[0].links.size(), 2u);
  EXPECT_EQ(report.gpus[0].links[0].counters.at(kNvlinkReplay), 12u);
  EXPECT_EQ(report.gpus[0].links[0].counters.at(kNvlinkRecovery), 1u);
  EXPECT_EQ(report.gpus[0].links[0].counters.at(kNvlinkCrc), 18446744073709551615u);
  EXPECT_EQ(report.gpus[0].links[1].link, 17);
  EXPECT_TRUE(report.gpus[0].links[1].counters.empty()) << "N/A and unknown counters are left out";
  EXPECT_TRUE(report.gpus[1].links.empty());
  EXPECT_EQ(report.gpus[1].uuid, "");
}

TEST(NvlinkErrors, AnotherOutputOrGarbageIsRefusedNamingTheLine) {
  test_support::ExpectErrorStartingWith(ParseNvlinkErrors("", "f"), "f:1: no 'GPU <n>: ...' line");
  test_support::ExpectErrorContaining(
      ParseNvlinkErrors("GPU 0: NVIDIA H100 (UUID: GPU-1)\n\t Link 0: 26.562 GB/s\n", "f"),
      "f:2: expected 'Link <n>: <counter> Errors: <count>' (nvidia-smi nvlink -e), got 'Link 0: 26.562 GB/s' (this "
      "is nvlink -s output)");
  test_support::ExpectErrorStartingWith(
      ParseNvlinkErrors("GPU 0: x\n\t Link 0: CRC Errors: -3\n", "f"),
      "f:2: expected a count for link 0's CRC Errors, got '-3'");
  test_support::ExpectErrorStartingWith(ParseNvlinkErrors("GPU 0: x\nTraceback (most recent call last):\n", "f"),
                                        "f:2: unexpected line in nvidia-smi nvlink -e output");
  test_support::SurvivesTruncationAndNoise(
      test_support::ReadFile(test_support::FixtureDir("topo-h100-nvlink-errors") +
                             "/nodes/hgx-node-01/nvidia-smi-nvlink-e.txt"),
      ParseNvlinkErrors);
}

// No published nvlink -e output with counters exists (see ../shared/realdata/INDEX.md); the
// published nvlink -s outputs are another format, and each is refused rather than read as
// "no errors".
TEST(NvlinkErrorsRealdata, PublishedNvlinkStatusOutputsAreRefusedNotReadAsClean) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-nvlink");
  int refused = 0;
  for (const auto& path : test_support::DataFiles(dir)) {
    const auto parsed = ParseNvlinkErrors(test_support::ReadFile(path), path.filename().string());
    if (parsed) {
      for (const auto& gpu : parsed->gpus) {
        for (const auto& link : gpu.links) EXPECT_TRUE(link.counters.empty()) << path.filename();
      }
    } else {
      ++refused;
    }
  }
  EXPECT_GE(refused, 6) << "each nvlink -s listing with links is refused";
}

}  // namespace
}  // namespace gpuconform::nvidia_smi
