// perftest's bandwidth and latency tools (ib_write_bw, ib_write_lat and their send/read
// siblings; linux-rdma/perftest), client or server side, as they print:
//   [shell transcript's command line: "ib_write_bw -d mlx5_1 -i 1 --report_gbits --use_cuda=0 ..."]
//   [--use_cuda: "Picking device No. 0", "[pid = 4101, dev = 0] device name = [NVIDIA A40]"]
//   ----...
//                       RDMA_Write BW Test
//    Dual-port       : OFF          Device         : mlx5_1
//    ... " Link type       : Ethernet", " Mtu             : 1024[B]", " GID index       : 3"
//   ----...
//    #bytes  #iterations  BW peak[Gb/sec]  BW average[Gb/sec]  MsgRate[Mpps]     (bw)
//    #bytes #iterations  t_min[usec]  t_max[usec]  t_typical[usec]  t_avg[usec]  t_stdev[usec]
//          99% percentile[usec]  99.9% percentile[usec]                         (lat)
//    #bytes  #iterations  t_avg[usec]  tps average                              (lat with -D)
// and perftest's own error lines ("Did not detect devices", "Couldn't connect to host:port",
// "Unable to open file descriptor for socket connection", ...), classified. Bandwidth comes out
// in Gb/s whichever unit was printed: without --report_gbits perftest prints MB/sec (MiB/sec
// since 2023), and its MB is 2^20 bytes (format_factor 0x100000 in perftest_parameters.c), so
// Gb/s = MB/s * 2^20 * 8 / 10^9. Latencies are in microseconds; --report_cycles output, which
// has none, is refused. Pure; errors name origin:line; garbage is an error, never a crash.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::perftest {

enum class PerftestErrorKind {
  kNoDevice,       // no RDMA device, or not the one named: "Did not detect devices", "IB device mlx5_9 not found"
  kConnectFailed,  // the peer was not reached or went away: "Couldn't connect to 10.0.0.2:18515"
  kCuda,           // --use_cuda could not get its GPU: "cuInit(0) returned 100", "Couldn't init GPU context"
  kOther,          // any other "Couldn't ...", "Unable to ...", "Failed ...", "... failed", "Completion with error"
};

const char* PerftestErrorKindName(PerftestErrorKind kind);  // "no-device", "connect-failed", "cuda", "other"

struct PerftestError {
  PerftestErrorKind kind = PerftestErrorKind::kOther;
  std::string line;  // as perftest printed it, trimmed
  int line_number = 0;
};

struct BandwidthRow {
  long long size_bytes = 0;
  long long iterations = 0;
  // nullopt where perftest said "BW peak won't be measured in this run" (-D duration runs print 0.00)
  std::optional<double> bw_peak_gbit_per_s;
  double bw_average_gbit_per_s = 0;
  double msg_rate_mpps = 0;
};

struct LatencyRow {
  long long size_bytes = 0;
  long long iterations = 0;
  double t_avg_us = 0;
  // Absent in -D duration runs, which print only the average (and transactions per second).
  std::optional<double> t_min_us, t_max_us, t_typical_us, t_stdev_us, t_p99_us, t_p99_9_us;
  std::optional<double> tps_average;
};

struct PerftestReport {
  std::string origin;
  std::string command;  // the transcript's command line, where there is one
  std::string test;     // the title: "RDMA_Write BW Test", "RDMA_Write Latency Test"
  bool is_latency = false;
  bool is_client = false;  // perftest prints "TX depth" on the client only (on both sides with -b)
  std::string device;      // "mlx5_1": the header's Device, else -d on the command line
  std::optional<int> port;  // -i/--ib-port on the command line (perftest does not print it)
  std::string link_type;    // "IB", "Ethernet" (RoCE)
  std::string transport_type;
  std::string connection_type;  // "RC", "UC", "UD", ...
  std::optional<int> mtu_bytes;
  std::optional<int> qp_count;
  std::optional<int> gid_index;
  std::map<std::string, std::string> header;  // every "key : value" of the header block
  std::optional<int> cuda_device;  // the GPU whose memory was used (--use_cuda)
  std::string cuda_device_name;    // "NVIDIA A40"
  bool cuda_dmabuf = false;        // GPU memory registered through DMA-BUF (--use_cuda_dmabuf)
  bool reported_gbits = false;     // the table was in Gb/sec (else converted from MB/sec)
  std::vector<BandwidthRow> bandwidth;
  std::vector<LatencyRow> latency;
  std::vector<PerftestError> errors;
  bool complete = false;  // the results table reached its closing rule

  // The first error of `kind`, or null.
  const PerftestError* FirstError(PerftestErrorKind kind) const;
};

Result<PerftestReport> ParsePerftest(const std::string& text, const std::string& origin);

// perftest's MB/sec (2^20 bytes per second) in Gb/s.
double MbytesPerSecToGbitPerSec(double mbytes_per_s);

}  // namespace gpuconform::perftest
