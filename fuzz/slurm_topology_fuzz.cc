// Fuzzes `scontrol show topology` (probes/slurm/slurm_topology.h: ParseSlurmTopology), which the
// MPI sweep's isolation reads on rank 0 for its seed groups: a site's output, cut short by
// SLURM_TOPO_LEN or from another Slurm release, must give groups or an error, never a crash.
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_topology.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(slurm::ParseSlurmTopology(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& groups) {
    for (const auto& group : groups) fuzz::Keep(group.nodes.size() + group.parent.size());
  });
  return 0;
}
