// Fuzzes NCCL_DEBUG=INFO logs (probes/nccl_log/nccl_log_parse.h: ParseNcclLog, streamed from
// chunks and from the whole text), then the log's rank index and the network family of every
// channel.
#include "fuzz/fuzz_support.h"
#include "probes/nccl_log/nccl_log_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto lines = fuzz::AsChunkedLines(data, size);
  fuzz::Inspect(nccl_log::ParseNcclLog(lines, fuzz::kOrigin), [](const auto& log) { fuzz::Keep(log.lines); });
  fuzz::Inspect(nccl_log::ParseNcclLog(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& log) {
    for (const auto& channel : log.channels) {
      fuzz::Keep(log.RankOf(channel.source));
      fuzz::Keep(log.HostOfRank(channel.to_rank));
      fuzz::Keep(nccl_log::NetFamily(channel.net) + nccl_log::TransportKindName(channel.kind));
    }
    for (const auto& problem : log.problems) fuzz::Keep(log.RankOf(problem.source));
  });
  return 0;
}
