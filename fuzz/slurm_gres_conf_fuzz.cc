// Fuzzes gres.conf (probes/slurm/slurm_parse.h: ParseGresConf), then the GPUs it declares
// for every node it names.
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(slurm::ParseGresConf(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& conf) {
    fuzz::Keep(conf.GpusFor("node1"));
    for (const auto& line : conf.lines) {
      for (const auto& node : line.nodes) fuzz::Keep(conf.GpuTypesFor(node));
    }
  });
  return 0;
}
