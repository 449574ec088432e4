// Fuzzes the strings sinfo and scontrol print inside their records: GRES strings
// (probes/slurm/slurm_parse.h: ParseGres) and hostlists (ExpandHostlist).
#include "fuzz/fuzz_support.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(slurm::ParseGres(text), [](const auto& entries) {
    fuzz::Keep(slurm::GpuCount(entries));
    fuzz::Keep(slurm::GpuCountByType(entries));
  });
  fuzz::Inspect(slurm::ExpandHostlist(text), [](const auto& hosts) { fuzz::Keep(hosts.size()); });
  return 0;
}
