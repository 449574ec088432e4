// GPUDirect RDMA availability in each form operators read it: gpuconform's probe (against sysfs
// and procfs trees built here, as the kernel and the NVIDIA driver lay them out), lsmod, and
// `lsmod | grep` as published (../shared/realdata/gpudirect-rdma).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "probes/gpudirect/gpudirect_parse.h"
#include "probes/gpudirect/gpudirect_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform::gpudirect {
namespace {

namespace fs = std::filesystem;
using test_support::Parsed;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(GpuDirectProbe, RecordsModulesKernelAndTheDriversFlavour) {
  test_support::TempDir sys;
  test_support::TempDir proc;
  fs::create_directories(fs::path(sys.path()) / "module/nvidia_peermem");
  fs::create_directories(fs::path(sys.path()) / "module/ib_core");
  Write(fs::path(sys.path()) / "module/nvidia/version", "535.129.03\n");
  Write(fs::path(proc.path()) / "sys/kernel/osrelease", "5.15.0-91-generic\n");
  Write(fs::path(proc.path()) / "driver/nvidia/version",
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.129.03  Release Build  (dvs-builder@U16-I3-B03-4-3)\n"
        "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n");
  const RawOutput out = GpuDirectOutputAt("node1", sys.path(), proc.path());
  ASSERT_TRUE(out.ok());
  const auto report = Parsed(ParseGpuDirect(out.text, "node1/gpudirect.txt"));
  EXPECT_EQ(report.format, "probe");
  EXPECT_EQ(report.PeerMemoryModule(), "nvidia_peermem");
  EXPECT_TRUE(report.Loaded("nvidia"));
  EXPECT_TRUE(report.Searched("nv_peer_mem"));
  EXPECT_FALSE(report.Loaded("nv_peer_mem"));
  EXPECT_EQ(report.kernel_release, "5.15.0-91-generic");
  EXPECT_EQ(report.driver_version, "535.129.03");
  ASSERT_TRUE(report.open_kernel_module.has_value());
  EXPECT_TRUE(*report.open_kernel_module);
}

TEST(GpuDirectProbe, ANodeWithoutTheDriverHasEveryModuleAbsent) {
  test_support::TempDir sys;
  test_support::TempDir proc;
  const auto report =
      Parsed(ParseGpuDirect(GpuDirectOutputAt("node1", sys.path(), proc.path()).text, "node1/gpudirect.txt"));
  EXPECT_TRUE(report.loaded.empty());
  EXPECT_EQ(report.searched.size(), ModulesOfInterest().size());
  EXPECT_EQ(report.driver_version, "");
  EXPECT_FALSE(report.open_kernel_module.has_value());
}

TEST(GpuDirectParse, LsmodWithItsHeaderSaysWhatIsAbsentToo) {
  const auto report = Parsed(ParseGpuDirect("Module                  Size  Used by\n"
                                            "nvidia_uvm           1437696  0\n"
                                            "nvidia              56463360  1 nvidia_uvm\n"
                                            "ib_core               434176  8 rdma_cm,ib_ipoib,iw_cm,ib_umad\n",
                                            "f"));
  EXPECT_EQ(report.format, "lsmod");
  EXPECT_EQ(report.PeerMemoryModule(), "");
  EXPECT_TRUE(report.Searched("nvidia_peermem"));
  EXPECT_TRUE(report.Loaded("nvidia"));
}

TEST(GpuDirectParse, LsmodGrepLinesAndAnEmptyGrep) {
  const auto found = Parsed(ParseGpuDirect("nvidia_peermem         16384  0\n"
                                           "ib_core               491520  9 rdma_cm,ib_ipoib,nvidia_peermem\n",
                                           "f"));
  EXPECT_EQ(found.format, "lsmod-grep");
  EXPECT_EQ(found.PeerMemoryModule(), "nvidia_peermem");
  const auto empty = Parsed(ParseGpuDirect("", "f"));
  EXPECT_EQ(empty.format, "lsmod-grep");
  EXPECT_TRUE(empty.loaded.empty());
  EXPECT_TRUE(empty.searched.empty());
}

TEST(GpuDirectParse, AnEmptyGrepTranscriptNamesItsHostAndWhatItSearched) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "gpudirect-rdma");
  const auto report = Parsed(
      ParseGpuDirect(test_support::ReadFile(dir / "lsmod-grep-peermem-empty-a100-nccl2.12.txt"), "gpu3/lsmod"));
  EXPECT_EQ(report.format, "lsmod-grep");
  EXPECT_EQ(report.host, "gpu3");
  EXPECT_TRUE(report.loaded.empty());
  EXPECT_TRUE(report.Searched("nvidia_peermem"));
  EXPECT_TRUE(report.Searched("nv_peer_mem"));
  EXPECT_FALSE(report.Searched("nvidia"));
}

TEST(GpuDirectParse, VersionsToMajorMinor) {
  EXPECT_EQ(MajorMinor("5.15.0-91-generic"), std::make_pair(5, 15));
  EXPECT_EQ(MajorMinor("535.129.03"), std::make_pair(535, 129));
  EXPECT_EQ(MajorMinor("2.12.9+cuda11.6"), std::make_pair(2, 12));
  EXPECT_FALSE(MajorMinor(""));
  EXPECT_FALSE(MajorMinor("5"));
  EXPECT_FALSE(MajorMinor("x.1"));
}

TEST(GpuDirectParse, RefusesOtherText) {
  test_support::ExpectEachRefused(ParseGpuDirect,
                                  {
                                      {"hello\n", "f:1: 'hello' is not an lsmod line"},
                                      {"nvidia_peermem 16384 zero\n", "f:1:"},
                                      {"gpudirect kernel_release=5.15\nmodule name=nvidia loaded=2\n", "f:2: loaded='2'"},
                                      {"module loaded=1\n", "f:1: a module needs name="},
                                      {"driver version=abc\n", "f:1: version='abc'"},
                                      {"gpudirect x=1\nport name=x\n", "f:2: unexpected 'port'"},
                                  });
}

TEST(GpuDirectParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "gpudirect sysfs_root=/sys kernel_release=5.15.0\nmodule name=nvidia_peermem loaded=1\n"
      "driver version=535.129.03 open_kernel_module=0\n",
      ParseGpuDirect);
  test_support::SurvivesTruncationAndNoise(
      "(pytorch) [root@gpu3 ~]# lsmod | grep nvidia_peermem\nnvidia_peermem 16384 0\n[root@gpu3 ~]#\n",
      ParseGpuDirect);
}

}  // namespace
}  // namespace gpuconform::gpudirect
