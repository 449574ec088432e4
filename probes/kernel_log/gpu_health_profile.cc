// Reads and registers the profile's `gpu_health:` section.
#include "probes/kernel_log/gpu_health_profile.h"

#include <limits>

#include "harness/core/profile_section.h"

namespace gpuconform::kernel_log {

namespace {

using profile_yaml::Fields;
using profile_yaml::ProfileReader;

GpuHealthExpectation ReadGpuHealth(ProfileReader& reader, const Fields& fields) {
  GpuHealthExpectation health;
  reader.Require(fields,
                 {"ecc_required", "persistence_mode_enabled", "aggregate_dram_errors_max",
                  "aggregate_sram_correctable_max", "remapped_rows_uncorrectable_max", "retired_pages_max", "source"},
                 "a gpu_health section states every limit and where it comes from");
  const auto kMaxCount = std::numeric_limits<long long>::max();
  health.ecc_required = reader.Bool(fields, "ecc_required").value_or(true);
  health.persistence_mode_enabled = reader.Bool(fields, "persistence_mode_enabled").value_or(true);
  health.aggregate_dram_errors_max = reader.PositiveInteger(fields, "aggregate_dram_errors_max", kMaxCount).value_or(0);
  health.aggregate_sram_correctable_max =
      reader.PositiveInteger(fields, "aggregate_sram_correctable_max", kMaxCount).value_or(0);
  health.remapped_rows_uncorrectable_max =
      reader.PositiveInteger(fields, "remapped_rows_uncorrectable_max", kMaxCount).value_or(0);
  health.retired_pages_max = reader.PositiveInteger(fields, "retired_pages_max", kMaxCount).value_or(0);
  health.pcie_bus_ids = reader.StringList(fields, "pcie_bus_ids").value_or(std::vector<std::string>{});
  health.kernel_log_file = reader.NonEmptyString(fields, "kernel_log_file").value_or("");
  health.source = reader.NonEmptyString(fields, "source").value_or("");
  return health;
}

const ProfileSectionRegistration kRegistration(MappingSection<GpuHealthExpectation>(
    {"ecc_required", "persistence_mode_enabled", "aggregate_dram_errors_max", "aggregate_sram_correctable_max",
     "remapped_rows_uncorrectable_max", "retired_pages_max", "pcie_bus_ids", "kernel_log_file", "source"},
    ReadGpuHealth));

}  // namespace

}  // namespace gpuconform::kernel_log
