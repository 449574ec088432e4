// NVML facts: the nvml.txt parser, the choice between NVML and nvidia-smi, the NVSwitch
// remote of every link, and FabricRegistered.
#include <gtest/gtest.h>

#include "facts/gpu_facts.h"
#include "harness/util/record_lines.h"
#include "probes/nvml/nvml_parse.h"
#include "probes/nvml/nvml_probe.h"
#include "suites/nvswitch/nvswitch_checks.h"
#include "suites/nvswitch/topo_test_support.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::facts;
using namespace gpuconform::nvml;
namespace {

using topo_test::ExpectOnlyFinding;
using topo_test::FixtureDir;
using topo_test::H100;
using topo_test::ReadFile;

std::string HealthyNvml() { return ReadFile(FixtureDir("gpu-h100-healthy") + "/nodes/hgx-node-01/nvml.txt"); }

std::string TwoGpus(const std::string& gpu1_fields, const std::string& link_fields) {
  return "nvml driver_version=550.54.15 device_count=2\n"
         "gpu index=0 name=\"NVIDIA H100 80GB HBM3\" bus_id=00000000:18:00.0 fabric_state=completed "
         "fabric_status=success\n"
         "link gpu=0 link=0 state=active remote=nvswitch speed_mbyte_per_s=26562\n"
         "gpu index=1 name=\"NVIDIA H100 80GB HBM3\" bus_id=00000000:2A:00.0 " +
         gpu1_fields +
         "\n"
         "link gpu=1 link=0 " +
         link_fields + "\n";
}

RawOutput Ok(const std::string& text) { return {ProbeStatus::kOk, text, "", ""}; }

TEST(RecordLines, FormatRoundTripsAndGarbageNamesTheLine) {
  const std::string line = FormatRecord("gpu", {{"name", "NVIDIA \"H100\"\tx"}, {"empty", ""}, {"n", "3"}});
  EXPECT_EQ(line, "gpu name=\"NVIDIA 'H100' x\" empty=\"\" n=3");
  const auto parsed = test_support::Parsed(ParseRecordLines("# comment\n\n" + line + "\n", "f"));
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].line, 3);
  EXPECT_EQ(parsed[0].Get("name"), "NVIDIA 'H100' x");
  for (const std::string bad : {"gpu name=\"open\n", "gpu =3\n", "gpu a=1 a=2\n", "GPU! x=1\n", "gpu a=b\"c\n"}) {
    auto error = ParseRecordLines("# ok\n" + bad, "snap/n1/nvml.txt");
    ASSERT_FALSE(error) << bad;
    EXPECT_EQ(error.error().rfind("snap/n1/nvml.txt:2: ", 0), 0u) << error.error();
  }
}

TEST(NvmlParse, ReadsTheFixtureAndConvertsToOneFactModel) {
  const auto report = test_support::Parsed(ParseNvml(HealthyNvml(), "nvml.txt"));
  ASSERT_EQ(report.gpus.size(), 8u);
  EXPECT_EQ(report.driver_version, "550.54.15");
  EXPECT_EQ(report.gpus[5].bus_id, "00000000:AB:00.0");
  ASSERT_EQ(report.gpus[5].links.size(), 18u);
  EXPECT_EQ(report.gpus[5].links[17].remote, "nvswitch");
  EXPECT_DOUBLE_EQ(*report.gpus[5].links[17].speed_gb_per_s, 26.562);
  const auto inventory = ToGpuInventory(report);
  EXPECT_EQ(inventory.gpus[5].pcie.current_width, 16);
  EXPECT_EQ(inventory.gpus[5].fabric_state, "Completed");
  EXPECT_EQ(inventory.gpus[5].fabric_status, "Success");
  const auto links = ToNvlinkStatus(report);
  EXPECT_EQ(links.gpus[5].links[3].remote, "nvswitch");
  EXPECT_EQ(CheckAllLinksActive("n1", links, H100()).verdict, Verdict::kPass);
  EXPECT_EQ(CheckFabricRegistered("n1", inventory, H100()).verdict, Verdict::kPass);
}

TEST(NvmlParse, UnreportedFieldsStayUnsetAndBadValuesNameTheLine) {
  const auto sparse = test_support::Parsed(ParseNvml("nvml\ngpu index=0\nlink gpu=0 link=0 state=active\n", "f"));
  EXPECT_FALSE(sparse.gpus[0].pcie.max_gen.has_value());
  EXPECT_FALSE(sparse.gpus[0].links[0].speed_gb_per_s.has_value());
  // A link whose speed NVML did not give is active, and its speed is not judged.
  EXPECT_FALSE(ToNvlinkStatus(sparse).gpus[0].links[0].speed_reported);

  const topo_test::RefusedInputs bad = {
      {"nvml\ngpu index=0 pcie_gen_max=five\n", "f:2: pcie_gen_max must be a whole number"},
      {"nvml\ngpu index=0\nlink gpu=0 link=0 state=up\n", "f:3: state must be active or inactive"},
      {"nvml\ngpu index=0\nlink gpu=1 link=0 state=active\n", "f:3: a link line must follow the gpu line"},
      {"nvml\ngpu index=0 fabric_state=done\n", "f:2: fabric_state must be"},
      {"gpu index=0\n", "f:1: expected the 'nvml ...' line first"},
      {"nvml device_count=8\ngpu index=0\n", "f:2: the nvml line says device_count=8 but 1 gpu lines follow"},
      {"", "f:1: no 'nvml ...' line"},
  };
  topo_test::ExpectEachRefused(ParseNvml, bad);
}

// NVML's DL error counters become the same report nvidia-smi nvlink -e gives; without them
// (an NVML before the fields) there is none, and nvidia-smi's counters are read instead.
TEST(NvmlParse, LinkErrorCountersBecomeTheNvlinkErrorReport) {
  const auto report = test_support::Parsed(ParseNvml(
      "nvml\ngpu index=0 name=H100\nlink gpu=0 link=0 state=active replay_errors=57 recovery_errors=2 "
      "crc_errors=18446744073709551615\nlink gpu=0 link=1 state=active\n",
      "f"));
  const auto errors = ToNvlinkErrors(report, "n1: nvml.txt");
  ASSERT_TRUE(errors.has_value());
  EXPECT_EQ(errors->origin, "n1: nvml.txt");
  ASSERT_EQ(errors->gpus.size(), 1u);
  ASSERT_EQ(errors->gpus[0].links.size(), 1u) << "link 1 reports no counter";
  EXPECT_EQ(errors->gpus[0].links[0].counters.at(nvidia_smi::kNvlinkReplay), 57u);
  EXPECT_EQ(errors->gpus[0].links[0].counters.at(nvidia_smi::kNvlinkRecovery), 2u);
  EXPECT_EQ(errors->gpus[0].links[0].counters.at(nvidia_smi::kNvlinkCrc), 18446744073709551615ull);
  EXPECT_FALSE(ToNvlinkErrors(test_support::Parsed(ParseNvml(HealthyNvml(), "f")), "o").has_value());
  topo_test::ExpectEachRefused(
      ParseNvml, {{"nvml\ngpu index=0\nlink gpu=0 link=0 state=active crc_errors=-1\n",
                   "f:3: crc_errors must be a whole number of errors, got '-1'"},
                  {"nvml\ngpu index=0\nlink gpu=0 link=0 state=active replay_errors=18446744073709551616\n",
                   "f:3: replay_errors must be a whole number of errors"}});
}

TEST(NvmlParse, SurvivesEveryTruncationAndRandomBytes) {
  topo_test::SurvivesTruncationAndNoise(HealthyNvml().substr(0, 4000), ParseNvml);
}

TEST(GpuSources, NvmlIsTheSourceOfRecordAndNvidiaSmiStandsInWithoutIt) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  // nvidia-smi says all 18 links are up; NVML says link 0 of GPU 1 is down: NVML is believed.
  raw.node["n1"][NvlinkStatusProbe().id] =
      Ok("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)\n\t Link 0: 26.562 GB/s\n"
         "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\n\t Link 0: 26.562 GB/s\n");
  raw.node["n1"][NvmlProbe().id] = Ok(TwoGpus("", "state=inactive remote=nvswitch"));
  auto links = ReadNvlinkStatus(raw, "n1");
  ASSERT_TRUE(links) << links.error();
  EXPECT_FALSE(links->gpus[1].links[0].active);

  // The raw outputs change between reads here, as they never do within a run: drop what was
  // parsed from the old ones.
  raw.node["n1"][NvmlProbe().id] = {ProbeStatus::kToolMissing, "", "",
                                    "n1: no NVIDIA driver (libnvidia-ml.so.1 not found)"};
  raw.facts.Clear();
  links = ReadNvlinkStatus(raw, "n1");
  ASSERT_TRUE(links) << links.error();
  EXPECT_TRUE(links->gpus[1].links[0].active);

  // Neither: the error names nvidia-smi and NVML.
  raw.node["n1"][NvlinkStatusProbe().id] = {ProbeStatus::kToolMissing, "", "", "n1: `nvidia-smi` is not installed"};
  raw.facts.Clear();
  const auto none = ReadNvlinkStatus(raw, "n1");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rfind("n1: no NVIDIA driver was found on the node (nvidia-smi not installed)", 0), 0u)
      << none.error();
  EXPECT_NE(none.error().find("NVML: no NVIDIA driver (libnvidia-ml.so.1 not found)"), std::string::npos);

  // A present nvml.txt that does not parse is an error, never a silent fall-back.
  raw.node["n1"][NvmlProbe().id] = Ok("nvml\ngpu index=x\n");
  raw.facts.Clear();
  const auto garbled = ReadGpuInventory(raw, "n1");
  test_support::ExpectErrorContaining(garbled, "n1/nvml.txt:2: index must be a whole number");
}

TEST(NvSwitchAllLinksActive, LinkToAGpuInsteadOfAnNvswitchFailsNamingIt) {
  auto report =
      ParseNvml(TwoGpus("", "state=active remote=gpu remote_bus_id=00000000:18:00.0 speed_mbyte_per_s=26562"), "f");
  ASSERT_TRUE(report) << report.error();
  Profile one_link = H100();
  one_link.nvlink->links_per_gpu = 1;
  const auto result = CheckAllLinksActive("n1", ToNvlinkStatus(*report), one_link);
  ExpectOnlyFinding(result, "n1/gpu1/link0",
                    "n1: GPU 1 link 0 leads to another GPU directly (00000000:18:00.0), "
                    "expected an NVSwitch");
  EXPECT_EQ(result.findings[0].code, "link-not-to-nvswitch");
}

TEST(NvSwitchFabricRegistered, NotCompletedOrFailedStatusFailsNamingTheGpu) {
  const auto in_progress = test_support::Parsed(ParseNvml(TwoGpus("fabric_state=in-progress", "state=active"), "f"));
  const auto result = CheckFabricRegistered("n1", ToGpuInventory(in_progress), H100());
  ExpectOnlyFinding(result, "n1/gpu1",
                    "n1: GPU 1 (00000000:2A:00.0) fabric state is 'In Progress', expected "
                    "'Completed'");
  EXPECT_NE(result.findings[0].message.find("nvidia-fabricmanager"), std::string::npos);

  auto rejected =
      ParseNvml(TwoGpus("fabric_state=completed fabric_status=\"Insufficient Resources\"", "state=active"), "f");
  ASSERT_TRUE(rejected) << rejected.error();
  const auto status = CheckFabricRegistered("n1", ToGpuInventory(*rejected), H100());
  ASSERT_EQ(status.verdict, Verdict::kFail);
  EXPECT_EQ(status.findings[0].code, "fabric-status");
  EXPECT_NE(status.findings[0].message.find("status 'Insufficient Resources', expected 'Success'"), std::string::npos);
}

TEST(NvSwitchFabricRegistered, SkipsWhereNoGpuReportsAFabricStateAndErrorsWithoutFacts) {
  const auto a100 = test_support::Parsed(
      ParseNvml("nvml\ngpu index=0 name=A100 fabric_state=not-supported\ngpu index=1 name=A100\n", "f"));
  const auto skipped = CheckFabricRegistered("n1", ToGpuInventory(a100), H100());
  EXPECT_EQ(skipped.verdict, Verdict::kSkip);
  EXPECT_NE(skipped.findings[0].message.find("n1: no GPU reports an NVLink fabric state"), std::string::npos);
  // Without NVML or nvidia-smi the suite errs, naming both, before the check judges anything;
  // under a profile without GPUs it skips without reading.
  const ClusterRaw raw = test_support::RawOf(
      {{"n1",
        {{NvmlProbe().id, {ProbeStatus::kToolMissing, "", "", "n1: no NVIDIA driver (libnvidia-ml.so.1 not found)"}},
         {"nvidia-smi-q", {ProbeStatus::kToolMissing, "", "", "n1: `nvidia-smi` is not installed"}}}}});
  const auto errored = test_support::JudgeRegisteredOnce(kSuite, kFabricRegistered, raw, H100());
  EXPECT_EQ(errored.verdict, Verdict::kError);
  EXPECT_EQ(errored.findings[0].message.rfind("n1: no NVIDIA driver was found on the node", 0), 0u)
      << errored.findings[0].message;
  EXPECT_NE(errored.findings[0].message.find("NVML: no NVIDIA driver"), std::string::npos);
  Profile local = H100();
  local.gpu->present = false;
  EXPECT_EQ(test_support::JudgeRegisteredOnce(kSuite, kFabricRegistered, raw, local).verdict, Verdict::kSkip);
}

}  // namespace
}  // namespace gpuconform::nvswitch
