// The gpu-* snapshot fixtures: a healthy HGX H100 node with every in-process probe's output
// (NVML, CUDA P2P, libibverbs, NIC sysfs), and one broken copy per fault, each failing exactly
// its check. Also this binary on a machine without GPUs or RDMA devices: errors that say no
// driver was found under a GPU profile, skips that say why under `local`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

#include "harness/core/live_source.h"
#include "probes/cuda_p2p/cuda_p2p_probe.h"
#include "probes/nvml/nvml_probe.h"
#include "suites/nvswitch/topo_test_support.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::cuda_p2p;
using namespace gpuconform::nvml;
namespace {

using topo_test::BuiltinProfile;
using topo_test::FixtureCase;
using topo_test::FixtureDir;

class GpuFixtures : public testing::TestWithParam<FixtureCase> {};

TEST_P(GpuFixtures, FailExactlyTheirCheckNamingTheFault) {
  const FixtureCase& c = GetParam();
  const auto results = topo_test::EvaluateTopologySuites(FixtureDir(c.snapshot), BuiltinProfile("h100-sxm-8"));
  ASSERT_EQ(results.size(), 16u);  // every check of NvSwitch, Pcie and InfiniBand
  topo_test::ExpectFailsExactlyItsCheck(c, results);
  if (!c.failing.empty()) {
    EXPECT_EQ(results.count(c.failing), 1u) << c.failing;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Gpu, GpuFixtures,
    testing::Values(
        FixtureCase{"gpu-h100-healthy", "", "", ""},
        FixtureCase{"gpu-h100-no-peer-access", "NvSwitch.PeerAccessAllPairs", "hgx-node-01/gpu2-gpu5",
                    "GPU 2 (0000:3A:00.0) and GPU 5 (0000:AB:00.0) have no peer access in either direction"},
        FixtureCase{"gpu-h100-slow-p2p", "NvSwitch.P2pBandwidthAtFloor", "hgx-node-01/gpu1-gpu6",
                    "GPU 1 (0000:2A:00.0) -> GPU 6 (0000:BA:00.0) copies at 183.1 GB/s and GPU 6 (0000:BA:00.0) -> GPU 1 (0000:2A:00.0) copies at 182.6 GB/s one way"},
        FixtureCase{"gpu-h100-fabric-in-progress", "NvSwitch.FabricRegistered", "hgx-node-01/gpu4",
                    "GPU 4 (00000000:9A:00.0) fabric state is 'In Progress', expected 'Completed'"},
        FixtureCase{"gpu-h100-nvml-link-down", "NvSwitch.AllLinksActive", "hgx-node-01/gpu2/link7",
                    "GPU 2 link 7 is inactive"},
        FixtureCase{"gpu-h100-nvlink-to-gpu", "NvSwitch.AllLinksActive", "hgx-node-01/gpu6/link3",
                    "GPU 6 link 3 leads to another GPU directly (00000000:DB:00.0), expected an NVSwitch"},
        FixtureCase{"gpu-h100-nic-pcie-downtrained", "Pcie.NicLinksAtMaxGenAndWidth", "hgx-node-01/mlx5_3",
                    "rail NIC mlx5_3 (0000:5e:00.0) PCIe link is x8, expected x16"}),
    [](const testing::TestParamInfo<FixtureCase>& info) { return topo_test::FixtureCaseName(info.param, "gpu-"); });

TEST(GpuFixturesLocalProfile, EveryCheckSkipsSayingWhy) {
  const auto results = topo_test::EvaluateTopologySuites(FixtureDir("gpu-h100-healthy"), BuiltinProfile("local"));
  ASSERT_EQ(results.size(), 16u);  // every check of NvSwitch, Pcie and InfiniBand
  topo_test::ExpectEveryCheckSkipsSayingProfileHasNo(results);
}

// This binary, live, where neither a GPU driver nor an RDMA device exists (the build and CI
// machines): the checks must not pass, and must say why. Where a driver is installed the
// test has nothing to show, and says so.
TEST(NoGpuMachine, GpuProfileErrorsSayNoDriverAndLocalSkipsSayWhy) {
  const LiveContext here{LocalHostname(), nullptr};
  if (NvmlOutput(here).status != ProbeStatus::kToolMissing || CudaP2pOutput(here).status != ProbeStatus::kToolMissing) {
    GTEST_SKIP() << "this machine has an NVIDIA driver (libnvidia-ml.so.1 or libcuda.so.1 loads): the no-driver "
                    "path is not shown here";
  }
  const std::string binary = GPUCONFORM_BINARY;
  const std::string filter = "'NvSwitch.*:Pcie.LinksAtMaxGenAndWidth'";
  const std::string out = "/tmp/gpuconform-nogpu-" + std::to_string(::getpid());
  const int h100 =
      std::system((binary + " run --profile h100-sxm-8 --filter " + filter + " > " + out + ".h100 2>&1").c_str());
  const int local = std::system(
      (binary + " run --profile local --filter 'NvSwitch.*:Pcie.*:InfiniBand.*' > " + out + ".local 2>&1").c_str());
  const std::string h100_text = topo_test::ReadFile(out + ".h100");
  const std::string local_text = topo_test::ReadFile(out + ".local");
  std::remove((out + ".h100").c_str());
  std::remove((out + ".local").c_str());
  // Exit 3: nothing non-conforming was found, but checks could not be evaluated.
  EXPECT_EQ(WEXITSTATUS(h100), 3) << h100_text;
  EXPECT_NE(h100_text.find("8 checks (8 test cases): 0 conform, 0 non-conforming, 8 not evaluated (error)"),
            std::string::npos)
      << h100_text;
  std::size_t errors = 0;
  for (std::size_t at = h100_text.find("[ ERROR  ]"); at != std::string::npos;
       at = h100_text.find("[ ERROR  ]", at + 1)) {
    ++errors;
    const std::size_t next_line = h100_text.find('\n', at);
    const std::string why = h100_text.substr(next_line + 1, h100_text.find('\n', next_line + 1) - next_line - 1);
    EXPECT_NE(why.find("no NVIDIA driver"), std::string::npos) << why;
  }
  EXPECT_EQ(errors, 8u) << h100_text;
  EXPECT_EQ(WEXITSTATUS(local), 0) << local_text;
  EXPECT_NE(
      local_text.find("16 checks (16 test cases): 0 conform, 0 non-conforming, 0 not evaluated (error), 16 skipped"),
      std::string::npos)
      << local_text;
  EXPECT_NE(local_text.find("profile local has no GPUs (gpu.present: false)"), std::string::npos) << local_text;
  EXPECT_NE(local_text.find("profile local has no InfiniBand (infiniband.present: false)"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::nvswitch
