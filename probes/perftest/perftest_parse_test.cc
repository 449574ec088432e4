// perftest output as published (../shared/realdata/perftest), as Debian 12's perftest prints it
// on a machine without an RDMA device (fixtures/perftest), and in the layouts perftest's sources
// print (latency, MB/sec, server side, errors); broken input is refused.
#include <gtest/gtest.h>

#include "probes/perftest/perftest_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::perftest {
namespace {

using test_support::Parsed;

TEST(PerftestParse, GpuDirectWriteOverRoceAveragesAbout181GbitPerSecWithPeakNotMeasured) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "perftest");
  const auto report = Parsed(ParsePerftest(
      test_support::ReadFile(dir / "ib_write_bw-use_cuda-dmabuf-a40-roce-client-181gbps.txt"), "f"));
  EXPECT_EQ(report.test, "RDMA_Write BW Test");
  EXPECT_FALSE(report.is_latency);
  EXPECT_TRUE(report.is_client);
  EXPECT_EQ(report.device, "mlx5_1");
  EXPECT_EQ(report.port, std::nullopt) << "no -i: perftest's default port, which it does not print";
  EXPECT_EQ(report.link_type, "Ethernet");
  EXPECT_EQ(report.transport_type, "IB");
  EXPECT_EQ(report.connection_type, "RC");
  EXPECT_EQ(report.mtu_bytes, 1024);
  EXPECT_EQ(report.qp_count, 16);
  EXPECT_EQ(report.gid_index, 3);
  EXPECT_EQ(report.header.at("rdma_cm QPs"), "ON");
  EXPECT_EQ(report.header.at("TOS"), "41");
  EXPECT_EQ(report.cuda_device, 0);
  EXPECT_EQ(report.cuda_device_name, "NVIDIA A40");
  EXPECT_TRUE(report.cuda_dmabuf);
  EXPECT_TRUE(report.reported_gbits);
  EXPECT_TRUE(report.complete);
  EXPECT_TRUE(report.errors.empty());
  ASSERT_EQ(report.bandwidth.size(), 1u);
  EXPECT_EQ(report.bandwidth[0].size_bytes, 65536);
  EXPECT_EQ(report.bandwidth[0].iterations, 10384867);
  EXPECT_EQ(report.bandwidth[0].bw_peak_gbit_per_s, std::nullopt) << "-D runs print 0.00: not measured, not zero";
  EXPECT_DOUBLE_EQ(report.bandwidth[0].bw_average_gbit_per_s, 181.46);
  EXPECT_DOUBLE_EQ(report.bandwidth[0].msg_rate_mpps, 0.3461);
}

TEST(PerftestParse, NoRdmaDeviceAsDebianPerftestSaysIt) {
  // `ib_write_bw 2>&1` (Debian 12 perftest 4.5+0.17-1, "Version: 6.06") on a machine without
  // any RDMA device; ib_write_lat and ib_write_bw -d mlx5_0 print the same three lines.
  const auto report = Parsed(ParsePerftest(
      test_support::ReadFile(std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/perftest/ib_write_bw-no-device.txt"), "f"));
  ASSERT_EQ(report.errors.size(), 3u);
  for (const auto& error : report.errors) EXPECT_EQ(error.kind, PerftestErrorKind::kNoDevice) << error.line;
  EXPECT_EQ(report.errors[0].line, "Did not detect devices");
  EXPECT_EQ(report.errors[2].line, "Unable to find the Infiniband/RoCE device");
  EXPECT_TRUE(report.bandwidth.empty());
  EXPECT_FALSE(report.complete);
}

TEST(PerftestParse, ConnectFailuresAndCudaFailuresAreToldApart) {
  const auto report = Parsed(ParsePerftest(
      "$ ib_write_bw -d mlx5_0 -i 2 --use_cuda=1 10.0.0.2\n"
      "Couldn't connect to 10.0.0.2:18515\nUnable to open file descriptor for socket connection\n"
      "cuInit(0) returned 100\nibv_post_send failed\n Completion with error at client\n Failed status 12: wr_id 0 syndrom 0x81\n",
      "f"));
  EXPECT_EQ(report.device, "mlx5_0");
  EXPECT_EQ(report.port, 2);
  EXPECT_EQ(report.cuda_device, 1);
  ASSERT_EQ(report.errors.size(), 6u);
  EXPECT_EQ(report.errors[0].kind, PerftestErrorKind::kConnectFailed);
  EXPECT_EQ(report.errors[0].line_number, 2);
  EXPECT_EQ(report.errors[1].kind, PerftestErrorKind::kConnectFailed);
  EXPECT_EQ(report.errors[2].kind, PerftestErrorKind::kCuda);
  EXPECT_EQ(report.errors[3].kind, PerftestErrorKind::kOther);
  EXPECT_EQ(report.errors[4].kind, PerftestErrorKind::kOther);
  EXPECT_EQ(report.errors[5].line, "Failed status 12: wr_id 0 syndrom 0x81");
  EXPECT_EQ(report.FirstError(PerftestErrorKind::kConnectFailed)->line, "Couldn't connect to 10.0.0.2:18515");
  EXPECT_EQ(report.FirstError(PerftestErrorKind::kNoDevice), nullptr);
}

constexpr char kRule[] = "---------------------------------------------------------------------------------------\n";

TEST(PerftestParse, ServerSideInMbPerSecIsConvertedWithPerftests2To20Megabyte) {
  const std::string text = std::string(kRule) +
                           "                    RDMA_Write BW Test\n"
                           " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
                           " Number of qps   : 1\t\tTransport type : IB\n"
                           " Connection type : RC\t\tUsing SRQ      : OFF\n"
                           " CQ Moderation   : 100\n Mtu             : 4096[B]\n Link type       : IB\n" +
                           kRule + " local address: LID 0x05 QPN 0x0a2b PSN 0x1\n" + kRule +
                           " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
                           " 65536      5000             23000.00            22000.00  \t\t   0.352000\n" +
                           kRule;
  const auto report = Parsed(ParsePerftest(text, "f"));
  EXPECT_FALSE(report.is_client) << "no TX depth: the receiving side";
  EXPECT_EQ(report.link_type, "IB");
  EXPECT_EQ(report.mtu_bytes, 4096);
  EXPECT_FALSE(report.reported_gbits);
  ASSERT_EQ(report.bandwidth.size(), 1u);
  EXPECT_NEAR(report.bandwidth[0].bw_average_gbit_per_s, 22000.0 * 1048576 * 8 / 1e9, 1e-9);  // 184.55 Gb/s
  EXPECT_NEAR(*report.bandwidth[0].bw_peak_gbit_per_s, 192.94, 0.01);
  EXPECT_NEAR(MbytesPerSecToGbitPerSec(1.0), 0.008388608, 1e-12);
}

TEST(PerftestParse, LatencyTablesInMicroseconds) {
  const std::string head = std::string(kRule) + "                    RDMA_Write Latency Test\n"
                           " Dual-port       : OFF\t\tDevice         : mlx5_0\n TX depth        : 1\n Link type       : IB\n" +
                           kRule;
  const auto report = Parsed(ParsePerftest(
      head +
          " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% "
          "percentile[usec]   99.9% percentile[usec] \n"
          " 2       1000          0.93           4.25         0.96     \t       0.97        \t0.05   \t\t1.07    \t\t4.25   \n" +
          kRule,
      "f"));
  EXPECT_TRUE(report.is_latency);
  ASSERT_EQ(report.latency.size(), 1u);
  EXPECT_EQ(report.latency[0].size_bytes, 2);
  EXPECT_DOUBLE_EQ(*report.latency[0].t_min_us, 0.93);
  EXPECT_DOUBLE_EQ(*report.latency[0].t_typical_us, 0.96);
  EXPECT_DOUBLE_EQ(report.latency[0].t_avg_us, 0.97);
  EXPECT_DOUBLE_EQ(*report.latency[0].t_p99_us, 1.07);
  EXPECT_DOUBLE_EQ(*report.latency[0].t_p99_9_us, 4.25);
  const auto duration = Parsed(ParsePerftest(
      head + " #bytes        #iterations       t_avg[usec]    tps average\n 2       12345678            1.02        976543.21\n",
      "f"));
  ASSERT_EQ(duration.latency.size(), 1u);
  EXPECT_DOUBLE_EQ(duration.latency[0].t_avg_us, 1.02);
  EXPECT_EQ(duration.latency[0].t_min_us, std::nullopt);
  EXPECT_FALSE(duration.complete) << "cut off before the closing rule";
}

TEST(PerftestParse, RefusesOtherTextCyclesAndBrokenRows) {
  const std::string head = std::string(kRule) + "  RDMA_Write BW Test\n Link type : IB\n" + kRule;
  test_support::ExpectEachRefused(
      ParsePerftest,
      {
          {"", "f:1: not perftest output"},
          {"hello\n", "f:1: not perftest output"},
          {std::string("\x7f" "ELF\x02\x01\x01\x00", 8), "f:1: not perftest output"},
          {head + " #bytes #iterations  BW peak[Gb/sec]  BW average[Gb/sec]  MsgRate[Mpps]\n 65536 100 1.0 nan 0.1\n",
           "f:6: not a number: 'nan'"},
          {head + " #bytes #iterations  BW peak[Gb/sec]  BW average[Gb/sec]  MsgRate[Mpps]\n 65536 100 1.0\n",
           "f:6: a bandwidth row needs"},
          {head + " #bytes #iterations  BW peak[furlongs]\n", "f:5: a bandwidth table in a unit I do not know"},
          {std::string(kRule) + "  RDMA_Write Latency Test\n" + kRule + " #bytes #iterations t_min[cycles]\n",
           "f:4: latencies in cycles"},
      });
}

TEST(PerftestParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      std::string("ib_write_bw -d mlx5_0 -i 1 --use_cuda=0 h\n") + kRule +
          " RDMA_Write BW Test\n Device : mlx5_0\t\tTX depth : 128\n" + kRule +
          " #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]\n 65536 10 1.0 2.0 0.3\n" + kRule +
          "Couldn't connect to h:1\n",
      ParsePerftest);
}

}  // namespace
}  // namespace gpuconform::perftest
