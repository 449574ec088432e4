// The CUDA P2P probe's report (cuda-p2p.txt) and the checks that judge it.
#include "suites/nvswitch/p2p_checks.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "probes/cuda_p2p/cuda_p2p_parse.h"
#include "suites/nvswitch/nvswitch_checks.h"
#include "suites/nvswitch/topo_test_support.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::cuda_p2p;
namespace {

using topo_test::ExpectOnlyFinding;
using topo_test::FixtureDir;
using topo_test::H100;
using topo_test::ReadFile;

// A report of `gpus` GPUs, all pairs with peer access, every pair at `gb_per_s` one way and
// twice that both ways; `edit` changes it before it is written.
std::string Report(int gpus, double gb_per_s = 389.0) {
  std::string text = fmt::format("cuda library=libcudart.so.12 device_count={} buffer_bytes=268435456\n", gpus);
  for (int g = 0; g < gpus; ++g) text += fmt::format("device index={} bus_id=0000:{:02X}:00.0\n", g, 0x18 + g);
  for (int a = 0; a < gpus; ++a) {
    for (int b = 0; b < gpus; ++b) {
      if (a != b) text += fmt::format("access from={} to={} peer=yes\n", a, b);
    }
  }
  for (int a = 0; a < gpus; ++a) {
    for (int b = 0; b < gpus; ++b) {
      if (a != b)
        text += fmt::format("bandwidth mode=unidirectional from={} to={} median_gb_per_s={}\n", a, b, gb_per_s);
    }
  }
  for (int a = 0; a < gpus; ++a) {
    for (int b = a + 1; b < gpus; ++b) {
      text += fmt::format("bandwidth mode=bidirectional from={} to={} median_gb_per_s={}\n", a, b, 2 * gb_per_s);
    }
  }
  return text;
}

void Replace(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

P2pReport Parsed(const std::string& text) { return test_support::Parsed(ParseCudaP2p(text, "cuda-p2p.txt")); }

// The report of `gpus` GPUs with one line edited: how each fault is made.
P2pReport ParsedWith(int gpus, const std::string& from, const std::string& to) {
  std::string text = Report(gpus);
  Replace(text, from, to);
  return Parsed(text);
}

TEST(CudaP2pParse, ReadsTheFixtureAndNamesGpusByBusId) {
  const auto report = Parsed(ReadFile(FixtureDir("gpu-h100-healthy") + "/nodes/hgx-node-01/cuda-p2p.txt"));
  EXPECT_EQ(report.device_count, 8);
  EXPECT_EQ(report.peer_access.size(), 56u);
  EXPECT_EQ(report.unidirectional_gb_per_s.size(), 56u);
  EXPECT_EQ(report.bidirectional_gb_per_s.size(), 28u);
  EXPECT_EQ(report.GpuName(3), "GPU 3 (0000:5D:00.0)");
}

TEST(CudaP2pParse, GarbageAndBadPairsAreErrorsNamingTheLine) {
  const topo_test::RefusedInputs bad = {
      {"device index=0\n", "f:1: expected the 'cuda ...' line first"},
      {"cuda device_count=2\naccess from=0 to=0 peer=yes\n", "f:2: from=0 to=0 is not a pair of the 2 devices"},
      {"cuda device_count=2\naccess from=0 to=1 peer=maybe\n", "f:2: peer must be yes or no"},
      {"cuda device_count=2\nbandwidth mode=sideways from=0 to=1 median_gb_per_s=3\n", "f:2: mode must be"},
      {"cuda device_count=2\nbandwidth mode=unidirectional from=0 to=1 median_gb_per_s=fast\n",
       "f:2: median_gb_per_s must be a number"},
      {"cuda\n", "f:1: the cuda line needs device_count=<n>"},
      {"hello\n", "f:1: expected the 'cuda ...' line first"},
  };
  topo_test::ExpectEachRefused(ParseCudaP2p, bad);
}

TEST(CudaP2pParse, SurvivesEveryTruncationAndRandomBytes) {
  topo_test::SurvivesTruncationAndNoise(Report(3), ParseCudaP2p);
}

TEST(NvSwitchPeerAccessAllPairs, PairWithoutAccessFailsNamingBothGpusAndBusIds) {
  EXPECT_EQ(CheckPeerAccessAllPairs("n1", Parsed(Report(8)), H100()).verdict, Verdict::kPass);
  const auto result =
      CheckPeerAccessAllPairs("n1", ParsedWith(4, "access from=1 to=3 peer=yes", "access from=1 to=3 peer=no"), H100());
  ExpectOnlyFinding(result, "n1/gpu1-gpu3",
                    "n1: GPU 1 (0000:19:00.0) and GPU 3 (0000:1B:00.0) have no peer access "
                    "from GPU 1 to GPU 3 (cudaDeviceCanAccessPeer 0)");
}

TEST(NvSwitchPeerAccessAllPairs, TruncatedAnswersAreAnError) {
  const auto result = CheckPeerAccessAllPairs("n1", ParsedWith(3, "access from=2 to=1 peer=yes\n", ""), H100());
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_NE(result.findings[0].message.find("no peer-access answer for 1 ordered pair(s), e.g. GPU 2"),
            std::string::npos);
}

TEST(NvSwitchP2pBandwidthAtFloor, SlowPairFailsWithObservedAndExpected) {
  const auto healthy = CheckP2pBandwidthAtFloor("n1", Parsed(Report(8)), H100());
  EXPECT_EQ(healthy.verdict, Verdict::kPass);
  ASSERT_EQ(healthy.measurements.size(), 1u);
  EXPECT_EQ(healthy.measurements[0].value, "389.0");
  const auto result = CheckP2pBandwidthAtFloor(
      "n1", ParsedWith(4, "from=2 to=0 median_gb_per_s=389", "from=2 to=0 median_gb_per_s=120.5"), H100());
  ExpectOnlyFinding(result, "n1/gpu0-gpu2",
                    "n1: GPU 2 (0000:1A:00.0) -> GPU 0 (0000:18:00.0) copies at 120.5 GB/s "
                    "one way");
  EXPECT_NE(result.findings[0].message.find("expected >= 335 GB/s (profile h100-sxm-8)"), std::string::npos);
}

TEST(NvSwitchP2pBandwidthAtFloor, UnmeasuredPairsAndAnEarlyStopAreErrors) {
  const auto missing = CheckP2pBandwidthAtFloor(
      "n1",
      ParsedWith(3, "bandwidth mode=unidirectional from=1 to=2 median_gb_per_s=389\n",
                 "error from=1 to=2 message=\"one way: cudaMemcpyPeerAsync: out of memory (cudaError 2)\"\n"),
      H100());
  EXPECT_EQ(missing.verdict, Verdict::kError);
  EXPECT_NE(
      missing.findings[0].message.find("GPU 1 (0000:19:00.0) -> GPU 2 (0000:1A:00.0) (one way: cudaMemcpyPeerAsync"),
      std::string::npos)
      << missing.findings[0].message;
  const auto stopped =
      CheckP2pBandwidthAtFloor("n1", Parsed(Report(3) + "stopped reason=\"time budget of 90 s spent\"\n"), H100());
  EXPECT_EQ(stopped.verdict, Verdict::kError);
  EXPECT_NE(stopped.findings[0].message.find("the probe stopped: time budget of 90 s spent"), std::string::npos);
}

TEST(NvSwitchP2pBandwidthUniform, PairFarBelowTheMedianFailsButOneUnderTheFloorIsNamedOnce) {
  EXPECT_EQ(CheckP2pBandwidthUniform("n1", Parsed(Report(8)), H100()).verdict, Verdict::kPass);
  // 345 GB/s clears the 335 floor but is 0.77x the node's 450: only Uniform names it.
  std::string text = Report(4, 450);
  Replace(text, "bandwidth mode=bidirectional from=1 to=3 median_gb_per_s=900",
          "bandwidth mode=bidirectional from=1 to=3 median_gb_per_s=690");
  const auto result = CheckP2pBandwidthUniform("n1", Parsed(text), H100());
  ExpectOnlyFinding(result, "n1/gpu1-gpu3",
                    "n1: GPU 1 (0000:19:00.0) <-> GPU 3 (0000:1B:00.0) copies at 690.0 GB/s "
                    "both ways, 0.77x the node's median of 900.0 GB/s, expected >= 0.8x");
  EXPECT_EQ(CheckP2pBandwidthAtFloor("n1", Parsed(text), H100()).verdict, Verdict::kPass);

  std::string under_floor = Report(4);
  Replace(under_floor, "from=0 to=1 median_gb_per_s=389", "from=0 to=1 median_gb_per_s=100");
  EXPECT_EQ(CheckP2pBandwidthUniform("n1", Parsed(under_floor), H100()).verdict, Verdict::kPass);
  EXPECT_EQ(CheckP2pBandwidthAtFloor("n1", Parsed(under_floor), H100()).verdict, Verdict::kFail);
}

TEST(NvSwitchP2pChecks, OneGpuWhereTheProfileExpectsEightFailsNamingTheCudaRuntime) {
  for (const auto& result : {CheckPeerAccessAllPairs("n1", Parsed(Report(1)), H100()),
                             CheckP2pBandwidthAtFloor("n1", Parsed(Report(1)), H100()),
                             CheckP2pBandwidthUniform("n1", Parsed(Report(1)), H100())}) {
    ASSERT_EQ(result.verdict, Verdict::kFail) << result.check;
    EXPECT_EQ(result.findings[0].code, "gpu-count");
    EXPECT_EQ(result.findings[0].message.rfind("n1: 1 GPUs seen by the CUDA runtime, expected 8 (profile", 0), 0u)
        << result.findings[0].message;
  }
}

TEST(NvSwitchP2pChecks, OneGpuNodeOfAOneGpuProfileSkipsSayingThereAreNoPairs) {
  Profile one_gpu = H100();
  one_gpu.gpu->count_per_node = 1;
  for (const auto& result : {CheckPeerAccessAllPairs("n1", Parsed(Report(1)), one_gpu),
                             CheckP2pBandwidthAtFloor("n1", Parsed(Report(1)), one_gpu),
                             CheckP2pBandwidthUniform("n1", Parsed(Report(1)), one_gpu)}) {
    EXPECT_EQ(result.verdict, Verdict::kSkip) << result.check;
    EXPECT_EQ(result.findings[0].message, "one GPU on node n1: no pairs");
  }
}

// The suite reads cuda-p2p.txt before judging: a probe that could not run is each P2P check's
// error, quoting why, unless the profile has no GPUs, which skips them before any read.
TEST(NvSwitchP2pChecks, NoGpuProfileSkipsAndMissingDriverIsAnError) {
  Profile local = H100();
  local.name = "local";
  local.gpu->present = false;
  const ClusterRaw raw = test_support::RawOf(
      {{"n1",
        {{"cuda-p2p",
          {ProbeStatus::kToolMissing, "", "", "n1: no NVIDIA driver (libcuda.so.1 not found)"}}}}});
  for (const char* check : {kPeerAccessAllPairs, kP2pBandwidthAtFloor, kP2pBandwidthUniform}) {
    const CheckResult skipped = test_support::JudgeRegisteredOnce(kSuite, check, raw, local);
    EXPECT_EQ(skipped.verdict, Verdict::kSkip) << check;
    EXPECT_NE(skipped.findings[0].message.find("has no GPUs (gpu.present: false)"), std::string::npos);
    const CheckResult error = test_support::JudgeRegisteredOnce(kSuite, check, raw, H100());
    EXPECT_EQ(error.TestName(), std::string("NvSwitch.") + check + "/n1");
    EXPECT_EQ(error.verdict, Verdict::kError) << check;
    EXPECT_EQ(error.findings[0].code, "unavailable");
    EXPECT_NE(error.findings[0].message.find("no NVIDIA driver"), std::string::npos) << error.findings[0].message;
  }
}

}  // namespace
}  // namespace gpuconform::nvswitch
