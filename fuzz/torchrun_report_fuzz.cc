// Fuzzes the Torchrun probe's output (probes/torchrun/torchrun_parse.h: ParseTorchrunReport):
// launcher, port and worker records, with every field read back, and the exception finder.
#include "fuzz/fuzz_support.h"
#include "probes/torchrun/torchrun_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(torchrun::ParseTorchrunReport(fuzz::AsText(data, size), "node1", fuzz::kOrigin), [](const auto& report) {
    for (const auto& launcher : report.launchers) {
      fuzz::Keep(launcher.state + launcher.command + torchrun::LastExceptionLine(launcher.output) +
                 std::to_string(launcher.node_rank + launcher.master_port));
    }
    for (const auto& worker : report.workers) {
      std::size_t indices = 0;
      for (const auto& [epoch, shard] : worker.shard_indices) indices += shard.size() + static_cast<std::size_t>(epoch);
      fuzz::Keep(worker.host + worker.device_uuid + std::to_string(worker.rank + worker.local_rank) +
                 std::to_string(indices + worker.allreduces.size() + worker.dataload_mb_per_s.size()));
    }
  });
  return 0;
}
