// Fuzzes slurm.conf's NodeName= lines (probes/slurm/slurm_parse.h: ParseSlurmConfNodes,
// which expands hostlists), and the AuthInfo socket= option the Munge suite reads from the
// same file (probes/munge/munge_parse.h: ParseAuthInfoSocket).
#include "fuzz/fuzz_support.h"
#include "probes/munge/munge_parse.h"
#include "probes/slurm/slurm_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(slurm::ParseSlurmConfNodes(text, fuzz::kOrigin, fuzz::kMaxHosts), [](const auto& nodes) {
    // The hosts of one NodeName= line share its Gres=: parse it once a line.
    int parsed_line = 0;
    for (const auto& node : nodes) {
      if (node.line == parsed_line) continue;
      parsed_line = node.line;
      fuzz::Keep(node.name);
      fuzz::Inspect(slurm::ParseGres(node.Field("Gres")),
                    [](const auto& entries) { fuzz::Keep(slurm::GpuCount(entries)); });
    }
  });
  fuzz::Keep(munge::ParseAuthInfoSocket(text));
  return 0;
}
