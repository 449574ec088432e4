// nvbandwidth results as NVIDIA's README publishes them (../shared/realdata/nvbandwidth), and
// as output.cpp, json_output.cpp and error_handling.h of nvbandwidth v0.8 print the rest (SUM,
// N/A, -j, errors); broken input is refused.
#include <gtest/gtest.h>

#include <algorithm>

#include "probes/nvbandwidth/nvbandwidth_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::nvbandwidth {
namespace {

using test_support::Parsed;

TEST(NvbandwidthParse, EightGpuNvlinkWriteMatrixIsUniformAcrossAll56Pairs) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvbandwidth");
  const auto report = Parsed(ParseNvbandwidth(
      test_support::ReadFile(dir / "nvbandwidth-readme-d2d-memcpy-write-ce-8gpu-nvlink-healthy.txt"), "f"));
  ASSERT_EQ(report.testcases.size(), 1u);
  const Testcase& testcase = report.testcases[0];
  EXPECT_EQ(testcase.name, "device_to_device_memcpy_write_ce");
  EXPECT_EQ(testcase.status, "Passed");
  EXPECT_EQ(testcase.description, "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)");
  EXPECT_EQ(testcase.unit, "GB/s");
  EXPECT_EQ(testcase.sum, std::nullopt) << "the README's example predates the SUM line";
  ASSERT_TRUE(testcase.matrix);
  const Matrix& matrix = *testcase.matrix;
  ASSERT_EQ(matrix.values.size(), 8u);
  EXPECT_EQ(matrix.column_labels.size(), 8u);
  EXPECT_EQ(matrix.row_labels[6], "6");
  double low = 1e9, high = 0;
  int pairs = 0;
  for (std::size_t row = 0; row < 8; ++row) {
    EXPECT_EQ(matrix.At(row, row), 0.0) << "this version prints 0.00 on the diagonal";
    for (std::size_t column = 0; column < 8; ++column) {
      if (row == column) continue;
      low = std::min(low, *matrix.At(row, column));
      high = std::max(high, *matrix.At(row, column));
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 56);
  EXPECT_DOUBLE_EQ(low, 274.89);   // GPU 6 <- GPU 0
  EXPECT_DOUBLE_EQ(*matrix.At(6, 0), 274.89);
  EXPECT_DOUBLE_EQ(high, 276.76);
  EXPECT_LT((high - low) / low, 0.01);
}

TEST(NvbandwidthParse, HostToDeviceRowGivesEveryGpuAboutTwentySixGbytesPerSec) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvbandwidth");
  const auto report = Parsed(ParseNvbandwidth(
      test_support::ReadFile(dir / "nvbandwidth-readme-h2d-memcpy-ce-8gpu-pcie-healthy.txt"), "f"));
  const Testcase* testcase = report.Find("host_to_device_memcpy_ce");
  ASSERT_NE(testcase, nullptr);
  EXPECT_EQ(testcase->description, "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)");
  ASSERT_TRUE(testcase->matrix);
  ASSERT_EQ(testcase->matrix->values.size(), 1u) << "one CPU row";
  ASSERT_EQ(testcase->matrix->values[0].size(), 8u);
  EXPECT_DOUBLE_EQ(*testcase->matrix->At(0, 0), 26.03);
  EXPECT_DOUBLE_EQ(*testcase->matrix->At(0, 1), 25.94);
  EXPECT_DOUBLE_EQ(*testcase->matrix->At(0, 4), 26.19);
  for (std::size_t gpu = 0; gpu < 8; ++gpu) EXPECT_GT(*testcase->matrix->At(0, gpu), 25.9) << gpu;
}

TEST(NvbandwidthParse, NewerTextHasHeaderNaSumsErrorsAndWaivedCases) {
  const auto report = Parsed(ParseNvbandwidth(
      "nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\n"
      "CUDA Runtime Version: 12080\nCUDA Driver Version: 12080\nDriver Version: 570.124.06\n\nnode1\n"
      "Device 0: NVIDIA H100 80GB HBM3 (00000000:18:00)\nDevice 1: NVIDIA H100 80GB HBM3 (00000000:2a:00)\n\n"
      "Running device_to_device_memcpy_read_ce.\n"
      "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)\n"
      "           0         1\n"
      " 0       N/A    389.21\n"
      " 1    389.52       N/A\n\n"
      "SUM device_to_device_memcpy_read_ce 778.73\n\n"
      "Waived: \n"
      "Running device_to_device_bidirectional_memcpy_read_sm.\n"
      "Error: [CUDA_ERROR_OUT_OF_MEMORY] out of memory in expression cuMemAlloc(...)\n"
      "NOTE: The reported results may not reflect the full capabilities of the platform.\n",
      "f"));
  EXPECT_EQ(report.version, "v0.8");
  EXPECT_EQ(report.driver_version, "570.124.06");
  EXPECT_EQ(report.cuda_version, "12080");
  ASSERT_EQ(report.devices.size(), 2u);
  const Testcase* read = report.Find("device_to_device_memcpy_read_ce");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->matrix->At(0, 0), std::nullopt);
  EXPECT_DOUBLE_EQ(*read->matrix->At(1, 0), 389.52);
  EXPECT_DOUBLE_EQ(*read->sum, 778.73);
  ASSERT_EQ(report.testcases.size(), 3u);
  EXPECT_EQ(report.testcases[1].status, "Waived");
  const Testcase* failed = report.Find("device_to_device_bidirectional_memcpy_read_sm");
  EXPECT_EQ(failed->status, "Error");
  EXPECT_EQ(failed->error.rfind("[CUDA_ERROR_OUT_OF_MEMORY] out of memory", 0), 0u) << failed->error;
  EXPECT_TRUE(report.errors.empty());
}

TEST(NvbandwidthParse, FatalCudaErrorWithoutAnyGpu) {
  // error_handling.h's CU_ASSERT on cuInit, as nvbandwidth prints it on a machine without a GPU.
  const auto report = Parsed(ParseNvbandwidth(
      "[CUDA_ERROR_NO_DEVICE] no CUDA-capable device is detected in expression cuInit(0) on node1, rank = 0 in "
      "int main(int, char**)() : /src/nvbandwidth/nvbandwidth.cpp:270\n",
      "f"));
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, "CUDA_ERROR_NO_DEVICE");
  EXPECT_TRUE(report.testcases.empty());
}

TEST(NvbandwidthParse, JsonMatrixSumAndErrors) {
  const auto report = Parsed(ParseNvbandwidth(
      R"json({"nvbandwidth": {"CUDA Runtime Version": 12080, "Driver Version": "570.124.06", "git_version": "v0.8",
          "version": "v0.8", "GPU Device list": ["0: NVIDIA H100 80GB HBM3 (00000000:18:00): (node1)"],
          "testcases": [
            {"name": "host_to_device_memcpy_ce", "status": "Passed",
             "bandwidth_description": "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)",
             "bandwidth_matrix": [["55.5", "N/A"]], "sum": 55.5},
            {"name": "device_to_device_memcpy_read_sm", "status": "Error", "error": "out of memory"}]}})json",
      "f"));
  EXPECT_EQ(report.format, "json");
  EXPECT_EQ(report.cuda_version, "12080");
  ASSERT_EQ(report.testcases.size(), 2u);
  EXPECT_DOUBLE_EQ(*report.testcases[0].matrix->At(0, 0), 55.5);
  EXPECT_EQ(report.testcases[0].matrix->At(0, 1), std::nullopt);
  EXPECT_DOUBLE_EQ(*report.testcases[0].sum, 55.5);
  EXPECT_EQ(report.testcases[0].unit, "GB/s");
  EXPECT_EQ(report.testcases[1].error, "out of memory");
  const auto fatal = Parsed(ParseNvbandwidth(
      R"json({"nvbandwidth": {"error": "[CUDA_ERROR_NO_DEVICE] no CUDA-capable device is detected in expression cuInit(0)"}})json",
      "f"));
  ASSERT_EQ(fatal.errors.size(), 1u);
  EXPECT_EQ(fatal.errors[0].code, "CUDA_ERROR_NO_DEVICE");
}

TEST(NvbandwidthParse, RefusesOtherTextAndBrokenMatrices) {
  const std::string head = "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n   0   1\n";
  test_support::ExpectEachRefused(
      ParseNvbandwidth,
      {
          {"", "f:1: not nvbandwidth output"},
          {"hello\n", "f:1: not nvbandwidth output"},
          {std::string("\x89PNG\r\n\x1a\n\x00\x00", 10), "f:1: not nvbandwidth output"},
          {head + " 0  26.1  fast\n", "f:4: a matrix value that is neither a number nor N/A: 'fast'"},
          {head + " 0  26.1\n", "f:4: a matrix row needs a label and 2 values"},
          {head + " 0  26.1  inf\n", "f:4: a matrix value that is neither"},
          {head + "\nSUM other_case 12.0\n", "f:5: a SUM for a testcase that did not run"},
          {"{", "f: not valid JSON"},
          {R"({"x": 1})", "f: not nvbandwidth -j output"},
          {R"({"nvbandwidth": {"testcases": [{"name": "a", "bandwidth_matrix": [["1"], ["1", "2"]]}]}})",
           "f: testcase 'a': bandwidth_matrix rows differ in length"},
      });
}

TEST(NvbandwidthParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "nvbandwidth Version: v0.8\nRunning a.\nmemcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)\n      0     1\n"
      " 0   N/A  1.5\n 1   2.5  N/A\n\nSUM a 4.0\nError: x\n[CUDA_ERROR_X] y in expression z\n",
      ParseNvbandwidth);
  test_support::SurvivesTruncationAndNoise(
      R"({"nvbandwidth": {"version": "v0.8", "testcases": [{"name": "a", "bandwidth_matrix": [["N/A", "1"]], "sum": 1}]}})",
      ParseNvbandwidth);
}

}  // namespace
}  // namespace gpuconform::nvbandwidth
