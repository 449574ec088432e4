// Fuzzes nccl-tests' -J JSON results (probes/nccl_tests/nccl_tests_parse.h: ParseNcclTestsJson).
#include "fuzz/fuzz_support.h"
#include "probes/nccl_tests/nccl_tests_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nccl_tests::ParseNcclTestsJson(fuzz::AsText(data, size), fuzz::kOrigin),
                [](const auto& table) { fuzz::Keep(nccl_tests::RanksImpliedByBusbw(table)); });
  return 0;
}
