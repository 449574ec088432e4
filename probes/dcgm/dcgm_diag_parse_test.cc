// dcgmi diag results as published (../shared/realdata/dcgm-diag: DCGM 3.x and 4.x text tables,
// a 2.x/3.x JSON document) and as dcgmi/Diag.cpp of DCGM 4.x writes its JSON and its errors;
// what each source's verdict rests on is asserted here, and broken input is refused.
#include <gtest/gtest.h>

#include "probes/dcgm/dcgm_diag_parse.h"
#include "probes/dcgm/dcgm_error_codes.h"
#include "tests/support/test_support.h"

namespace gpuconform::dcgm {
namespace {

using test_support::Parsed;

DcgmDiagReport Realdata(const std::filesystem::path& dir, const std::string& name) {
  return Parsed(ParseDcgmDiag(test_support::ReadFile(dir / name), name));
}

const DiagTest& TestOf(const DcgmDiagReport& report, const std::string& name) {
  static const DiagTest kNone;
  const DiagTest* test = report.FindTest(name);
  EXPECT_NE(test, nullptr) << "no test " << name;
  return test ? *test : kNone;
}

TEST(DcgmDiagParse, A100LevelTwoWithNvlinksExpectedPassesEveryTestOnAllGpus) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  const auto report = Realdata(dir, "dcgmi-diag-r2-8xA100-p4de-nvlinks-expected-12-pass.txt");
  EXPECT_EQ(report.format, "text");
  EXPECT_EQ(report.level, 2);
  EXPECT_NE(report.command.find("pcie.gpu_nvlinks_expected_up=12"), std::string::npos) << report.command;
  EXPECT_EQ(report.dcgm_version, "3.3.3");
  EXPECT_EQ(report.driver_version, "535.104.12");
  EXPECT_EQ(report.gpu_device_ids, std::vector<std::string>(8, "20b2"));
  EXPECT_TRUE(report.complete);
  ASSERT_EQ(report.tests.size(), 11u);  // 9 deployment checks, PCIe, GPU Memory; no stress at level 2
  for (const auto& test : report.tests) {
    EXPECT_EQ(test.overall, DiagState::kPass) << test.name;
    EXPECT_TRUE(test.warnings.empty()) << test.name;
  }
  EXPECT_EQ(TestOf(report, "Inforom").category, "Deployment");
  const DiagTest& pcie = TestOf(report, "PCIe");
  EXPECT_EQ(pcie.category, "Integration");
  EXPECT_TRUE(pcie.all_gpus);
  for (int gpu = 0; gpu < 8; ++gpu) EXPECT_EQ(pcie.GpuState(gpu), DiagState::kPass) << gpu;
  EXPECT_EQ(TestOf(report, "GPU Memory").category, "Hardware");
  EXPECT_TRUE(report.environment_failures.empty());
}

TEST(DcgmDiagParse, H100CuInitSystemNotInitializedFailsMemoryOnEveryGpuAsAnEnvironmentFault) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  const auto report = Realdata(dir, "dcgmi-diag-r3-8xH100-gpumemory-fail-cuinit-system-not-initialized.txt");
  EXPECT_EQ(report.level, 3);
  EXPECT_EQ(report.dcgm_version, "3.3.8");
  EXPECT_EQ(report.driver_version, "560.35.03");
  EXPECT_EQ(report.gpu_device_ids, std::vector<std::string>(8, "2330"));
  const DiagTest& memory = TestOf(report, "GPU Memory");
  EXPECT_EQ(memory.category, "Hardware");
  EXPECT_EQ(memory.overall, DiagState::kFail);
  EXPECT_TRUE(memory.all_gpus);
  ASSERT_EQ(memory.warnings.size(), 8u);
  for (int gpu = 0; gpu < 8; ++gpu) {
    const DiagMessage& warning = memory.warnings[static_cast<std::size_t>(gpu)];
    EXPECT_EQ(warning.gpu, gpu);
    EXPECT_EQ(memory.GpuState(gpu), DiagState::kFail);
    EXPECT_EQ(warning.environment, EnvironmentFailure::kCudaNotInitialized);
    // The 45-character rows put back together exactly, words cut mid-way included.
    EXPECT_EQ(warning.text, "GPU " + std::to_string(gpu) +
                                " Error using CUDA API cuInit Check DCGM and system logs for errors. Reset GPU. Restart "
                                "DCGM. Rerun diagnostics. Unable to initialize CUDA library: 'system not yet "
                                "initialized'. . Please check if a CUDA sample program can be run successfully on "
                                "this host. Refer to https://github.com/nvidia/cuda-samples");
  }
  ASSERT_EQ(report.environment_failures.size(), 8u);
  EXPECT_EQ(report.environment_failures[5].failure, EnvironmentFailure::kCudaNotInitialized);
  EXPECT_EQ(report.environment_failures[5].test, "GPU Memory");
  EXPECT_EQ(report.environment_failures[5].gpu, 5);
  EXPECT_EQ(TestOf(report, "PCIe").overall, DiagState::kSkip);
  EXPECT_EQ(TestOf(report, "Memory Bandwidth").overall, DiagState::kSkip);
  EXPECT_EQ(TestOf(report, "EUD Test").category, "Stress");
  // The deployment Info under Persistence Mode is kept, unwrapped, and blames nothing.
  const DiagTest& persistence = TestOf(report, "Persistence Mode");
  EXPECT_EQ(persistence.overall, DiagState::kPass);
  ASSERT_EQ(persistence.info.size(), 1u);
  EXPECT_EQ(persistence.info[0].rfind("Persistence mode for GPU 0 is disabled. Enable persistence mode by running "
                                      "\"nvidia-smi -i <gpuId> -pm 1 \" as root.,Persistence mode for GPU 1",
                                      0),
            0u)
      << persistence.info[0];
}

TEST(DcgmDiagParse, B200Dcgm4PcieInternalErrorIsTheToolNotAnyGpu) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  const auto report = Realdata(dir, "dcgmi-diag-r2-dcgm441-8xB200-slurm-pcie-internal-error.txt");
  EXPECT_EQ(report.dcgm_version, "4.4.1");
  EXPECT_EQ(report.driver_version, "570.172.08");
  EXPECT_EQ(report.gpu_device_ids, std::vector<std::string>(8, "2901"));
  EXPECT_EQ(report.level, std::nullopt) << "no command line in this output";
  ASSERT_EQ(report.tests.size(), 3u);
  const DiagTest& pcie = TestOf(report, "pcie");
  EXPECT_EQ(pcie.category, "Integration");
  EXPECT_EQ(pcie.overall, DiagState::kFail);
  ASSERT_EQ(pcie.entities.size(), 8u);
  for (const auto& entity : pcie.entities) {
    EXPECT_EQ(entity.entity_group, "GPU");
    EXPECT_EQ(entity.state, DiagState::kPass) << "GPU" << entity.entity_id;
  }
  ASSERT_EQ(pcie.warnings.size(), 1u);
  EXPECT_EQ(pcie.warnings[0].gpu, std::nullopt);
  EXPECT_EQ(pcie.warnings[0].text,
            "There was an internal error during the test: 'Output of child process (11167) couldn't be parsed: '* "
            "Line 1, Column 1   Syntax error: value, object or array expected. '' Check DCGM and system logs for "
            "errors. Reset GPU. Restart DCGM. Rerun diagnostics.");
  ASSERT_EQ(report.environment_failures.size(), 1u);
  EXPECT_EQ(report.environment_failures[0].failure, EnvironmentFailure::kDcgmInternalError);
  EXPECT_EQ(report.environment_failures[0].test, "pcie");
  for (const char* name : {"software", "memory"}) {
    const DiagTest& test = TestOf(report, name);
    EXPECT_EQ(test.overall, DiagState::kPass);
    ASSERT_EQ(test.entities.size(), 8u);
    EXPECT_EQ(test.entities[7].entity_id, 7);
    EXPECT_EQ(test.GpuState(7), DiagState::kPass);
  }
}

TEST(DcgmDiagParse, Dcgm3JsonSingleGpuPassesWithTheEudTestSkipped) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "dcgm-diag");
  const auto report = Realdata(dir, "dcgmi-diag-r3-json-dcgm3x-single-gpu-pass.json.txt");
  EXPECT_EQ(report.format, "json");
  ASSERT_EQ(report.tests.size(), 16u);
  EXPECT_EQ(TestOf(report, "CUDA Main Library").overall, DiagState::kPass);
  EXPECT_EQ(TestOf(report, "Denylist").category, "Deployment");
  for (const auto& test : report.tests) {
    if (test.category == "Deployment") continue;
    ASSERT_EQ(test.entities.size(), 1u) << test.name;
    EXPECT_EQ(test.entities[0].entity_id, 0);
    EXPECT_EQ(test.GpuState(0), test.name == "EUD Test" ? DiagState::kSkip : DiagState::kPass) << test.name;
  }
  const DiagTest& pcie = TestOf(report, "PCIe");
  ASSERT_EQ(pcie.entities[0].info.size(), 1u);
  EXPECT_NE(pcie.entities[0].info[0].find("GPU to Host bandwidth:\t\t13.15 GB/s"), std::string::npos);
  EXPECT_EQ(TestOf(report, "Targeted Power").category, "Stress");
  EXPECT_TRUE(report.environment_failures.empty());
}

// dcgmi 4.x's JSON as dcgmi/Diag.cpp (HelperJsonBuildOutput) lays it out.
const char kDcgm4Json[] = R"({
   "DCGM Diagnostic" : {
      "test_categories" : [
         { "category" : "Hardware",
           "tests" : [ { "name" : "memory",
                         "results" : [ { "entity_group" : "GPU", "entity_group_id" : 1, "entity_id" : 0, "status" : "Pass" },
                                       { "entity_group" : "GPU", "entity_group_id" : 1, "entity_id" : 1, "status" : "Fail",
                                         "warnings" : [ { "error_category" : 10, "error_id" : 58, "error_severity" : 2,
                                                          "warning" : "GPU 1 memory mismatch" } ],
                                         "info" : [ "GPU 1 Allocated 80000 bytes" ] } ],
                         "test_summary" : { "status" : "Fail",
                                            "warnings" : [ { "error_id" : 58, "warning" : "GPU 1 memory mismatch" },
                                                           { "error_id" : 44, "warning" : "There was an internal error during the test: 'x'" } ] } } ] } ] },
   "entity_groups" : [ { "entity_group" : "GPU", "entity_group_id" : 1,
                         "entities" : [ { "entity_id" : 0, "device_id" : "2330" }, { "entity_id" : 1, "device_id" : "2330" } ] } ],
   "metadata" : { "Driver Version Detected" : "570.124.06", "version" : "4.2.3" }
})";

TEST(DcgmDiagParse, Dcgm4JsonNamesEntitiesCodesAndTheSummarysOwnErrors) {
  const auto report = Parsed(ParseDcgmDiag(kDcgm4Json, "f"));
  EXPECT_EQ(report.dcgm_version, "4.2.3");
  EXPECT_EQ(report.driver_version, "570.124.06");
  EXPECT_EQ(report.gpu_device_ids, (std::vector<std::string>{"2330", "2330"}));
  const DiagTest& memory = TestOf(report, "memory");
  EXPECT_EQ(memory.overall, DiagState::kFail);
  EXPECT_EQ(memory.GpuState(0), DiagState::kPass);
  EXPECT_EQ(memory.GpuState(1), DiagState::kFail);
  ASSERT_EQ(memory.entities[1].warnings.size(), 1u);
  EXPECT_EQ(memory.entities[1].warnings[0].error_id, 58);
  EXPECT_EQ(memory.entities[1].warnings[0].error_name, "DCGM_FR_MEMORY_MISMATCH");
  EXPECT_EQ(memory.entities[1].warnings[0].gpu, 1);
  EXPECT_EQ(memory.entities[1].info, std::vector<std::string>{"GPU 1 Allocated 80000 bytes"});
  ASSERT_EQ(memory.warnings.size(), 1u) << "the summary's copy of GPU 1's error is not counted twice";
  EXPECT_EQ(memory.warnings[0].error_name, "DCGM_FR_INTERNAL");
  ASSERT_EQ(report.environment_failures.size(), 1u);
  EXPECT_EQ(report.environment_failures[0].failure, EnvironmentFailure::kDcgmInternalError);
}

TEST(DcgmDiagParse, RunsThatNeverStartedAreEnvironmentFailures) {
  // dcgmi/Command.cpp's words when nv-hostengine is not running.
  const auto text = Parsed(ParseDcgmDiag(
      "$ dcgmi diag -r 1\nError: unable to establish a connection to the specified host: localhost\n"
      "Error: Unable to connect to host engine. Host engine connection invalid/disconnected.\n",
      "f"));
  EXPECT_EQ(text.level, 1);
  EXPECT_TRUE(text.tests.empty());
  ASSERT_EQ(text.runtime_errors.size(), 2u);
  ASSERT_EQ(text.environment_failures.size(), 2u);
  EXPECT_EQ(text.environment_failures[1].failure, EnvironmentFailure::kHostEngineUnreachable);
  EXPECT_EQ(text.environment_failures[1].evidence,
            "Error: Unable to connect to host engine. Host engine connection invalid/disconnected.");
  // dcgmi -j's failure document (Diag::HelperDisplayFailureMessage).
  const auto json = Parsed(ParseDcgmDiag(
      R"({"DCGM Diagnostic": {"version": "4.4.1", "runtime_error": "Unable to connect to host engine. Host engine connection invalid/disconnected."}})",
      "f"));
  EXPECT_EQ(json.dcgm_version, "4.4.1");
  ASSERT_EQ(json.environment_failures.size(), 1u);
  EXPECT_EQ(json.environment_failures[0].failure, EnvironmentFailure::kHostEngineUnreachable);
}

TEST(DcgmDiagParse, Dcgm3TextListsGpusByStateAndACutOffTableIsIncomplete) {
  const std::string text =
      "+---------------------------+------------------------------------------------+\n"
      "| Diagnostic                | Result                                         |\n"
      "+===========================+================================================+\n"
      "+-----  Hardware  ----------+------------------------------------------------+\n"
      "| GPU Memory                | Pass - GPUs: 0, 2                              |\n"
      "|                           | Fail - GPU: 1                                  |\n"
      "| Warning                   | GPU 1 Error using CUDA API cuMemAlloc          |\n"
      "+---------------------------+------------------------------------------------+\n";
  const auto report = Parsed(ParseDcgmDiag(text, "f"));
  const DiagTest& memory = TestOf(report, "GPU Memory");
  EXPECT_EQ(memory.overall, std::nullopt);
  EXPECT_EQ(memory.GpuState(0), DiagState::kPass);
  EXPECT_EQ(memory.GpuState(1), DiagState::kFail);
  EXPECT_EQ(memory.GpuState(2), DiagState::kPass);
  EXPECT_EQ(memory.GpuState(3), std::nullopt);
  ASSERT_EQ(memory.warnings.size(), 1u);
  EXPECT_EQ(memory.warnings[0].gpu, 1);
  EXPECT_EQ(memory.warnings[0].environment, EnvironmentFailure::kNone);
  EXPECT_TRUE(report.complete);
  const auto cut = Parsed(ParseDcgmDiag(text.substr(0, text.find("| Warning")) + "| Warning      | GPU 1 Err", "f"));
  EXPECT_FALSE(cut.complete);
}

TEST(DcgmDiagParse, ErrorNamesCoverDcgmsCodes) {
  EXPECT_EQ(DcgmErrorName(0), "DCGM_FR_OK");
  EXPECT_EQ(DcgmErrorName(kErrorInternal), "DCGM_FR_INTERNAL");
  EXPECT_EQ(DcgmErrorName(99), "DCGM_FR_GPU_EXPECTED_NVLINKS_UP");
  EXPECT_EQ(DcgmErrorName(132), "DCGM_FR_UNCORRECTABLE_ROW_REMAP_LIMIT");
  EXPECT_EQ(DcgmErrorName(133), "");
  EXPECT_EQ(DcgmErrorName(-1), "");
}

TEST(DcgmDiagParse, RefusesOtherTextAndBrokenResults) {
  test_support::ExpectEachRefused(
      ParseDcgmDiag,
      {
          {"", "f:1: not dcgmi diag output"},
          {"hello\n", "f:1: not dcgmi diag output"},
          {std::string("\x7f" "ELF\x01\x00\x00", 7), "f:1: not dcgmi diag output"},
          {"{", "f: not valid JSON"},
          {"{\"x\": 1}", "f: not dcgmi diag -j output"},
          {R"({"DCGM Diagnostic": {}})", "f: no \"test_categories\""},
          {R"({"DCGM Diagnostic": {"test_categories": [{"category": "H", "tests": [{"name": "m", "results": [{"status": "Maybe"}]}]}]}})",
           "f: test 'm': a result without a status I know"},
          {R"({"iterations": [], "Overall Result": "Pass"})", "f: several iterations"},
          {"| Diagnostic | Result |\n+===+===+\n|-----  Hardware  ---+---|\n| GPU Memory | Sometimes |\n| x | y |\n",
           "f:4: test 'GPU Memory' has no result I know"},
          {"| Diagnostic | Result |\n+===+===+\n|-----  Hardware  ---+---|\n| Warning | GPU 0 |\n",
           "f:4: a Warning row before any test"},
          {"| Diagnostic | Result |\nstray words\n| a | Pass |\n", "f:2: a line inside the table that is not a row"},
      });
}

TEST(DcgmDiagParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "dcgmi diag -r 3\n| Diagnostic | Result |\n+====+====+\n|-----  Metadata  --+--|\n| DCGM Version | 3.3.8 |\n"
      "+-----  Hardware  --+---+\n| GPU Memory | Fail - GPUs: 0, 1 |\n| Warning | GPU 0 Error |\n| | continued |\n"
      "| memory | Fail |\n| | GPU0: Pass |\n| Warning: GPU0 | text |\n+----+----+\n",
      ParseDcgmDiag);
  test_support::SurvivesTruncationAndNoise(kDcgm4Json, ParseDcgmDiag);
}

}  // namespace
}  // namespace gpuconform::dcgm
