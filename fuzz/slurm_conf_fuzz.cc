// Fuzzes slurm.conf's NodeName= lines (probes/slurm/slurm_parse.h: ParseSlurmConfNodes,
// which expands hostlists), and the AuthInfo socket= option the Munge suite reads from the
// same file (probes/munge/munge_parse.h: ParseAuthInfoSocket).
#include "fuzz/fuzz_support.h"
#include "probes/munge/munge_parse.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(slurm::ParseSlurmConfNodes(text, fuzz::kOrigin), [](const auto& nodes) {
    for (const auto& node : nodes) {
      fuzz::Inspect(slurm::ParseGres(node.Field("Gres")),
                    [](const auto& entries) { fuzz::Keep(slurm::GpuCount(entries)); });
    }
  });
  fuzz::Keep(munge::ParseAuthInfoSocket(text));
  return 0;
}
