// Fuzzes nvbandwidth's text and -j results (probes/nvbandwidth/nvbandwidth_parse.h:
// ParseNvbandwidth), with every testcase's matrix, sum and error read back.
#include "fuzz/fuzz_support.h"
#include "probes/nvbandwidth/nvbandwidth_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvbandwidth::ParseNvbandwidth(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    double sum = report.version.size() + report.devices.size() + report.errors.size();
    for (const auto& testcase : report.testcases) {
      sum += testcase.name.size() + testcase.unit.size() + testcase.error.size() + testcase.sum.value_or(0);
      if (!testcase.matrix) continue;
      for (std::size_t row = 0; row < testcase.matrix->values.size(); ++row) {
        for (std::size_t column = 0; column < testcase.matrix->column_labels.size(); ++column) {
          sum += testcase.matrix->At(row, column).value_or(0);
        }
      }
    }
    fuzz::Keep(sum);
  });
  return 0;
}
