// InfiniBand.GpuDirectRdmaAvailable: each way it fails, the ways it passes, the published
// outputs' verdicts (../shared/realdata/gpudirect-rdma), and the snapshots of a healthy node and of
// one without its peer-memory module.
#include "suites/infiniband/gpudirect_checks.h"

#include <gtest/gtest.h>

#include <set>

#include "suites/infiniband/infiniband_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::infiniband {
namespace {

using gpudirect::GpuDirectReport;
using gpudirect::ParseGpuDirect;
using nccl_log::NcclLog;
using nccl_log::ParseNcclLog;

GpuDirectReport Facts(const std::string& text) { return test_support::Parsed(ParseGpuDirect(text, "n1/gpudirect.txt")); }
NcclLog Log(const std::string& text) { return test_support::Parsed(ParseNcclLog(text, "nccl-debug.log")); }

const std::string kModules = "module name=nvidia_peermem loaded=0\nmodule name=nv_peer_mem loaded=0\n"
                             "module name=nvidia loaded=1\nmodule name=ib_core loaded=1\n";
const std::string kHealthy = "gpudirect kernel_release=5.15.0-91-generic\nmodule name=nvidia_peermem loaded=1\n"
                             "driver version=535.129.03 open_kernel_module=0\n";
const std::string kNoModuleOldKernel =
    "gpudirect kernel_release=5.4.0-150-generic\n" + kModules + "driver version=535.129.03 open_kernel_module=0\n";
const std::string kDmaBufOnly =
    "gpudirect kernel_release=6.5.0-35-generic\n" + kModules + "driver version=550.54.15 open_kernel_module=1\n";

std::string Measurement(const CheckResult& result, const std::string& name) {
  for (const auto& m : result.measurements) {
    if (m.name == name) return m.value;
  }
  return "";
}

TEST(GpuDirectRdmaAvailable, PeerMemoryLoadedPassesAndSaysNoLogWasRead) {
  const auto result = CheckGpuDirectRdmaAvailable("n1", Facts(kHealthy), nullptr, "no cluster-wide log");
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_EQ(Measurement(result, "n1.peer_memory_module"), "nvidia_peermem");
  EXPECT_EQ(Measurement(result, "n1.nccl_log"), "none in this run (no cluster-wide log)");
}

TEST(GpuDirectRdmaAvailable, DmaBufWithoutAModulePasses) {
  const auto result = CheckGpuDirectRdmaAvailable("n1", Facts(kDmaBufOnly), nullptr, "none");
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_EQ(Measurement(result, "n1.dmabuf"), "possible");
}

TEST(GpuDirectRdmaAvailable, NoModuleAndNoDmaBufFailsNamingWhatIsMissingAndTheFix) {
  const auto result = CheckGpuDirectRdmaAvailable("n1", Facts(kNoModuleOldKernel), nullptr, "none");
  test_support::ExpectOnlyFinding(result, "n1", "n1: GPUDirect RDMA cannot work: neither nvidia_peermem nor nv_peer_mem is loaded");
  EXPECT_EQ(result.findings[0].code, "gdr-unavailable");
  const std::string& message = result.findings[0].message;
  EXPECT_NE(message.find("kernel 5.4.0-150-generic predates 5.12"), std::string::npos) << message;
  EXPECT_NE(message.find("proprietary kernel modules"), std::string::npos) << message;
  EXPECT_NE(message.find("modprobe nvidia-peermem"), std::string::npos) << message;
  EXPECT_NE(message.find("/etc/modules-load.d/"), std::string::npos) << message;
}

TEST(GpuDirectRdmaAvailable, NcclDisablingAnHcaWhereTheModuleIsLoadedFailsWithItsReason) {
  const auto log = Log("n1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n"
                       "n1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'\n"
                       "n2:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n");
  const auto result = CheckGpuDirectRdmaAvailable("n1", Facts(kHealthy), &log, "");
  test_support::ExpectOnlyFinding(result, "n1/mlx5_0",
                                  "n1: NCCL disabled GPU Direct RDMA for HCA 'mlx5_0' (no module) at line 1 although "
                                  "nvidia_peermem is loaded");
  EXPECT_EQ(result.findings[0].code, "gdr-disabled-by-nccl");
}

TEST(GpuDirectRdmaAvailable, AGpuDisabledTowardsEveryHcaFailsButAFarHcaBesideANearOneDoesNot) {
  const auto far_only = Log("n1:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU ca000 / HCA 0 (distance 7 > 4)\n"
                            "n1:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU ca000 / HCA 1 (distance 6 > 4)\n");
  const auto failed = CheckGpuDirectRdmaAvailable("n1", Facts(kHealthy), &far_only, "");
  test_support::ExpectOnlyFinding(failed, "n1/gpuca000",
                                  "n1: NCCL disabled GPU Direct RDMA for GPU ca000 towards every HCA it weighed; the "
                                  "nearest, HCA 1, is at distance 6, above NCCL_NET_GDR_LEVEL's 4 (line 2)");
  const auto mixed = Log("n1:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 7 (distance 7 > 4)\n"
                         "n1:1:2 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 18000 / HCA 0 (distance 3 <= 4), read 1\n"
                         "n1:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n");
  const auto passed = CheckGpuDirectRdmaAvailable("n1", Facts(kHealthy), &mixed, "");
  EXPECT_EQ(passed.verdict, Verdict::kPass) << test_support::Describe({passed});
  EXPECT_EQ(Measurement(passed, "n1.nccl_net_channels_gdrdma"), "1 of 1");
}

TEST(GpuDirectRdmaAvailable, NcclEnablingItIsEvidenceWhereTheFactsDoNotShowHow) {
  const auto log = Log("n1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA (DMABUF) enabled for HCA 0 'mlx5_0\n");
  const auto result = CheckGpuDirectRdmaAvailable("n1", Facts(""), &log, "");
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_EQ(Measurement(result, "n1.gdr_evidence"), "NCCL log: GPU Direct RDMA enabled for HCA 'mlx5_0' (line 1)");
}

// The published empty `lsmod | grep` on an A100 host with NCCL 2.12.9: FAIL, no peer-memory
// module, and that NCCL predates DMA-BUF.
TEST(GpuDirectRdmaAvailable, RealdataEmptyPeermemGrepOnNccl212Fails) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "gpudirect-rdma");
  const auto facts = test_support::Parsed(
      ParseGpuDirect(test_support::ReadFile(dir / "lsmod-grep-peermem-empty-a100-nccl2.12.txt"), "gpu3/lsmod"));
  const auto alone = CheckGpuDirectRdmaAvailable("gpu3", facts, nullptr, "none");
  test_support::ExpectOnlyFinding(alone, "gpu3", "gpu3: GPUDirect RDMA cannot work: neither nvidia_peermem nor nv_peer_mem is loaded");
  const auto log = Log("gpu3:1:1 [0] NCCL INFO NCCL version 2.12.9+cuda11.6\n");
  const auto with_log = CheckGpuDirectRdmaAvailable("gpu3", facts, &log, "");
  ASSERT_EQ(with_log.verdict, Verdict::kFail);
  EXPECT_EQ(with_log.findings[0].code, "gdr-unavailable");
  EXPECT_NE(with_log.findings[0].message.find("NCCL 2.12.9+cuda11.6 predates DMA-BUF (2.13)"), std::string::npos)
      << with_log.findings[0].message;
}

// The published NCCL 2.16.5 init log run with NCCL_NET_GDR_LEVEL=SYS: PASS, warning that GDR is on
// only because the threshold was raised (GPU and NIC meet at the CPU's host bridge, PHB).
TEST(GpuDirectRdmaAvailable, RealdataGdrEnabledOnlyByARaisedLevelPassesWithAWarning) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "gpudirect-rdma");
  const auto log = Log(test_support::ReadFile(dir / "nccl-gdr-enabled-a100-pcie-cx5-gdr-level-sys-init-log.txt"));
  ASSERT_EQ(log.gdr.size(), 2u);
  ASSERT_FALSE(log.gdr_paths.empty());
  EXPECT_EQ(log.gdr_paths[0].gpu, "81000");
  EXPECT_EQ(log.gdr_paths[0].distance, 6);
  EXPECT_EQ(log.gdr_paths[0].threshold, 7);
  // The published log has no module facts: the driver (570) and NCCL's enabled lines are what it shows.
  const auto facts = Facts("driver version=570.172.08\n");
  const auto result = CheckGpuDirectRdmaAvailable("n013", facts, &log, "");
  EXPECT_EQ(result.verdict, Verdict::kPass) << test_support::Describe({result});
  const std::string warning = Measurement(result, "n013.gdr_warning");
  EXPECT_NE(warning.find("enabled only because NCCL_NET_GDR_LEVEL=SYS"), std::string::npos) << warning;
  EXPECT_NE(warning.find("GPU 81000 / HCA 1 through PHB"), std::string::npos) << warning;
  EXPECT_NE(warning.find("GPU 81000 / HCA 0 through SYS"), std::string::npos) << warning;
  EXPECT_EQ(Measurement(result, "n013.nccl_net_channels_gdrdma"), "4 of 4");
}

// No published NCCL log changes a healthy node's verdict: none says GDR is disabled.
TEST(GpuDirectRdmaAvailable, RealdataNcclLogsLeaveAHealthyNodePassing) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nccl-debug-logs");
  for (const auto& path : test_support::DataFiles(dir)) {
    const auto log = ParseNcclLog(test_support::ReadFile(path), path.filename().string());
    if (!log) continue;
    std::set<std::string> hosts;
    for (const auto& status : log->gdr) hosts.insert(status.source.host);
    for (const auto& channel : log->channels) hosts.insert(channel.source.host);
    hosts.insert("elsewhere");
    for (const auto& host : hosts) {
      const auto result = CheckGpuDirectRdmaAvailable(host, Facts(kHealthy), &*log, "");
      EXPECT_EQ(result.verdict, Verdict::kPass) << path << " " << host << "\n" << test_support::Describe({result});
    }
  }
}

TEST(GpuDirectRdmaAvailable, SkippedWithoutInfinibandGpusOrTheAsk) {
  EXPECT_NE(GpuDirectSkipReason(test_support::BuiltinProfile("local")).value_or("").find("profile local has no"),
            std::string::npos);
  EXPECT_FALSE(GpuDirectSkipReason(test_support::BuiltinProfile("h100-sxm-8")));
}

// Through the registered suite on snapshots: the healthy node conforms (no NCCL log in the
// snapshot, so on the module facts alone), the one without nvidia_peermem fails.
TEST(GpuDirectRdmaAvailable, SnapshotsOfAHealthyNodeAndOfOneWithoutPeermem) {
  const Profile profile = test_support::BuiltinProfile("h100-sxm-8");
  auto verdict_of = [&](const std::string& snapshot) {
    return test_support::CheckOnFixture(kSuite, kGpuDirectRdmaAvailable, snapshot, profile);
  };
  const CheckResult healthy = verdict_of("topo-h100-healthy");
  EXPECT_EQ(healthy.verdict, Verdict::kPass) << test_support::Describe({healthy});
  EXPECT_NE(Measurement(healthy, "hgx-node-01.nccl_log").find("none in this run"), std::string::npos);
  const CheckResult broken = verdict_of("topo-h100-gdr-no-peermem");
  test_support::ExpectOnlyFinding(broken, "hgx-node-01",
                                  "hgx-node-01: GPUDirect RDMA cannot work: neither nvidia_peermem nor nv_peer_mem is "
                                  "loaded");
  EXPECT_NE(broken.findings[0].message.find("kernel 5.4.0-150-generic predates 5.12"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::infiniband
