// facts/gpu_facts.h: which source gives a node's GPUs for each purpose (the policy in its
// header), each read parsed once per run.
#include "facts/gpu_facts.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace gpuconform::facts {
namespace {

const std::string kXml =
    "<?xml version=\"1.0\" ?>\n<nvidia_smi_log><driver_version>550.54.15</driver_version>"
    "<cuda_version>12.4</cuda_version><attached_gpus>1</attached_gpus>"
    "<gpu id=\"00000000:18:00.0\"><product_name>NVIDIA H100 80GB HBM3</product_name>"
    "<persistence_mode>Enabled</persistence_mode></gpu></nvidia_smi_log>\n";

RawOutput Ok(const std::string& text, const std::string& origin) { return {ProbeStatus::kOk, text, origin, ""}; }

ClusterRaw OneNode(std::map<std::string, RawOutput> outputs) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  raw.node["n1"] = std::move(outputs);
  return raw;
}

// The health reader reads nvidia-smi -q -x, and parses it once: outputs changed after the first
// read (as they never are within a run) are not read again.
TEST(GpuFacts, HealthComesFromNvidiaSmiQueryParsedOnce) {
  ClusterRaw raw = OneNode({{NvidiaSmiQueryXml().id, Ok(kXml, "n1/nvidia-smi-q.xml")}});
  const auto first = ReadGpuHealth(raw, "n1");
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->gpus.size(), 1u);
  EXPECT_EQ(first->gpus[0].persistence_mode, "Enabled");
  raw.node["n1"][NvidiaSmiQueryXml().id].text = "garbage";
  const auto again = ReadGpuHealth(raw, "n1");
  ASSERT_TRUE(again) << "parsed a second time: " << again.error();
  EXPECT_EQ(again->gpus.size(), 1u);
}

// Without -x, the text form a snapshot holds instead; without either, the GPUs a failing
// nvidia-smi names as ones it cannot open; otherwise -x's error naming the file.
TEST(GpuFacts, HealthFallsBackToTheTextFormThenToTheGpusNvidiaSmiCannotOpen) {
  const ClusterRaw text = OneNode(
      {{NvidiaSmiQueryText().id,
        Ok("==============NVSMI LOG==============\n"
           "Driver Version                            : 550.54.15\n"
           "Attached GPUs                             : 1\nGPU 00000000:18:00.0\n"
           "    Product Name                          : NVIDIA H100 80GB HBM3\n",
           "n1/nvidia-smi-q.txt")}});
  const auto from_text = ReadGpuHealth(text, "n1");
  ASSERT_TRUE(from_text) << from_text.error();
  EXPECT_EQ(from_text->driver_version, "550.54.15");
  EXPECT_FALSE(ReadNvidiaSmiQuery(text, "n1")) << "the driver's own report is -x alone";

  const ClusterRaw lost = OneNode(
      {{NvidiaSmiQueryXml().id,
        {ProbeStatus::kFailed, "Unable to determine the device handle for GPU0000:A1:00.0: Unknown Error\n",
         "n1/nvidia-smi-q.xml", "n1: `nvidia-smi -q -x` exited with status 15"}}});
  const auto inaccessible = ReadGpuHealth(lost, "n1");
  ASSERT_TRUE(inaccessible) << inaccessible.error();
  EXPECT_TRUE(inaccessible->gpus.empty());
  EXPECT_EQ(inaccessible->inaccessible_bus_ids, (std::vector<std::string>{"00000000:A1:00.0"}));

  const auto none = ReadGpuHealth(OneNode({{NvidiaSmiQueryXml().id, {ProbeStatus::kAbsent, "", "", ""}}}), "n1");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("nvidia-smi-q.xml"), std::string::npos) << none.error();
}

// The driver's versions come from -x alone, as readings: a version, nvidia-smi not installed
// (a fact), or why there is none.
TEST(GpuFacts, DriverAndCudaVersionsAreReadFromNvidiaSmiQuery) {
  const ClusterRaw raw = OneNode({{NvidiaSmiQueryXml().id, Ok(kXml, "n1/nvidia-smi-q.xml")}});
  EXPECT_EQ(ReadDriverVersion(raw, "n1").version, "550.54.15");
  EXPECT_EQ(ReadCudaVersion(raw, "n1").version, "12.4");

  std::string without_cuda = kXml;
  without_cuda.erase(without_cuda.find("<cuda_version>"), std::string("<cuda_version>12.4</cuda_version>").size());
  const auto no_cuda = ReadCudaVersion(OneNode({{NvidiaSmiQueryXml().id, Ok(without_cuda, "n1/nvidia-smi-q.xml")}}), "n1");
  EXPECT_FALSE(no_cuda.version);
  EXPECT_EQ(no_cuda.problem, "n1/nvidia-smi-q.xml:1: <nvidia_smi_log> has no <cuda_version>");
  EXPECT_EQ(no_cuda.reason, "unparseable");

  const auto missing = ReadDriverVersion(
      OneNode({{NvidiaSmiQueryXml().id, {ProbeStatus::kToolMissing, "", "", "n1: `nvidia-smi` is not installed"}}}),
      "n1");
  EXPECT_TRUE(missing.not_installed);
  EXPECT_EQ(missing.reason, "tool-missing");
  EXPECT_NE(missing.problem.find("nvidia-smi"), std::string::npos) << missing.problem;
}

}  // namespace
}  // namespace gpuconform::facts
