// Fuzzes fabric-reach.txt, the fabric reachability probe's output
// (probes/fabric_reach/fabric_reach_parse.h: ParseReach).
#include "fuzz/fuzz_support.h"
#include "probes/fabric_reach/fabric_reach_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(fabric_reach::ParseReach(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& reach) {
    for (const auto& attempt : reach.attempts) fuzz::Keep(attempt.ms);
  });
  return 0;
}
