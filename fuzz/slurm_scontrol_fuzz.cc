// Fuzzes `scontrol show node` (probes/slurm/slurm_parse.h: ParseScontrolShowNode), then each
// node's state flags, partitions and GRES string (ParseGres), as the Slurm suite reads them.
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(slurm::ParseScontrolShowNode(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& nodes) {
    for (const auto& node : nodes) {
      fuzz::Keep(node.StateFlags());
      fuzz::Keep(node.Partitions());
      fuzz::Inspect(slurm::ParseGres(node.Field("Gres")),
                    [](const auto& entries) { fuzz::Keep(slurm::GpuCountByType(entries)); });
    }
  });
  return 0;
}
