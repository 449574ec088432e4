// The profile's gpu_health: section: every limit stated with its source, the optional GPU
// addresses and kernel log file, and the AzNHC limits on every built-in GPU profile.
#include "probes/kernel_log/gpu_health_profile.h"

#include <string>
#include <vector>

#include "tests/support/profile_text.h"

namespace gpuconform::kernel_log {
namespace {

using namespace test_support::profile_tests;

TEST(GpuHealthProfile, ReadsEveryLimitTheAddressesAndTheKernelLogFile) {
  const std::optional<GpuHealthExpectation> health = ParsedSection<GpuHealthExpectation>(
      {"  ecc_required: false", "  persistence_mode_enabled: true", "  aggregate_dram_errors_max: 20",
       "  aggregate_sram_correctable_max: 10", "  remapped_rows_uncorrectable_max: 1", "  retired_pages_max: 61",
       "  pcie_bus_ids: [0000:18:00.0]", "  kernel_log_file: /var/log/kern.log", "  source: site policy"});
  ASSERT_TRUE(health);
  EXPECT_FALSE(health->ecc_required);
  EXPECT_TRUE(health->persistence_mode_enabled);
  EXPECT_EQ(health->aggregate_dram_errors_max, 20);
  EXPECT_EQ(health->aggregate_sram_correctable_max, 10);
  EXPECT_EQ(health->remapped_rows_uncorrectable_max, 1);
  EXPECT_EQ(health->retired_pages_max, 61);
  EXPECT_EQ(health->pcie_bus_ids, std::vector<std::string>{"0000:18:00.0"});
  EXPECT_EQ(health->kernel_log_file, "/var/log/kern.log");
  EXPECT_EQ(health->source, "site policy");
}

TEST(GpuHealthProfile, RequiresEveryLimitAndItsSource) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu_health:", "  ecc_required: true", "  source: s"})),
            "t.yaml:2:gpu_health.persistence_mode_enabled: missing; a gpu_health section states every limit and "
            "where it comes from");
  EXPECT_THAT(ParseError(Lines({"name: n", "gpu_health:", "  kernel_log: /var/log/kern.log"})),
              StartsWith("t.yaml:3:gpu_health.kernel_log: unknown key (gpu_health takes: ecc_required, "));
}

TEST(GpuHealthProfile, GpuProfilesStateSourcedLimits) {
  ForEachGpuProfileSection<GpuHealthExpectation>(
      [](const GpuHealthExpectation& health) { EXPECT_TRUE(health.ecc_required); });
}

}  // namespace
}  // namespace gpuconform::kernel_log
