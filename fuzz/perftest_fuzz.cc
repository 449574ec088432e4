// Fuzzes perftest's ib_write_bw/ib_write_lat output (probes/perftest/perftest_parse.h:
// ParsePerftest), with every header fact, row and error read back.
#include "fuzz/fuzz_support.h"
#include "probes/perftest/perftest_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(perftest::ParsePerftest(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    double sum = report.device.size() + report.link_type.size() + report.header.size() + report.port.value_or(0) +
                 report.mtu_bytes.value_or(0) + report.cuda_device.value_or(0);
    for (const auto& row : report.bandwidth) {
      sum += static_cast<double>(row.size_bytes) + row.bw_peak_gbit_per_s.value_or(0) + row.bw_average_gbit_per_s;
    }
    for (const auto& row : report.latency) sum += row.t_avg_us + row.t_p99_9_us.value_or(0) + row.tps_average.value_or(0);
    for (const auto& error : report.errors) sum += error.line.size() + std::string(perftest::PerftestErrorKindName(error.kind)).size();
    fuzz::Keep(sum);
  });
  return 0;
}
