// The one parser of `nvidia-smi -q -x`: the driver and CUDA versions (Software), each GPU's
// model, VBIOS and InfoROM image versions (Software's firmware checks), PCI bus id, PCIe link (generation and width, current and maximum), performance
// state and, on Hopper and later, its NVLink fabric state (NvSwitch, Pcie), and so the GPU
// count (SlurmGres); and the health fields GpuHealth judges (persistence and ECC mode, ECC
// error counts, retired pages, remapped rows, clock event reasons). The text form
// (`nvidia-smi -q`, query_text_parse.h) fills the same structures. Pure: XML text in, GpuInventory out, or an error
// naming origin:line. Fields a driver does not report ("N/A", absent) stay unset rather than
// guessed; no byte string makes it crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nvidia_smi {

struct PcieLink {
  std::optional<int> max_gen;        // <pcie_gen><max_link_gen>: what GPU and host both support
  std::optional<int> current_gen;    // <pcie_gen><current_link_gen>
  std::optional<int> max_width;      // <link_widths><max_link_width> "16x" -> 16
  std::optional<int> current_width;  // <link_widths><current_link_width>
};

// ECC error counts of one kind (volatile: since the driver loaded; aggregate: the GPU's
// lifetime). SRAM is on-chip (L2, register files, ...), DRAM the HBM or GDDR memory. Drivers
// before Ampere report single-bit (corrected) and double-bit (uncorrected) counts per memory;
// those fill the same fields. Unset: not reported (N/A or absent).
struct EccCounts {
  std::optional<long long> sram_correctable;
  std::optional<long long> sram_uncorrectable;  // parity + SEC-DED where the driver splits them
  std::optional<long long> dram_correctable;
  std::optional<long long> dram_uncorrectable;

  std::optional<long long> Uncorrectable() const;  // SRAM + DRAM, unset when neither is reported
  std::optional<long long> Correctable() const;
};

// Dynamic page retirement (before Ampere): pages taken out of use after ECC errors.
struct RetiredPages {
  std::optional<long long> single_bit_pages;  // retired after multiple single-bit errors
  std::optional<long long> double_bit_pages;  // retired after a double-bit error
  std::optional<bool> pending;                // a retirement waits for the next driver load
};

// Row remapping (Ampere and later): DRAM rows replaced after ECC errors.
struct RemappedRows {
  std::optional<long long> correctable;    // rows remapped for correctable errors
  std::optional<long long> uncorrectable;  // rows remapped for uncorrectable errors
  std::optional<bool> pending;             // a remap waits for a GPU reset
  std::optional<bool> failure;             // a remap failed: the GPU is out of spare rows
};

// Why the clocks are lowered right now (`clocks_event_reasons`, before driver 535
// `clocks_throttle_reasons`). Unset: not reported.
struct ClockEventReasons {
  std::optional<bool> sw_power_cap;
  std::optional<bool> hw_slowdown;
  std::optional<bool> hw_thermal_slowdown;
  std::optional<bool> hw_power_brake_slowdown;
  std::optional<bool> sw_thermal_slowdown;
};

struct GpuRecord {
  int index = 0;                  // position in the output, which is nvidia-smi's GPU index
  std::string bus_id;             // "00000000:18:00.0"
  std::string product_name;       // "NVIDIA H100 80GB HBM3"
  std::string performance_state;  // "P0".."P12", empty when not reported
  std::string vbios_version;          // <vbios_version> "96.00.99.00.01"; empty when not reported
  std::string inforom_image_version;  // <inforom_version><img_version> "G520.0200.00.05"; empty when not reported
  PcieLink pcie;
  std::string fabric_state;      // <fabric><state>: "Completed", "In Progress", ...; empty if absent
  std::string fabric_status;     // <fabric><status>: "Success" or an error
  std::string persistence_mode;  // "Enabled" / "Disabled"; empty when not reported
  std::string ecc_mode;          // current ECC mode: "Enabled" / "Disabled"; empty when not reported
  EccCounts volatile_ecc;
  EccCounts aggregate_ecc;
  std::optional<bool> sram_threshold_exceeded;  // aggregate SRAM errors past the driver's threshold
  RetiredPages retired_pages;
  RemappedRows remapped_rows;
  ClockEventReasons clock_events;
};

struct GpuInventory {
  std::string driver_version;  // <driver_version>; empty when not reported
  std::string cuda_version;    // <cuda_version> (the driver API's CUDA); empty when not reported
  std::vector<GpuRecord> gpus;
  // GPUs nvidia-smi named but could not open ("Unable to determine the device handle for
  // GPU0000:A1:00.0: Unknown Error"), as "00000000:A1:00.0": typically fallen off the bus.
  std::vector<std::string> inaccessible_bus_ids;
};

Result<GpuInventory> ParseNvidiaSmiGpus(const std::string& xml, const std::string& origin);

// "Yes"/"No", "Active"/"Not Active", "Enabled"/"Disabled" -> true/false; "N/A", absent -> unset.
std::optional<bool> FlagValue(std::string_view value);
// "291", "0 bank(s)" -> the leading count; "N/A", absent -> unset.
std::optional<long long> CountValue(std::string_view value);
// a + b of two counts, either may be unset; a sum past the range of long long stays at its
// largest value (a count that large is garbage, and must not overflow into a small one).
std::optional<long long> SumCounts(std::optional<long long> a, std::optional<long long> b);
// "0000:A1:00.0" or "00000000:a1:00.0" -> "00000000:A1:00.0": nvidia-smi's spelling.
std::string CanonicalBusId(std::string_view bus_id);

// "GPU 3 (00000000:9A:00.0)": how messages name a GPU.
std::string GpuDisplayName(const GpuRecord& gpu);

}  // namespace gpuconform::nvidia_smi
