// Fuzzes the MPI sweep's "# pair A B SIZE busbw X", "# pair-failed A B SIZE WHY" and
// "# excluded NODE WHY" lines (pair_results.h: ParsePairResults; sweep_gate.h:
// ParseExcludedLines), then the slow-pair reasoning that runs on what they return.
#include "fuzz/fuzz_support.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/sweep_gate.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto pairs = mpi_sweep::ParsePairResults(fuzz::AsText(data, size));
  const double fastest = mpi_sweep::Fastest(pairs);
  for (const auto& [node, counts] : mpi_sweep::CountPairs(pairs, fastest)) fuzz::Keep(mpi_sweep::AllSlow(counts));
  fuzz::Keep(mpi_sweep::ConfirmationPairs(pairs));
  for (const auto& pair : pairs) fuzz::Keep(mpi_sweep::PairLine(pair));
  fuzz::Keep(mpi_sweep::ParseExcludedLines(fuzz::AsText(data, size)));
  return 0;
}
