// The profile's `gpu_health:` section, owned by the kernel log probe (which reads the file it
// names when neither dmesg nor journalctl -k answers) and the GpuHealth suite that judges each
// GPU by its limits. Absent: the suite is not applicable.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::kernel_log {

// GpuHealth: the health limits AzNHC, DCGM and gpud apply to each GPU, per SKU. Absent: the
// suite is not applicable. A maximum is the largest count that still passes.
struct GpuHealthExpectation {
  static constexpr char kKey[] = "gpu_health";
  bool ecc_required = true;              // ECC mode must be Enabled
  bool persistence_mode_enabled = true;  // the persistence mode every GPU must have
  long long aggregate_dram_errors_max = 0;      // DRAM correctable or uncorrectable, volatile or aggregate
  long long aggregate_sram_correctable_max = 0;  // SRAM correctable, volatile or aggregate
  long long remapped_rows_uncorrectable_max = 0;  // rows remapped for uncorrectable errors
  long long retired_pages_max = 0;                // single- plus double-bit retired pages (before Ampere)
  std::vector<std::string> pcie_bus_ids;          // where the GPUs must be; empty: only their count
  std::string kernel_log_file;  // read when neither dmesg nor journalctl -k answers; empty: none
  std::string source;
};

}  // namespace gpuconform::kernel_log
