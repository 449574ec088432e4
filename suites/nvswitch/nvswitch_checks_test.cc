#include "suites/nvswitch/nvswitch_checks.h"

#include <gtest/gtest.h>

#include <set>

#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "suites/nvswitch/topo_test_support.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::nvidia_smi;
namespace {

using topo_test::BuiltinProfile;
using topo_test::DataFiles;
using topo_test::ReadFile;
using topo_test::FixtureCase;
using topo_test::H100;
using topo_test::Messages;

bool AnyMessageContains(const CheckResult& result, const std::string& needle) {
  for (const auto& finding : result.findings) {
    if (finding.message.find(needle) != std::string::npos) return true;
  }
  return false;
}

Result<TopoMatrix> RealTopo(const std::filesystem::path& dir, const std::string& name) {
  return ParseTopoMatrix(ReadFile(dir / (name + ".txt")), name);
}

Result<NvlinkStatus> RealNvlink(const std::filesystem::path& dir, const std::string& name) {
  return ParseNvlinkStatus(ReadFile(dir / (name + ".txt")), name);
}

// The same, parsed as the checks receive them.
TopoMatrix Topo(const std::filesystem::path& dir, const std::string& name) {
  return test_support::Parsed(RealTopo(dir, name));
}
NvlinkStatus Nvlink(const std::filesystem::path& dir, const std::string& name) {
  return test_support::Parsed(RealNvlink(dir, name));
}
TopoMatrix ParsedMatrix(const std::string& text) { return test_support::Parsed(ParseTopoMatrix(text, "o")); }
NvlinkStatus ParsedLinks(const std::string& text) { return test_support::Parsed(ParseNvlinkStatus(text, "o")); }

// --- nvidia-smi topo -m ------------------------------------------------------------------

TEST(NvSwitchTopoParse, ReadsEveryRealMatrix) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-topo");
  struct Expected {
    std::string file;
    std::size_t gpus, nics;
  };
  const std::vector<Expected> expected = {
      {"gcp-a3-h100-8gpu-nv18-no-nic", 8, 0},        {"llm-action-h800-nv8-4nic-truncated-cols", 8, 4},
      {"princeton-della-pli-h100-6nic", 8, 6},       {"stas00-mle-2gpu-nv2", 2, 0},
      {"stas00-mle-8x-a100-nv12", 8, 0},             {"stas00-mle-8x-h100-nv18", 8, 0},
      {"xuesongtap-2x-1080ti-phb", 2, 0},            {"xuesongtap-4x-a10-sys-no-nvlink", 4, 2},
      {"xuesongtap-8x-a100-nv12-17nic", 8, 17},
  };
  ASSERT_EQ(DataFiles(dir).size(), expected.size()) << "a new file in realdata/nvidia-smi-topo needs a row here";
  for (const auto& e : expected) {
    const auto matrix = test_support::Parsed(RealTopo(dir, e.file));
    EXPECT_EQ(matrix.gpus.size(), e.gpus) << e.file;
    EXPECT_EQ(matrix.nics.size(), e.nics) << e.file;
  }
  auto wide = RealTopo(dir, "xuesongtap-8x-a100-nv12-17nic");
  EXPECT_EQ(wide->nic_names.at("NIC16"), "mlx5_bond_0");
  EXPECT_EQ(wide->Between("GPU7", "NIC15"), "PXB");
  EXPECT_EQ(wide->Between("NIC15", "GPU7"), "PXB");
  // The header's ANSI underline must not hide GPU0; the clipped paste still reads its NIC rows.
  EXPECT_EQ(RealTopo(dir, "gcp-a3-h100-8gpu-nv18-no-nic")->Between("GPU0", "GPU7"), "NV18");
  auto clipped = RealTopo(dir, "llm-action-h800-nv8-4nic-truncated-cols");
  EXPECT_EQ(clipped->Between("GPU7", "NIC3"), "PIX");
  EXPECT_EQ(clipped->nic_names.at("NIC3"), "mlx5_3");
}

TEST(NvSwitchTopoParse, OneByOneMatrixAndPromptBeforeHeader) {
  const auto matrix = test_support::Parsed(ParseTopoMatrix(
      "user@host:~$ nvidia-smi topo -m\n\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-11\t\tN/A\n", "one"));
  EXPECT_EQ(matrix.gpus, (std::vector<std::string>{"GPU0"}));
}

TEST(NvSwitchTopoParse, GarbageAndTruncationAreErrorsNamingOriginAndLine) {
  test_support::ExpectErrorStartingWith(ParseTopoMatrix("hello\nworld\n", "snap/nodes/n1/nvidia-smi-topo-m.txt"),
                                        "snap/nodes/n1/nvidia-smi-topo-m.txt:2: ");
  test_support::ExpectErrorStartingWith(
      ParseTopoMatrix("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV18\t0-1\nGPU1\tNV1", "f"), "f:3: ");
  test_support::ExpectErrorContaining(ParseTopoMatrix("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV18\t0-1\n", "f"),
                                      "no GPU1 row");
  test_support::ExpectErrorContaining(ParseTopoMatrix("\tGPU0\tGPU1\nGPU0\tNV18\t X \nGPU1\tNV18\t X \n", "f"),
                                      "misaligned");
  EXPECT_FALSE(ParseTopoMatrix("\tGPU0\tGPU1\nGPU0\t X \tFOO\nGPU1\tFOO\t X \n", "f"));
}

TEST(NvSwitchTopoParse, SurvivesEveryTruncationOfRealFilesAndRandomBytes) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-topo");
  for (const auto& file : DataFiles(dir)) topo_test::SurvivesTruncationAndNoise(ReadFile(file), ParseTopoMatrix);
  SUCCEED() << "no crash";
}

// --- nvidia-smi nvlink -s ----------------------------------------------------------------

TEST(NvSwitchNvlinkParse, ReadsEveryRealStatus) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-nvlink");
  ASSERT_EQ(DataFiles(dir).size(), 7u) << "a new file in realdata/nvidia-smi-nvlink needs a case here";
  // Both begin with the command line that printed them (a shell prompt, the command alone).
  const auto nvl = test_support::Parsed(RealNvlink(dir, "nvidia-smi-nvlink-s-h100-nvl-gpu0-bridged-12-of-18-active"));
  ASSERT_EQ(nvl.gpus.size(), 1u);
  EXPECT_EQ(nvl.gpus[0].name, "NVIDIA H100 NVL");
  ASSERT_EQ(nvl.gpus[0].links.size(), 18u);
  EXPECT_FALSE(nvl.gpus[0].links[4].active);
  EXPECT_TRUE(nvl.gpus[0].links[6].active);
  const auto p4de = test_support::Parsed(RealNvlink(dir, "nvidia-smi-nvlink-s-a100-sxm4-80gb-p4de-gpu0-healthy"));
  ASSERT_EQ(p4de.gpus.size(), 1u);
  EXPECT_EQ(p4de.gpus[0].links.size(), 12u);
  const auto a100 = test_support::Parsed(RealNvlink(dir, "gpud-a100-8gpu-nvlink-status"));
  ASSERT_EQ(a100.gpus.size(), 8u);
  EXPECT_EQ(a100.gpus[7].links.size(), 12u);
  EXPECT_EQ(a100.gpus[7].links[11].speed_gb_per_s, 25);
  const auto h100 = test_support::Parsed(RealNvlink(dir, "gcp-a3-h100-gpu0-18-links"));
  EXPECT_EQ(h100.gpus[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(h100.gpus[0].links[17].speed_gb_per_s, 26.562);
  const auto inactive = test_support::Parsed(RealNvlink(dir, "azure-nhc-a100-all-links-inactive"));
  EXPECT_EQ(inactive.gpus[0].index, 6);
  EXPECT_TRUE(inactive.gpus[0].links.empty());
  EXPECT_NE(inactive.gpus[0].all_inactive_message.find("all links are inactive"), std::string::npos);
  const auto elided = test_support::Parsed(RealNvlink(dir, "llm-action-h800-8-links-elided"));
  EXPECT_EQ(elided.gpus.size(), 3u);
  EXPECT_EQ(elided.gpus[2].index, 7);
  EXPECT_EQ(elided.elided_at_line, 21);
  ASSERT_TRUE(RealNvlink(dir, "azure-nhc-a100-good-nvlink-status"));
}

TEST(NvSwitchNvlinkParse, InactiveLinksAndErrorsNamingOriginAndLine) {
  const auto status = test_support::Parsed(
      ParseNvlinkStatus("GPU 0: NVIDIA H100 (UUID: GPU-1)\n\t Link 0: 26.562 GB/s\n\t Link 1: <inactive>\n", "o"));
  EXPECT_TRUE(status.gpus[0].links[0].active);
  EXPECT_FALSE(status.gpus[0].links[1].active);
  test_support::ExpectErrorStartingWith(
      ParseNvlinkStatus("GPU 0: NVIDIA H100 (UUID: GPU-1)\n\t Link 0: fast\n", "n1/nvidia-smi-nvlink-s.txt"),
      "n1/nvidia-smi-nvlink-s.txt:2: ");
  EXPECT_FALSE(ParseNvlinkStatus("", "o"));
  EXPECT_FALSE(ParseNvlinkStatus("GPU 0: X\nsomething else\n", "o"));
}

TEST(NvSwitchNvlinkParse, SurvivesEveryTruncationOfRealFilesAndRandomBytes) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-nvlink");
  for (const auto& file : DataFiles(dir)) topo_test::SurvivesTruncationAndNoise(ReadFile(file), ParseNvlinkStatus);
  SUCCEED() << "no crash";
}

// --- verdicts on realdata, with the profile each .source.txt names ------------------------

TEST(NvSwitchRealdata, AllPairsVerdictsAgreeWithSources) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-topo");
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const Profile a100 = BuiltinProfile("a100-sxm-8");
  struct Case {
    std::string file;
    const Profile* profile;
    Verdict verdict;
    std::string needle;  // in a failure message
  };
  const std::vector<Case> cases = {
      {"gcp-a3-h100-8gpu-nv18-no-nic", &h100, Verdict::kPass, ""},
      {"llm-action-h800-nv8-4nic-truncated-cols", &h100, Verdict::kFail, "28 of 28 GPU pairs connected by NV8"},
      {"princeton-della-pli-h100-6nic", &h100, Verdict::kPass, ""},
      {"stas00-mle-2gpu-nv2", &h100, Verdict::kFail, "1 of 1 GPU pairs connected by NV2 (2 NVLinks), expected NV18"},
      {"stas00-mle-8x-a100-nv12", &a100, Verdict::kPass, ""},
      {"stas00-mle-8x-h100-nv18", &h100, Verdict::kPass, ""},
      {"xuesongtap-2x-1080ti-phb", &h100, Verdict::kFail, "connected over PHB"},
      {"xuesongtap-4x-a10-sys-no-nvlink", &h100, Verdict::kFail, "6 of 6 GPU pairs connected over SYS"},
      {"xuesongtap-8x-a100-nv12-17nic", &a100, Verdict::kPass, ""},
  };
  for (const auto& c : cases) {
    const auto result = CheckAllPairsNvlinkConnected("node1", Topo(dir, c.file), *c.profile);
    EXPECT_EQ(result.verdict, c.verdict) << c.file << "\n" << Messages(result);
    if (!c.needle.empty()) {
      EXPECT_TRUE(AnyMessageContains(result, c.needle)) << c.file << "\n" << Messages(result);
    }
  }
  // The two-GPU bridge passes where a profile asks for exactly that (the .source.txt's "pass").
  Profile bridge = h100;
  bridge.nvlink->links_per_gpu = 2;
  EXPECT_EQ(CheckAllPairsNvlinkConnected("node1", Topo(dir, "stas00-mle-2gpu-nv2"), bridge).verdict, Verdict::kPass);
}

TEST(NvSwitchRealdata, AllLinksVerdictsAgreeWithSources) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nvidia-smi-nvlink");
  const Profile h100 = BuiltinProfile("h100-sxm-8");
  const Profile a100 = BuiltinProfile("a100-sxm-8");
  EXPECT_EQ(CheckAllLinksActive("n", Nvlink(dir, "azure-nhc-a100-good-nvlink-status"), a100).verdict, Verdict::kPass);
  EXPECT_EQ(CheckAllLinksActive("n", Nvlink(dir, "gcp-a3-h100-gpu0-18-links"), h100).verdict, Verdict::kPass);
  EXPECT_EQ(CheckAllLinksActive("n", Nvlink(dir, "gpud-a100-8gpu-nvlink-status"), a100).verdict, Verdict::kPass);
  EXPECT_EQ(CheckAllLinksActive("n", Nvlink(dir, "nvidia-smi-nvlink-s-a100-sxm4-80gb-p4de-gpu0-healthy"), a100).verdict,
            Verdict::kPass);

  // H100 NVL, a pair bridged with three NVLink bridges: 12 of its 18 ports in use, the rest
  // inactive by design. A profile for that topology (12 links) passes it (the .source.txt's
  // verdict); the same output under an SXM profile (18 through NVSwitch) names the 6 inactive.
  const std::string nvl = "nvidia-smi-nvlink-s-h100-nvl-gpu0-bridged-12-of-18-active";
  Profile bridged = h100;
  bridged.nvlink->links_per_gpu = 12;
  const auto nvl_bridged = CheckAllLinksActive("n", Nvlink(dir, nvl), bridged);
  EXPECT_EQ(nvl_bridged.verdict, Verdict::kPass) << Messages(nvl_bridged);
  const auto nvl_sxm = CheckAllLinksActive("n", Nvlink(dir, nvl), h100);
  ASSERT_EQ(nvl_sxm.verdict, Verdict::kFail);
  EXPECT_EQ(nvl_sxm.findings.size(), 6u) << Messages(nvl_sxm);
  EXPECT_TRUE(AnyMessageContains(nvl_sxm, "n: GPU 0 link 4 is inactive")) << Messages(nvl_sxm);
  // Under a 16-link profile the spare ports do not cover the shortfall: the inactive ones are named.
  Profile sixteen = h100;
  sixteen.nvlink->links_per_gpu = 16;
  EXPECT_EQ(CheckAllLinksActive("n", Nvlink(dir, nvl), sixteen).verdict, Verdict::kFail);
  // And under an 8-link profile, 12 active is more than the profile says: the profile is wrong.
  Profile eight = h100;
  eight.nvlink->links_per_gpu = 8;
  const auto nvl_eight = CheckAllLinksActive("n", Nvlink(dir, nvl), eight);
  ASSERT_EQ(nvl_eight.verdict, Verdict::kFail);
  EXPECT_TRUE(AnyMessageContains(nvl_eight, "has 12 NVLinks, expected 8")) << Messages(nvl_eight);

  const auto inactive = CheckAllLinksActive("n", Nvlink(dir, "azure-nhc-a100-all-links-inactive"), a100);
  ASSERT_EQ(inactive.verdict, Verdict::kFail);
  EXPECT_EQ(inactive.findings[0].entity, "n/gpu6");
  EXPECT_TRUE(AnyMessageContains(inactive, "n: GPU 6 (NVIDIA A100-SXM4-80GB) has no active NVLink")) << Messages(inactive);

  // H800: the links it has are all up (no link-inactive finding), but 8 < 18 per GPU.
  const auto h800 = CheckAllLinksActive("n", Nvlink(dir, "llm-action-h800-8-links-elided"), h100);
  ASSERT_EQ(h800.verdict, Verdict::kFail);
  ASSERT_EQ(h800.findings.size(), 3u);
  for (const auto& finding : h800.findings) EXPECT_EQ(finding.code, "nvlink-count") << finding.message;
  EXPECT_TRUE(AnyMessageContains(h800, "n: GPU 7 (NVIDIA H800) has 8 NVLinks, expected 18")) << Messages(h800);
}

// --- each check fails, errors and skips where it should ----------------------------------

nvidia_smi::GpuInventory Inventory(int count, const std::string& model = "NVIDIA H100 80GB HBM3") {
  nvidia_smi::GpuInventory inventory;
  for (int i = 0; i < count; ++i) {
    nvidia_smi::GpuRecord gpu;
    gpu.index = i;
    gpu.bus_id = "00000000:" + std::to_string(10 + i) + ":00.0";
    gpu.product_name = model;
    inventory.gpus.push_back(gpu);
  }
  return inventory;
}

std::string Matrix(int gpus, const std::string& cell) {
  std::string text = "\t";
  for (int i = 0; i < gpus; ++i) text += "GPU" + std::to_string(i) + "\t";
  text += "CPU Affinity\n";
  for (int i = 0; i < gpus; ++i) {
    text += "GPU" + std::to_string(i);
    for (int j = 0; j < gpus; ++j) text += i == j ? "\t X " : "\t" + cell;
    text += "\t0-1\n";
  }
  return text;
}

std::string Links(int gpus, int links, const std::string& value = "26.562 GB/s") {
  std::string text;
  for (int g = 0; g < gpus; ++g) {
    text += "GPU " + std::to_string(g) + ": NVIDIA H100 80GB HBM3 (UUID: GPU-" + std::to_string(g) + ")\n";
    for (int l = 0; l < links; ++l) text += "\t Link " + std::to_string(l) + ": " + value + "\n";
  }
  return text;
}

TEST(NvSwitchGpuCountAndModel, ConformingNodePassesAndMeasuresTheCount) {
  const auto result = CheckGpuCountAndModel("n1", Inventory(8), H100());
  EXPECT_EQ(result.verdict, Verdict::kPass);
  ASSERT_EQ(result.measurements.size(), 1u);
  EXPECT_EQ(result.measurements[0].value, "8");
}

TEST(NvSwitchGpuCountAndModel, MissingGpuAndWrongModelFailNamingTheNode) {
  const auto missing = CheckGpuCountAndModel("n1", Inventory(7), H100());
  ASSERT_EQ(missing.verdict, Verdict::kFail);
  EXPECT_EQ(missing.findings[0].message.rfind("n1: 7 GPUs visible to the driver, expected 8", 0), 0u)
      << missing.findings[0].message;
  const auto model = CheckGpuCountAndModel("n1", Inventory(8, "NVIDIA A100-SXM4-80GB"), H100());
  ASSERT_EQ(model.verdict, Verdict::kFail);
  EXPECT_EQ(model.findings.size(), 8u);
  EXPECT_EQ(model.findings[3].entity, "n1/gpu3");
  EXPECT_NE(model.findings[3].message.find("GPU 3 (00000000:13:00.0) is 'NVIDIA A100-SXM4-80GB'"), std::string::npos);
}

// Contradictions fail: another source that counts fewer GPUs than the profile fails the
// check and names itself, even where the inventory (nvidia-smi -q -x, NVML) is missing.
TEST(NvSwitchGpuCountAndModel, AnotherSourceWithFewerGpusFailsEvenWithoutTheInventory) {
  const std::string missing = "n1: the snapshot has no nvidia-smi-q.xml";
  const auto result = CheckGpuCountWithoutInventory("n1", missing, H100(), {{"nvidia-smi topo -m", 1}});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code, "gpu-count");
  EXPECT_EQ(result.findings[0].message.rfind("n1: 1 GPUs in nvidia-smi topo -m, expected 8 (profile", 0), 0u)
      << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("the snapshot has no nvidia-smi-q.xml"), std::string::npos);
  // Sources that agree change nothing: the missing inventory is still an error.
  const auto error = CheckGpuCountWithoutInventory("n1", missing, H100(), {{"nvidia-smi topo -m", 8}});
  EXPECT_EQ(error.verdict, Verdict::kError);
  EXPECT_EQ(error.findings[0].code, "unavailable");
  EXPECT_EQ(error.findings[0].message, missing);
}

TEST(NvSwitchGpuCountAndModel, AnInventoryOfEightFailsWhenCudaSeesSeven) {
  const auto result = CheckGpuCountAndModel("n1", Inventory(8), H100(), {{"the CUDA runtime (cuda-p2p.txt)", 7}});
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(result.findings[0].message.find("7 GPUs in the CUDA runtime (cuda-p2p.txt), expected 8"),
            std::string::npos)
      << result.findings[0].message;
}

TEST(NvSwitchAllPairsNvlinkConnected, AOneGpuMatrixUnderAnEightGpuProfileFailsInsteadOfSkipping) {
  const auto matrix = ParseTopoMatrix("\tGPU0\tCPU Affinity\nGPU0\t X \t0-55\n", "n1/nvidia-smi-topo-m.txt");
  ASSERT_TRUE(matrix.ok()) << matrix.error();
  const auto result = CheckAllPairsNvlinkConnected("n1", *matrix, H100());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "gpu-count");
  EXPECT_NE(result.findings[0].message.find("1 GPUs in nvidia-smi topo -m, expected 8"), std::string::npos);
}

// A profile without GPUs makes every check inapplicable, and without an nvlink section every
// check of the links: the suite skips them before reading anything, saying why.
TEST(NvSwitchGpuChecks, NoGpuProfileSkipsAndSaysWhy) {
  Profile local = H100();
  local.name = "local";
  local.gpu->present = false;
  const ClusterRaw nothing = test_support::RawOf({{"n1", {}}});
  for (const char* check : {kGpuCountAndModel, kAllPairsNvlinkConnected, kAllLinksActive}) {
    const CheckResult result = test_support::JudgeRegisteredOnce(kSuite, check, nothing, local);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check;
    EXPECT_NE(result.findings[0].message.find("has no GPUs (gpu.present: false)"), std::string::npos);
  }
  Profile no_nvlink = H100();
  no_nvlink.nvlink.reset();
  EXPECT_FALSE(GpuCountSkipReason(no_nvlink));
  const auto reason = LinkChecksSkipReason(no_nvlink);
  ASSERT_TRUE(reason);
  EXPECT_EQ(*reason, "profile h100-sxm-8 has no nvlink section, so it does not say how GPUs are linked");
}

TEST(NvSwitchGpuChecks, MissingDriverIsAnErrorSayingSo) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1",
        {{"nvidia-smi-q", {ProbeStatus::kToolMissing, "", "", "n1: `nvidia-smi` is not installed (not found on PATH)"}}}}});
  const auto result = test_support::JudgeRegisteredOnce(kSuite, kGpuCountAndModel, raw, H100());
  EXPECT_EQ(result.TestName(), "NvSwitch.GpuCountAndModel/n1");
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "unavailable");
  EXPECT_EQ(result.findings[0].message.rfind("n1: no NVIDIA driver was found on the node (nvidia-smi not installed)", 0), 0u)
      << result.findings[0].message;
}

TEST(NvSwitchGpuChecks, AbsentSnapshotFileIsAnErrorNamingIt) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"nvidia-smi-topo-m", {ProbeStatus::kAbsent, "", "", "snap/nodes/n1/nvidia-smi-topo-m.txt does not exist"}}}}});
  const auto result = test_support::JudgeRegisteredOnce(kSuite, kAllPairsNvlinkConnected, raw, H100());
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_NE(result.findings[0].message.find("nvidia-smi-topo-m.txt"), std::string::npos);
}

// The inventory missing while another source counts fewer GPUs than the profile: the suite
// judges the count from that source, a failure rather than an error.
TEST(NvSwitchGpuChecks, TheSuiteJudgesTheCountFromAnotherSourceWhenTheInventoryIsMissing) {
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"nvidia-smi-topo-m", test_support::OkOutput(Matrix(7, "NV18"), "n1/nvidia-smi-topo-m.txt")}}}});
  const auto result = test_support::JudgeRegisteredOnce(kSuite, kGpuCountAndModel, raw, H100());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].entity, "n1");
  EXPECT_EQ(result.findings[0].message.rfind("n1: 7 GPUs in nvidia-smi topo -m, expected 8 (profile", 0), 0u)
      << result.findings[0].message;
  EXPECT_NE(result.findings[0].message.find("(the GPU inventory itself: n1: "), std::string::npos);
}

TEST(NvSwitchAllPairsNvlinkConnected, FewerLinksOrPciePathsFailNamingThePairs) {
  EXPECT_EQ(CheckAllPairsNvlinkConnected("n1", ParsedMatrix(Matrix(8, "NV18")), H100()).verdict, Verdict::kPass);
  const auto sys = CheckAllPairsNvlinkConnected("n1", ParsedMatrix(Matrix(4, "SYS")), H100());
  ASSERT_EQ(sys.verdict, Verdict::kFail);
  EXPECT_EQ(sys.findings[0].code, "pcie-path");
  EXPECT_NE(sys.findings[0].message.find("expected NV18 through NVSwitch"), std::string::npos);

  std::string one_bad = Matrix(8, "NV18");
  // GPU3's row and column carry NV17: one GPU lost a link, and every pair with it shows it.
  auto matrix = ParseTopoMatrix(one_bad, "o");
  ASSERT_TRUE(matrix);
  for (auto& [row, cells] : matrix.value().rows) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if ((row == "GPU3") != (matrix->columns[c] == "GPU3") && cells[c] != "X") cells[c] = "NV17";
    }
  }
  const auto one = CheckAllPairsNvlinkConnected("n1", *matrix, H100());
  ASSERT_EQ(one.verdict, Verdict::kFail);
  ASSERT_EQ(one.findings.size(), 1u);
  EXPECT_NE(one.findings[0].message.find("n1: 7 of 28 GPU pairs (all involve GPU3) connected by NV17"), std::string::npos)
      << one.findings[0].message;
}

TEST(NvSwitchAllPairsNvlinkConnected, OneGpuNodeOfAOneGpuProfileSkipsSayingAllToAllDoesNotApply) {
  Profile one_gpu = H100();
  one_gpu.gpu->count_per_node = 1;
  const auto result = CheckAllPairsNvlinkConnected("n1", ParsedMatrix(Matrix(1, "NV18")), one_gpu);
  EXPECT_EQ(result.verdict, Verdict::kSkip);
  EXPECT_NE(result.findings[0].message.find("all-to-all NVLink does not apply"), std::string::npos);
  Profile no_nvlink = H100();
  no_nvlink.nvlink.reset();
  const ClusterRaw raw = test_support::RawOf(
      {{"n1", {{"nvidia-smi-topo-m", test_support::OkOutput(Matrix(8, "NV18"), "n1/nvidia-smi-topo-m.txt")}}}});
  EXPECT_EQ(test_support::JudgeRegisteredOnce(kSuite, kAllPairsNvlinkConnected, raw, no_nvlink).verdict,
            Verdict::kSkip);
  EXPECT_EQ(test_support::JudgeRegisteredOnce(kSuite, kAllPairsNvlinkConnected, raw, H100()).verdict, Verdict::kPass);
}

TEST(NvSwitchAllLinksActive, InactiveSlowAndMissingLinksFailNamingGpuAndLink) {
  EXPECT_EQ(CheckAllLinksActive("n1", ParsedLinks(Links(8, 18)), H100()).verdict, Verdict::kPass);
  std::string text = Links(2, 18);
  text.replace(text.find("Link 11: 26.562 GB/s", text.find("GPU 1")), 20, "Link 11: <inactive>");
  const auto inactive = CheckAllLinksActive("n1", ParsedLinks(text), H100());
  ASSERT_EQ(inactive.verdict, Verdict::kFail);
  ASSERT_EQ(inactive.findings.size(), 1u);
  EXPECT_EQ(inactive.findings[0].entity, "n1/gpu1/link11");
  EXPECT_EQ(inactive.findings[0].message.rfind("n1: GPU 1 link 11 is inactive", 0), 0u);

  const auto slow = CheckAllLinksActive("n1", ParsedLinks(Links(1, 18, "13.281 GB/s")), H100());
  ASSERT_EQ(slow.verdict, Verdict::kFail);
  EXPECT_EQ(slow.findings[0].code, "link-slow");
  EXPECT_NE(slow.findings[0].message.find("runs at 13.281 GB/s, expected >= 25 GB/s"), std::string::npos);

  const auto few = CheckAllLinksActive("n1", ParsedLinks(Links(1, 12)), H100());
  ASSERT_EQ(few.verdict, Verdict::kFail);
  EXPECT_EQ(few.findings[0].code, "nvlink-count");
}

TEST(NvSwitchAllLinksActive, ElidedOutputThatLooksCleanIsAnError) {
  std::string text = Links(2, 18);
  text.insert(text.find("GPU 1"), "...\n");
  const auto result = CheckAllLinksActive("n1", ParsedLinks(text), H100());
  EXPECT_EQ(result.verdict, Verdict::kError);
  EXPECT_NE(result.findings[0].message.find("leaves GPUs out"), std::string::npos);
}

// --- fixture snapshots: the healthy node conforms, each broken one fails its check --------

class TopoFixtures : public testing::TestWithParam<FixtureCase> {};

// The checks of the nvidia-smi and ibstat outputs (and the AER counters, aer.txt) these snapshots
// hold; they predate the in-process probes (NVML, CUDA, libibverbs, NIC sysfs), whose checks the
// gpu-* fixtures cover.
const std::set<std::string> kTopoFixtureChecks = {
    "NvSwitch.GpuCountAndModel",    "NvSwitch.AllPairsNvlinkConnected", "NvSwitch.AllLinksActive",
    "Pcie.LinksAtMaxGenAndWidth",   "Pcie.AerErrorsWithinLimits",       "InfiniBand.RailNicsPresent",
    "InfiniBand.PortsActiveAtRate", "InfiniBand.GpuHasLocalRailNic", "NvSwitch.NvlinkErrorCountersWithinLimits"};

TEST_P(TopoFixtures, FailExactlyTheirCheckNamingTheFault) {
  const FixtureCase& c = GetParam();
  const auto results = topo_test::EvaluateTopologySuites(topo_test::FixtureDir(c.snapshot), BuiltinProfile("h100-sxm-8"));
  for (const auto& name : kTopoFixtureChecks) EXPECT_EQ(results.count(name), 1u) << name;
  topo_test::ExpectFailsExactlyItsCheck(c, results, kTopoFixtureChecks);
}

INSTANTIATE_TEST_SUITE_P(
    Topo, TopoFixtures,
    testing::Values(
        FixtureCase{"topo-h100-healthy", "", "", ""},
        FixtureCase{"topo-h100-nvlink-down", "NvSwitch.AllLinksActive", "hgx-node-01/gpu3/link11",
                    "GPU 3 link 11 is inactive"},
        FixtureCase{"topo-h100-nv8", "NvSwitch.AllPairsNvlinkConnected", "hgx-node-01",
                    "28 of 28 GPU pairs connected by NV8 (8 NVLinks), expected NV18"},
        FixtureCase{"topo-h100-gpu-missing", "NvSwitch.GpuCountAndModel", "hgx-node-01",
                    "7 GPUs visible to the driver, expected 8"},
        FixtureCase{"topo-h100-pcie-downtrained", "Pcie.LinksAtMaxGenAndWidth", "hgx-node-01/gpu5",
                    "GPU 5 (00000000:AB:00.0) PCIe link is x8, expected x16"},
        FixtureCase{"topo-h100-ib-port-down", "InfiniBand.PortsActiveAtRate", "hgx-node-01/mlx5_5/port1",
                    "mlx5_5 port 1 is State Down, Physical state Disabled"},
        FixtureCase{"topo-h100-ib-port-polling", "InfiniBand.PortsActiveAtRate", "hgx-node-01/mlx5_2/port1",
                    "mlx5_2 port 1 is State Down, Physical state Polling"},
        FixtureCase{"topo-h100-pcie-aer-errors", "Pcie.AerErrorsWithinLimits", "hgx-node-01/0000:5d:00.0",
                    "GPU 3 (0000:5d:00.0): non-fatal 2 (CmpltTO 2) > 0"},
        FixtureCase{"topo-h100-nvlink-errors", "NvSwitch.NvlinkErrorCountersWithinLimits", "hgx-node-01/gpu5/link7",
                    "NVLink 7: recovery_errors 3 > 0: the link retrained"}),
    [](const testing::TestParamInfo<FixtureCase>& info) { return topo_test::FixtureCaseName(info.param, "topo-"); });

TEST(TopoFixturesLocalProfile, GpuAndInfinibandChecksSkipWithReasons) {
  const auto results =
      topo_test::EvaluateTopologySuites(topo_test::FixtureDir("topo-h100-healthy"), BuiltinProfile("local"));
  ASSERT_GE(results.size(), kTopoFixtureChecks.size() + 4);
  topo_test::ExpectEveryCheckSkipsSayingProfileHasNo(results);
}

}  // namespace
}  // namespace gpuconform::nvswitch
