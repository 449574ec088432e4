// Fuzzes the ib_write_bw pairing pass's records (probes/perftest/rail_pairs_parse.h:
// ParseRailPairs), with every pair read back.
#include "fuzz/fuzz_support.h"
#include "probes/perftest/rail_pairs_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(perftest::ParseRailPairs(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& file) {
    double sum = 0;
    for (const auto& node : file.unpaired) sum += node.node.size() + node.rails.size() + node.why.size();
    for (const auto& pair : file.pairs) {
      sum += pair.pass + pair.port + pair.client.size() + pair.server.size() + pair.Rail().size() +
             pair.bw_average_gbit_per_s.value_or(0) + pair.error.size();
    }
    fuzz::Keep(sum);
  });
  return 0;
}
