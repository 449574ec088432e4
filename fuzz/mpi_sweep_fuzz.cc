// Fuzzes the MPI sweep's "# pair A B SIZE busbw X" lines (probes/mpi_sweep/pair_results.h:
// ParsePairResults), then the slow-pair reasoning that runs on what it returns.
#include "fuzz/fuzz_support.h"
#include "probes/mpi_sweep/pair_results.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto pairs = mpi_sweep::ParsePairResults(fuzz::AsText(data, size));
  const double fastest = mpi_sweep::Fastest(pairs);
  for (const auto& [node, counts] : mpi_sweep::CountPairs(pairs, fastest)) fuzz::Keep(mpi_sweep::AllSlow(counts));
  fuzz::Keep(mpi_sweep::ConfirmationPairs(pairs));
  return 0;
}
