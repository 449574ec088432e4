// Fuzzes gres.conf (probes/slurm/slurm_parse.h: ParseGresConf), then the GPUs it declares
// for every node it names.
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(slurm::ParseGresConf(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& conf) {
    fuzz::Keep(conf.GpusFor("node1"));
    // The suite asks once per node, for that node. Asking for every node a hostlist names
    // (up to 100000) would time the harness's own quadratic loop, not the parser.
    for (const auto& line : conf.lines) {
      if (!line.nodes.empty()) fuzz::Keep(conf.GpuTypesFor(line.nodes.back()));
    }
  });
  return 0;
}
