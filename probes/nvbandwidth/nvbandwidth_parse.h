// NVIDIA nvbandwidth's results (github.com/NVIDIA/nvbandwidth), as text or as its -j JSON:
//   nvbandwidth Version: v0.8                         (header lines, newer versions only)
//   Driver Version: 550.54.15
//   Device 0: NVIDIA H100 80GB HBM3 (00000000:18:00)
//   Running host_to_device_memcpy_ce.
//   memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)
//             0         1         2 ...
//    0     26.03     25.94     25.97 ...               (N/A where a pair is not measured)
//   SUM host_to_device_memcpy_ce 207.77                (newer versions)
//   Error: <why the testcase failed>                   (or "Waived: ")
// and {"nvbandwidth": {"version", "Driver Version", "testcases": [{"name", "status",
// "bandwidth_description", "bandwidth_matrix": [["N/A", "276.07", ...]], "sum", "error"}],
// "error"}} with -j. A fatal CUDA or NVML error ("[CUDA_ERROR_NO_DEVICE] no CUDA-capable device
// is detected in expression cuInit(0) ...") ends the run; it is kept with its error name.
// Older versions print 0.00 on the diagonal where newer ones print N/A; both are kept as
// printed. Pure; errors name origin:line; garbage is an error, never a crash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nvbandwidth {

// One testcase's matrix: rows and columns as labelled (GPU or CPU indices; hosts for multinode),
// values in the unit of the testcase's description (GB/s for bandwidth, ns for latency cases).
struct Matrix {
  std::vector<std::string> row_labels;
  std::vector<std::string> column_labels;
  std::vector<std::vector<std::optional<double>>> values;  // [row][column]; N/A -> nullopt

  std::optional<double> At(std::size_t row, std::size_t column) const;
};

struct Testcase {
  std::string name;         // "host_to_device_memcpy_ce"; empty for text "Waived: " lines, which name none
  std::string status;       // "Passed", "Waived", "Error", "Running" (cut off), "Not Found"
  std::string description;  // "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)"
  std::string unit;         // "GB/s": the description's last parenthesis
  std::optional<Matrix> matrix;
  std::optional<double> sum;  // the SUM line (JSON "sum"), in `unit`
  std::string error;          // why it failed, as printed
};

struct NvbandwidthError {
  std::string code;  // "CUDA_ERROR_NO_DEVICE", "NVML_ERROR"; empty for usage errors
  std::string line;  // as printed
};

struct NvbandwidthReport {
  std::string origin;
  std::string format;  // "text" or "json"
  std::string version;          // "v0.8"
  std::string driver_version;   // "550.54.15"
  std::string cuda_version;     // "12040" (CUDA Runtime Version)
  std::vector<std::string> devices;  // "Device 0: NVIDIA H100 80GB HBM3 (00000000:18:00)"
  std::vector<Testcase> testcases;
  std::vector<NvbandwidthError> errors;  // fatal errors of the whole run

  const Testcase* Find(const std::string& name) const;
};

// JSON when the first character is '{', else text.
Result<NvbandwidthReport> ParseNvbandwidth(const std::string& text, const std::string& origin);

}  // namespace gpuconform::nvbandwidth
