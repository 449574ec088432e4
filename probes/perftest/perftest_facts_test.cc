// The perftest reader: one snapshot file per node, HCA and port, read even where the tool
// exited non-zero (it does when it finds no device or no peer).
#include <gtest/gtest.h>

#include "harness/core/cluster_raw.h"
#include "probes/perftest/perftest_facts.h"
#include "probes/perftest/perftest_probes.h"

namespace gpuconform::perftest {
namespace {

TEST(PerftestFacts, EachHcaAndPortHasItsOwnFileReadWhateverTheExit) {
  EXPECT_EQ(IbWriteBwProbe("mlx5_0", 1).file, "ib_write_bw-mlx5_0-1.txt");
  EXPECT_EQ(IbWriteLatProbe("mlx5_3", 2).file, "ib_write_lat-mlx5_3-2.txt");
  ClusterRaw raw;
  raw.nodes = {"n1"};
  RawOutput out;
  out.status = ProbeStatus::kFailed;
  out.text = " Couldn't connect to 10.0.0.2:18515\n";
  raw.node["n1"][IbWriteBwProbe("mlx5_0", 1).id] = out;
  const auto& failed = ReadPerftest(raw, "n1", IbWriteBwProbe("mlx5_0", 1));
  ASSERT_TRUE(failed) << failed.error();
  ASSERT_EQ(failed->errors.size(), 1u);
  EXPECT_EQ(failed->errors[0].kind, PerftestErrorKind::kConnectFailed);
  EXPECT_EQ(failed->origin, "n1/ib_write_bw-mlx5_0-1.txt");
  const auto& other_port = ReadPerftest(raw, "n1", IbWriteBwProbe("mlx5_0", 2));
  ASSERT_FALSE(other_port);
}

}  // namespace
}  // namespace gpuconform::perftest
