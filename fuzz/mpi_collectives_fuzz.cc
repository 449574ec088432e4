// Fuzzes the MPI collectives probe's file (cluster/mpi-collectives.txt: one nccl-tests table
// after each "# collective NAME" line; probes/mpi_sweep/collective_tables.h), and every row of
// each table it returns.
#include "fuzz/fuzz_support.h"
#include "probes/mpi_sweep/collective_tables.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(mpi_sweep::ParseCollectiveTables(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& tables) {
    for (const auto& [name, table] : tables) {
      for (const auto& row : table.rows) fuzz::Keep(row.busbw_gb_per_s);
      fuzz::Keep(name.size());
    }
  });
  return 0;
}
