#include "suites/nvbandwidth/nvbandwidth_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"

namespace gpuconform::nvbandwidth_suite {

using nvbandwidth::NvbandwidthReport;
using nvbandwidth::Testcase;

namespace {

enum class CopyKind { kHostToDevice, kDeviceToHost, kDeviceToDevice };

struct Judged {
  const char* testcase;
  CopyKind kind;
  double floor_gb_per_s;
};

std::string Fixed(double value, int digits) { return fmt::format("{:.{}f}", value, digits); }

std::string Gb(double value) { return Fixed(value, 1) + " GB/s"; }

// "GPU 3", or "GPU 2 -> GPU 5" in the direction the testcase's description draws its arrow
// ("GPU(row) <- GPU(column)": the column's GPU copies to the row's).
struct Copy {
  std::string entity;  // "gpu3", "gpu2-gpu5"
  std::string what;    // "GPU 3", "GPU 2 -> GPU 5"
};

std::optional<Copy> CopyAt(const Testcase& testcase, CopyKind kind, std::size_t row, std::size_t column) {
  const auto& matrix = *testcase.matrix;
  const std::string& row_label = matrix.row_labels.at(row);
  const std::string& column_label = matrix.column_labels.at(column);
  if (kind != CopyKind::kDeviceToDevice) {
    // One axis is the host's: the GPU is the other.
    const bool gpu_in_rows = Contains(testcase.description, "CPU(column)") || Contains(testcase.description, "GPU(row)");
    const std::string& gpu = gpu_in_rows ? row_label : column_label;
    return Copy{"gpu" + gpu, "GPU " + gpu};
  }
  if (row_label == column_label) return std::nullopt;  // a GPU to itself: 0.00 or N/A
  const bool column_to_row = Contains(testcase.description, "<-");
  const std::string& from = column_to_row ? column_label : row_label;
  const std::string& to = column_to_row ? row_label : column_label;
  return Copy{"gpu" + from + "-gpu" + to, "GPU " + from + " -> GPU " + to};
}

std::string Cause(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHostToDevice:
    case CopyKind::kDeviceToHost:
      return "the GPU's PCIe link has likely trained down (generation or width): read its link in nvidia-smi -q "
             "and reseat the GPU or its riser";
    case CopyKind::kDeviceToDevice:
      return "an NVLink between them is likely down or degraded: read nvidia-smi nvlink -s on both GPUs";
  }
  return "";
}

const char* Direction(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHostToDevice: return "host-to-device";
    case CopyKind::kDeviceToHost: return "device-to-host";
    case CopyKind::kDeviceToDevice: return "device-to-device";
  }
  return "";
}

}  // namespace

std::optional<std::string> CopyBandwidthSkipReason(const Profile& profile) {
  if (auto reason = GpuSkipReason(profile, "there is no GPU copy to measure")) return reason;
  if (!profile.Get<nvbandwidth::NvbandwidthExpectation>()) {
    return "profile " + profile.name +
           " has no nvbandwidth section, so no copy bandwidth floor is set (see docs/profiles.md)";
  }
  return std::nullopt;
}

CheckResult CheckCopyBandwidthAtFloors(const std::string& node, const NvbandwidthReport& report,
                                       const nvbandwidth::NvbandwidthExpectation& floors) {
  if (!report.errors.empty()) {
    return Errored("not-measured", node + ": nvbandwidth stopped: \"" + report.errors.front().line + "\"");
  }
  // The write testcase where it measured, else the read one where the run has it.
  const Testcase* write = report.Find(kDeviceToDeviceWrite);
  const Testcase* read = report.Find(kDeviceToDeviceRead);
  const Testcase* device_to_device = (write != nullptr && write->matrix) || read == nullptr ? write : read;
  const std::vector<std::pair<const Testcase*, Judged>> judged = {
      {report.Find(kHostToDevice), {kHostToDevice, CopyKind::kHostToDevice, floors.host_to_device_gb_per_s}},
      {report.Find(kDeviceToHost), {kDeviceToHost, CopyKind::kDeviceToHost, floors.device_to_host_gb_per_s}},
      {device_to_device,
       {kDeviceToDeviceWrite, CopyKind::kDeviceToDevice,
        floors.device_to_device_gb_per_s}}};

  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  std::vector<std::string> problems;
  int measured = 0;
  for (const auto& [testcase, what] : judged) {
    const std::string name = testcase ? testcase->name : what.testcase;
    if (testcase == nullptr) {
      measurements.push_back({node + "." + name, "not in the output", "", "", ""});
      continue;
    }
    if (!testcase->matrix) {
      problems.push_back(node + ": nvbandwidth's " + name + " gave no values (" + testcase->status +
                         (testcase->error.empty() ? "" : ": \"" + testcase->error + "\"") + ")");
      continue;
    }
    ++measured;
    std::optional<double> lowest;
    const auto& matrix = *testcase->matrix;
    for (std::size_t row = 0; row < matrix.values.size(); ++row) {
      for (std::size_t column = 0; column < matrix.values[row].size(); ++column) {
        const auto value = matrix.At(row, column);
        const auto copy = CopyAt(*testcase, what.kind, row, column);
        if (!value || !copy) continue;
        lowest = lowest ? std::min(*lowest, *value) : *value;
        if (what.floor_gb_per_s <= 0 || *value >= what.floor_gb_per_s) continue;
        findings.push_back({"copy-bandwidth-low", node + "/" + copy->entity,
                            node + " " + copy->what + ": " + Direction(what.kind) + " copy " + Gb(*value) +
                                " is below the floor of " + Gb(what.floor_gb_per_s) + " (nvbandwidth " + name +
                                "); " + Cause(what.kind)});
      }
    }
    if (lowest) {
      measurements.push_back({node + "." + name + "_min", Fixed(*lowest, 2), "GB/s",
                              what.floor_gb_per_s > 0 ? ">= " + Fixed(what.floor_gb_per_s, 1) : "",
                              what.floor_gb_per_s > 0 ? floors.source : ""});
    }
  }
  if (!findings.empty()) {
    CheckResult failed = Failed(std::move(findings));
    failed.measurements = std::move(measurements);
    return failed;
  }
  if (!problems.empty()) return ErroredEach("not-measured", problems);
  if (measured == 0) {
    return Errored("not-measured", node + ": " + report.origin + " holds none of nvbandwidth's " + kHostToDevice +
                                       ", " + kDeviceToHost + " or device_to_device_memcpy_*_ce testcases");
  }
  CheckResult passed = Passed();
  passed.measurements = std::move(measurements);
  return passed;
}

CheckResult NvbandwidthUnread(const std::string& node, bool tool_missing, const std::string& problem) {
  if (tool_missing) {
    return Errored("tool-missing", node + ": nvbandwidth is not installed, so the copy bandwidths cannot be measured (" +
                                       problem +
                                       "); build it from github.com/NVIDIA/nvbandwidth (CMake and the CUDA toolkit) "
                                       "and put it on PATH, or name it in the profile's nvbandwidth.binary");
  }
  return Errored("unavailable", problem);
}

}  // namespace gpuconform::nvbandwidth_suite
