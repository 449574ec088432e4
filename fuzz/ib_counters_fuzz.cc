// Fuzzes InfiniBand port counters (probes/ib_counters/ib_counters_parse.h: ParseIbCounters):
// gpuconform's sysfs records, perfquery -x and ibqueryerrors, with every counter read back.
#include "fuzz/fuzz_support.h"
#include "probes/ib_counters/ib_counters_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ib_counters::ParseIbCounters(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& port : report.ports) {
      std::uint64_t sum = 0;
      for (const auto& [name, counter] : port.counters) sum += counter.value + (counter.saturated ? 1 : 0) + name.size();
      fuzz::Keep(port.device + port.node + port.port + std::to_string(sum));
    }
  });
  return 0;
}
