// Which pair errors say the pair was not measured (tooling) and which may be the rail's.
#include "probes/perftest/pair_error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuconform::perftest {
namespace {

TEST(PairError, HandshakeGpuSetupDeadlineAndMissingToolAreNotTheRail) {
  for (const std::string& error : std::vector<std::string>{
           "Couldn't connect to gpu-node-02:18515", "Unable to open file descriptor for socket connection",
           "Failed to exchange data between server and clients", "Couldn't read remote address",
           "cuInit(0) returned 100", "Couldn't init GPU context", ToolKilledAtDeadline("ib_write_bw", 20),
           ToolNotInstalled("ib_write_bw", "gpu-node-03")}) {
    EXPECT_TRUE(FailedBeforeMeasuring(error)) << error;
  }
  EXPECT_EQ(ToolKilledAtDeadline("ib_write_bw", 20), "ib_write_bw did not finish within 20 s and was killed");
  EXPECT_EQ(ToolNotInstalled("ib_write_bw", "n3"), "ib_write_bw is not installed on n3");
}

TEST(PairError, ALinkThatGaveUpOrAVanishedDeviceMayBeTheRail) {
  for (const std::string& error : std::vector<std::string>{
           "Completion with error at client", "Failed status 12: wr_id 0 syndrom 0x81", "IB device mlx5_3 not found",
           "ib_write_bw ended with exit status 1 and printed no result", ""}) {
    EXPECT_FALSE(FailedBeforeMeasuring(error)) << error;
  }
  RailPair pair;
  pair.error = "Couldn't connect to n2:18515";
  EXPECT_TRUE(NotMeasured(pair));
  pair.error.clear();
  pair.bw_average_gbit_per_s = 10;
  EXPECT_FALSE(NotMeasured(pair));
}

}  // namespace
}  // namespace gpuconform::perftest
