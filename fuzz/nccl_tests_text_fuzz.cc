// Fuzzes nccl-tests all_reduce_perf text output (probes/nccl_tests/nccl_tests_parse.h:
// ParseNcclTestsRuns, ParseNcclTestsOutput, RanksImpliedByBusbw). The MPI sweep's table
// (probes/allreduce_sweep/sweep.h) is read by the same parser.
#include "fuzz/fuzz_support.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  auto lines = fuzz::AsChunkedLines(data, size);  // as an operator's output file is read
  fuzz::Inspect(nccl_tests::ParseNcclTestsOutput(lines, fuzz::kOrigin),
                [](const auto& table) { fuzz::Keep(table.rows.size()); });
  fuzz::Inspect(nccl_tests::ParseNcclTestsRuns(text, fuzz::kOrigin), [](const auto& tables) {
    for (const auto& table : tables) fuzz::Keep(nccl_tests::RanksImpliedByBusbw(table));
  });
  fuzz::Inspect(nccl_tests::ParseNcclTestsOutput(text, fuzz::kOrigin),
                [](const auto& table) { fuzz::Keep(nccl_tests::RanksImpliedByBusbw(table)); });
  return 0;
}
