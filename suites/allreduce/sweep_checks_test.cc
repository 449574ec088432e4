// The allreduce sweep's shared rules (sweep.h): what each rank contributes and the sum every
// element must then hold, and the timed-iteration override from the environment.
#include "probes/allreduce_sweep/sweep.h"

#include <gtest/gtest.h>

#include "harness/core/run_options.h"

namespace gpuconform::allreduce {

using namespace gpuconform::allreduce_sweep;
namespace {

TEST(AllreduceContributions, ExpectedSumIsExactForLargeFleetsAndNoticesAMissingRank) {
  EXPECT_EQ(ExpectedAllreduceSum(16), 72.0f);  // two nodes of 8: 2 x (1+...+8)
  // 1024 nodes of 8 GPUs: rank+1 would sum to 33,558,528, past float's exact integers.
  const int fleet = 8192;
  float sum = 0;
  for (int rank = 0; rank < fleet; ++rank) sum += RankContribution(rank);  // in float, as a reduction adds
  EXPECT_EQ(sum, ExpectedAllreduceSum(fleet));
  EXPECT_EQ(ExpectedAllreduceSum(fleet), 36864.0f);
  EXPECT_NE(sum - RankContribution(fleet - 1), ExpectedAllreduceSum(fleet)) << "a missing rank changes the sum";
}

TEST(AllreduceIterations, EnvironmentOverridesThePlanAndGarbageIsIgnored) {
  const auto iters = [](const char* text) {
    return BuildRunOptions({}, {{"GPUCONFORM_ALLREDUCE_ITERS", text}}).allreduce_iters;
  };
  EXPECT_EQ(TimedIterations(20, iters("7")), 7);
  EXPECT_EQ(TimedIterations(20, iters("lots")), 20);
  EXPECT_EQ(TimedIterations(5, iters("0")), 5);
}

}  // namespace
}  // namespace gpuconform::allreduce
