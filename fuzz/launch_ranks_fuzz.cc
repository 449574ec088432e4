// Fuzzes a snapshot's launch facts, cluster/launch-ranks.txt (harness/world/launch_ranks_file.h:
// ParseLaunchRanks), and writes back what it read.
#include "fuzz/fuzz_support.h"
#include "harness/world/launch_ranks_file.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto ranks = ParseLaunchRanks(fuzz::AsText(data, size), "launch-ranks.txt");
  if (ranks) fuzz::Keep(FormatLaunchRanks(*ranks));
  return 0;
}
