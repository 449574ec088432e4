// AllreduceBandwidth's NCCL checks, judged from a snapshot's cluster/nccl-allreduce.txt (the
// table gpuconform's own NCCL run writes): the profile's floor passes and fails, a missing run
// is an error under a GPU profile and a skip under one without GPUs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/core/gpu_applicability.h"
#include "probes/allreduce_sweep/sweep.h"
#include "tests/support/test_support.h"

namespace gpuconform::allreduce {

using namespace gpuconform::allreduce_sweep;
namespace {

using test_support::TempDir;

// A one-node snapshot whose NCCL run took `time_us` at 16 GiB over 8 GPUs.
void WriteRun(const std::string& dir, double time_us, long long wrong = 0) {
  std::filesystem::create_directories(dir + "/cluster");
  std::filesystem::create_directories(dir + "/nodes/gpu-node-01");
  std::vector<SweepRank> ranks;
  for (int g = 0; g < 8; ++g) ranks.push_back({"gpu-node-01", g, "[0000:18:00.0]"});
  std::ofstream(dir + "/cluster/nccl-allreduce.txt")
      << SweepTableHeader("gpuconform NCCL allreduce (float, sum) on GPU buffers, NCCL 2.21.5, CUDA 12.4", ranks, 1)
      << SweepTableRow(8 * kGiB, time_us / 2, 8, 0) << SweepTableRow(16 * kGiB, time_us, 8, wrong);
}

std::map<std::string, CheckResult> Judge(const std::string& dir, const std::string& profile) {
  return test_support::EvaluateSuitesOnSnapshot(dir, test_support::BuiltinProfile(profile), {"AllreduceBandwidth"});
}

TEST(AllreduceNcclBackend, BusbwAboveTheFloorPassesAndBelowItFailsNamingSizeAndFloor) {
  TempDir healthy;
  WriteRun(healthy.path(), 62634);  // 274 GB/s algbw = 480 GB/s busbw on 8 ranks; floor 460
  auto results = Judge(healthy.path(), "h100-sxm-8");
  EXPECT_EQ(results.at("AllreduceBandwidth.NcclBusbwAtFloors").verdict, Verdict::kPass)
      << test_support::Describe({results.at("AllreduceBandwidth.NcclBusbwAtFloors")});
  EXPECT_EQ(results.at("AllreduceBandwidth.NcclResultsCorrect").verdict, Verdict::kPass);

  TempDir slow;
  WriteRun(slow.path(), 150000, 3);  // 200 GB/s busbw, and wrong elements
  results = Judge(slow.path(), "h100-sxm-8");
  const CheckResult& floors = results.at("AllreduceBandwidth.NcclBusbwAtFloors");
  ASSERT_EQ(floors.verdict, Verdict::kFail);
  EXPECT_NE(floors.findings[0].message.find("16 GiB"), std::string::npos) << floors.findings[0].message;
  EXPECT_NE(floors.findings[0].message.find("460"), std::string::npos) << floors.findings[0].message;
  EXPECT_EQ(results.at("AllreduceBandwidth.NcclResultsCorrect").verdict, Verdict::kFail);
}

TEST(AllreduceNcclBackend, NoRunIsAnErrorUnderAGpuProfileAndASkipWithoutGpus) {
  TempDir empty;
  std::filesystem::create_directories(empty.path() + "/cluster");
  auto results = Judge(empty.path(), "h100-sxm-8");
  for (const char* check : {"NcclBusbwAtFloors", "NcclResultsCorrect", "NcclEfficiencyAgainstFabric"}) {
    EXPECT_EQ(results.at(std::string("AllreduceBandwidth.") + check).verdict, Verdict::kError) << check;
  }
  results = Judge(empty.path(), "local");
  for (const char* check : {"NcclBusbwAtFloors", "NcclResultsCorrect", "NcclEfficiencyAgainstFabric"}) {
    const CheckResult& result = results.at(std::string("AllreduceBandwidth.") + check);
    EXPECT_EQ(result.verdict, Verdict::kSkip) << check;
    ASSERT_FALSE(result.findings.empty());
    EXPECT_NE(result.findings[0].message.find("expects no GPUs"), std::string::npos) << result.findings[0].message;
  }
}

}  // namespace
}  // namespace gpuconform::allreduce
