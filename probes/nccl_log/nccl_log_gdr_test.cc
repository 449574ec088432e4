// NCCL's GPUDirect RDMA lines, in the forms NCCL versions print them: the topology's per-HCA
// summary (with a reason in parentheses), the IB transport's per-mechanism lines (no closing
// quote), the per GPU and NIC decision with its distance, and the GPU-NET path types.
#include <gtest/gtest.h>

#include "probes/nccl_log/nccl_log_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_log {
namespace {

TEST(NcclLogGdr, HcaLinesKeepTheirMechanismAndReason) {
  const auto log = test_support::Parsed(ParseNcclLog(
      "h1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n"
      "h1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA (nvidia-peermem) enabled for HCA 1 'mlx5_1\n"
      "h1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA (DMABUF) enabled for HCA 1 'mlx5_1\n"
      "h1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 2 'mlx5_2'\n",
      "f"));
  ASSERT_EQ(log.gdr.size(), 4u);
  EXPECT_FALSE(log.gdr[0].enabled);
  EXPECT_EQ(log.gdr[0].hca, "mlx5_0");
  EXPECT_EQ(log.gdr[0].reason, "no module");
  EXPECT_EQ(log.gdr[1].mechanism, "nvidia-peermem");
  EXPECT_EQ(log.gdr[1].hca, "mlx5_1");
  EXPECT_TRUE(log.gdr[1].enabled);
  EXPECT_EQ(log.gdr[2].mechanism, "DMABUF");
  EXPECT_EQ(log.gdr[3].mechanism, "");
  EXPECT_EQ(log.gdr[3].reason, "");
}

TEST(NcclLogGdr, GpuToHcaDecisionsAndPathTypes) {
  const auto log = test_support::Parsed(ParseNcclLog(
      "h1:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU ca000 / HCA 0 (distance 7 > 4)\n"
      "h1:1:2 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 81000 / HCA 1 (distance 6 <= 7), read 0\n"
      "h1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 1 (distance 4 >= 3)\n"
      "h1:1:2 [0] NCCL INFO GPU/81000 :GPU/81000 (0/5000.000000/LOC) NET/1 (3/24.000000/PHB) NET/0 (4/3.1/SYS)\n",
      "f"));
  ASSERT_EQ(log.gdr_paths.size(), 3u);
  EXPECT_TRUE(log.gdr.empty()) << "a GPU/HCA decision is not an HCA summary";
  EXPECT_FALSE(log.gdr_paths[0].enabled);
  EXPECT_EQ(log.gdr_paths[0].gpu, "ca000");
  EXPECT_EQ(log.gdr_paths[0].hca, "0");
  EXPECT_EQ(log.gdr_paths[0].distance, 7);
  EXPECT_EQ(log.gdr_paths[0].threshold, 4);
  EXPECT_TRUE(log.gdr_paths[1].enabled);
  EXPECT_EQ(log.gdr_paths[2].gpu, "0[0]");
  EXPECT_EQ(log.gdr_paths[2].threshold, 3);
  ASSERT_EQ(log.gpu_net_paths.size(), 2u);
  EXPECT_EQ(log.gpu_net_paths[0].gpu, "81000");
  EXPECT_EQ(log.gpu_net_paths[0].net, "1");
  EXPECT_EQ(log.gpu_net_paths[0].type, "PHB");
  EXPECT_EQ(log.gpu_net_paths[1].type, "SYS");
}

}  // namespace
}  // namespace gpuconform::nccl_log
