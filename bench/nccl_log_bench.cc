// Benchmarks for enormous NCCL_DEBUG=INFO logs: a synthetic log of a 16-node, 128-rank job
// (channel, NET/IB, identity and environment lines of every rank, interleaved with
// nccl-tests rows, PyTorch warnings and training output) parsed and judged by NcclTransport.
// Reported: wall time, throughput, and the peak heap the parse and judgement held above
// what was live before (heap_counter.h), which the parser's caps bound whatever the log's
// size; a hostile log of maximal lines shows the bound holds for garbage too. BM_NcclLogFile
// parses the file GPUCONFORM_BENCH_NCCL_LOG names as the run's reader does, streamed from the
// file in chunks (bench/large-logs times it on logs of 50 MB to 1 GB).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "bench/heap_counter.h"
#include "harness/core/profile.h"
#include "harness/core/raw_lines.h"
#include "probes/nccl_log/nccl_log_parse.h"
#include "suites/nccl_transport/nccl_transport_checks.h"

namespace {

using namespace gpuconform;

constexpr int kNodes = 16;
constexpr int kGpusPerNode = 8;
constexpr int kRanks = kNodes * kGpusPerNode;
constexpr std::size_t kMiB = 1u << 20;

class Random {
 public:
  std::uint32_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<std::uint32_t>(n)); }

 private:
  std::uint32_t state_ = 2463534242u;
};

std::string TwoDigits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

std::string Prefix(int rank) {
  const int node = rank / kGpusPerNode;
  const int gpu = rank % kGpusPerNode;
  return "gpu-node-" + TwoDigits(node + 1) + ":" + std::to_string(41000 + rank) + ":" + std::to_string(42000 + rank) +
         " [" + std::to_string(gpu) + "] NCCL INFO ";
}

// One realistic line: what NCCL prints most at INIT,NET,GRAPH, or the program around it.
std::string RealisticLine(Random& random) {
  const int rank = random.Below(kRanks);
  const int gpu = rank % kGpusPerNode;
  const int channel = random.Below(32);
  switch (random.Below(12)) {
    case 0:
    case 1: {
      const int peer = (rank + kGpusPerNode) % kRanks;
      return Prefix(rank) + "Channel " + TwoDigits(channel) + "/0 : " + std::to_string(rank) + "[" +
             std::to_string(gpu) + "] -> " + std::to_string(peer) + "[" + std::to_string(gpu) + "] [send] via NET/IB/" +
             std::to_string(gpu) + "/GDRDMA";
    }
    case 2: {
      const int peer = rank / kGpusPerNode * kGpusPerNode + (gpu + 1) % kGpusPerNode;
      return Prefix(rank) + "Channel " + TwoDigits(channel) + "/1 : " + std::to_string(rank) + "[" +
             std::to_string(gpu) + "] -> " + std::to_string(peer) + "[" + std::to_string(peer % kGpusPerNode) +
             "] via P2P/CUMEM/read";
    }
    case 3:
      return Prefix(rank) + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB "
                            "[5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB ens1:10.0.0." +
             std::to_string(rank / kGpusPerNode + 1) + "<0>";
    case 4:
      return Prefix(rank) + "comm 0x55d0c8a0" + std::to_string(rank) + " rank " + std::to_string(rank) + " nRanks " +
             std::to_string(kRanks) + " nNodes " + std::to_string(kNodes) + " localRanks 8 localRank " +
             std::to_string(gpu) + " MNNVL 0";
    case 5: return Prefix(rank) + "NCCL_SOCKET_IFNAME set by environment to ens1";
    case 6: return Prefix(rank) + "Using network IB";
    case 7: return Prefix(rank) + "32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer";
    case 8:
      return "   134217728      33554432     float     sum      -1   " + std::to_string(1200 + random.Below(100)) +
             ".5  108.72  214.04      0   1230.1  109.11  214.80      0";
    case 9:
      return "[rank" + std::to_string(rank) + "]:[W1202 10:00:01.000000 " + std::to_string(41000 + rank) +
             " ProcessGroupNCCL.cpp:4115] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS=1 has no effect";
    case 10:
      return "step " + std::to_string(random.Below(100000)) + " loss 2." + std::to_string(random.Below(10000)) +
             " lr 0.0001 tokens/s 41234";
    default: return Prefix(rank) + "Connected all rings, use ring PXN 0 GDR 1";
  }
}

// The worst a log can do within the parser's line limit: every line a fact, every field long.
std::string HostileLine(Random& random) {
  const std::string junk(nccl_transport::kMaxLineBytes, 'A');
  const int rank = random.Below(kRanks);
  switch (random.Below(3)) {
    case 0:
      return junk.substr(0, 200) + ":1:2 [0] NCCL INFO Channel 00/0 : " + std::to_string(rank) +
             "[0] -> 9[0] [send] via NET/IB/0/" + junk;
    case 1: {
      std::string devices;
      for (int i = 0; devices.size() < nccl_transport::kMaxLineBytes; ++i) {
        devices += "[" + std::to_string(i) + "]mlx5_" + std::to_string(i) + ":1/IB ";
      }
      return Prefix(rank) + "NET/IB : Using " + devices;
    }
    default: return Prefix(rank) + "NCCL_IB_HCA set by environment to " + junk;
  }
}

// Logs are built once per size and kept: generating 300 MB costs more than parsing it.
const std::string& SyntheticLog(std::size_t megabytes, bool hostile) {
  static std::map<std::pair<std::size_t, bool>, std::string> logs;
  std::string& text = logs[{megabytes, hostile}];
  if (!text.empty()) return text;
  const std::size_t target = megabytes * kMiB;
  text.reserve(target + 2 * nccl_transport::kMaxLineBytes);
  Random random;
  text += "gpu-node-01:41000:42000 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n";
  while (text.size() < target) {
    text += hostile ? HostileLine(random) : RealisticLine(random);
    text += '\n';
  }
  return text;
}

std::size_t MaxRssBytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

Profile H100Profile() {
  auto profile = LoadProfile("h100-sxm-8");
  return profile ? *profile : Profile{};
}

void ParseAndJudge(benchmark::State& state, bool hostile) {
  const std::string& text = SyntheticLog(static_cast<std::size_t>(state.range(0)), hostile);
  const Profile profile = H100Profile();
  std::size_t peak_above_baseline = 0;
  std::size_t channels = 0;
  std::size_t dropped = 0;
  std::size_t lines = 0;
  for (auto _ : state) {
    const std::size_t baseline = bench::HeapLiveBytes();
    bench::ResetHeapPeak();
    auto log = nccl_log::ParseNcclLog(text, "bench");
    if (!log) {
      state.SkipWithError(log.error().c_str());
      return;
    }
    namespace nt = nccl_transport;
    const std::vector<CheckResult> results = {
        nt::CheckInterNodeChannelsUseProfileNetwork(*log, profile), nt::CheckNetIbDevicesMatchRails(*log, profile),
        nt::CheckGpuDirectRdmaOnInterNodeChannels(*log, profile),   nt::CheckIntraNodeChannelsOverNvlink(*log, profile),
        nt::CheckSocketInterfaceIsFabric(*log, profile),            nt::CheckEnvironmentAudit(*log, profile),
        nt::CheckNoNcclErrors(*log)};
    benchmark::DoNotOptimize(results);
    peak_above_baseline = std::max(peak_above_baseline, bench::HeapPeakBytes() - baseline);
    channels = log->channels.size();
    dropped = log->dropped;
    lines = log->lines;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
  state.counters["log_MiB"] = static_cast<double>(text.size()) / kMiB;
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["channels_kept"] = static_cast<double>(channels);
  state.counters["facts_dropped"] = static_cast<double>(dropped);
  state.counters["heap_peak_MiB"] = static_cast<double>(peak_above_baseline) / kMiB;
  state.counters["maxrss_MiB"] = static_cast<double>(MaxRssBytes()) / kMiB;
}

void BM_NcclLogParseAndJudge(benchmark::State& state) { ParseAndJudge(state, false); }
BENCHMARK(BM_NcclLogParseAndJudge)->Arg(3)->Arg(30)->Arg(300)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_NcclLogParseAndJudgeHostile(benchmark::State& state) { ParseAndJudge(state, true); }
BENCHMARK(BM_NcclLogParseAndJudgeHostile)->Arg(300)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_NcclLogFile(benchmark::State& state) {
  const char* path = std::getenv("GPUCONFORM_BENCH_NCCL_LOG");
  if (path == nullptr) {
    state.SkipWithError("set GPUCONFORM_BENCH_NCCL_LOG to an NCCL_DEBUG=INFO log");
    return;
  }
  std::size_t peak = 0;
  for (auto _ : state) {
    const std::size_t baseline = bench::HeapLiveBytes();
    bench::ResetHeapPeak();
    auto lines = FileLines(path);
    if (!lines) {
      state.SkipWithError(lines.error().c_str());
      return;
    }
    auto log = nccl_log::ParseNcclLog(**lines, path);
    benchmark::DoNotOptimize(log);
    peak = std::max(peak, bench::HeapPeakBytes() - baseline);
  }
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
  state.counters["log_MiB"] = static_cast<double>(bytes) / kMiB;
  state.counters["heap_peak_MiB"] = static_cast<double>(peak) / kMiB;
}
BENCHMARK(BM_NcclLogFile)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
