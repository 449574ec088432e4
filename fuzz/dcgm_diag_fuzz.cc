// Fuzzes dcgmi diag results (probes/dcgm/dcgm_diag_parse.h: ParseDcgmDiag): the JSON of DCGM
// 2.x-4.x and the boxed text table, with every test, entity and message read back.
#include "fuzz/fuzz_support.h"
#include "probes/dcgm/dcgm_diag_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(dcgm::ParseDcgmDiag(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    std::size_t sum = report.dcgm_version.size() + report.driver_version.size() + report.level.value_or(0);
    for (const auto& test : report.tests) {
      sum += test.name.size() + test.category.size() + test.info.size() + (test.GpuState(0) ? 1 : 0);
      for (const auto& warning : test.warnings) sum += warning.text.size() + warning.error_name.size();
      for (const auto& entity : test.entities) {
        sum += static_cast<std::size_t>(entity.entity_id) + entity.warnings.size() + entity.info.size();
        sum += std::string(dcgm::DiagStateName(entity.state)).size();
      }
    }
    for (const auto& evidence : report.environment_failures) {
      sum += evidence.evidence.size() + std::string(dcgm::EnvironmentFailureName(evidence.failure)).size();
    }
    fuzz::Keep(sum);
  });
  return 0;
}
