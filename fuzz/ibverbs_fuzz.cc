// Fuzzes ibverbs.txt (probes/ibverbs/ibverbs_parse.h: ParseIbverbs).
#include "fuzz/fuzz_support.h"
#include "probes/ibverbs/ibverbs_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ibverbs::ParseIbverbs(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& port : report.ports) fuzz::Keep(port.Name());
  });
  return 0;
}
