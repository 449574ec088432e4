// Fuzzes the NCCL run's files beyond its allreduce table (probes/nccl_run/nccl_run_records.h):
// cluster/nccl-collectives.txt (not-measured lines, then one table per collective) and
// cluster/nccl-init.txt (a node line each), with the same input through both readers.
#include "fuzz/fuzz_support.h"
#include "probes/nccl_run/nccl_run_records.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(nccl_run::ParseNcclCollectives(text, fuzz::kOrigin), [](const auto& results) {
    for (const auto& [name, table] : results.tables) fuzz::Keep(table.rows.size() + name.size());
    fuzz::Keep(results.not_measured.size());
  });
  fuzz::Inspect(nccl_run::ParseNcclInit(text, fuzz::kOrigin), [](const auto& nodes) {
    for (const auto& node : nodes) fuzz::Keep(node.seconds.value_or(0));
  });
  return 0;
}
