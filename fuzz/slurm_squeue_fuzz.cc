// Fuzzes `squeue -h -t PD -o "%i|%P|%u|%r"` lines (probes/slurm/slurm_parse.h: ParsePendingJobs).
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(slurm::ParsePendingJobs(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& jobs) {
    for (const auto& job : jobs) fuzz::Keep(job.reason);
  });
  return 0;
}
