#include "harness/core/case_filter.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

TEST(CheckFilter, WholeCheckNameAlsoSelectsItsPerNodeCases) {
  EXPECT_EQ(ExpandCheckFilter("SlurmGres.GresCount"), "SlurmGres.GresCount:SlurmGres.GresCount/*");
  EXPECT_EQ(ExpandCheckFilter("Munge.*"), "Munge.*");
  EXPECT_EQ(ExpandCheckFilter(""), "*");
}

TEST(CheckFilter, NegativePartIsExpandedToo) {
  EXPECT_EQ(ExpandCheckFilter("*-Munge.KeyIdentical"), "*-Munge.KeyIdentical:Munge.KeyIdentical/*");
  EXPECT_EQ(ExpandCheckFilter("-A.B"), "*-A.B:A.B/*");
  EXPECT_EQ(ExpandCheckFilter("A.*:B.C-B.C/gpu-node-1"), "A.*:B.C:B.C/*-B.C/gpu-node-1");
}

TEST(CheckFilter, MaySelectJudgesSuitesFromThePositivePatterns) {
  EXPECT_TRUE(FilterMaySelect("*", "Munge", "KeyIdenticalOnAllNodes"));
  EXPECT_TRUE(FilterMaySelect("Munge.*", "Munge", "KeyIdenticalOnAllNodes"));
  EXPECT_FALSE(FilterMaySelect("Munge.*", "AllreduceBandwidth", "MpiBusbwAtFloors"));
  EXPECT_TRUE(FilterMaySelect("SlurmGres.GresRegistered/node2", "SlurmGres", "GresRegistered"));
  EXPECT_FALSE(FilterMaySelect("SlurmGres.GresRegistered/node2", "SlurmGres", "GresMatchesProfile"));
  EXPECT_TRUE(FilterMaySelect("*-Munge.*", "Munge", "DaemonReachable")) << "negative parts never drop probes";
  EXPECT_TRUE(FilterMaySelect("Slurm?odes.*", "SlurmNodes", "NodeUsable"));
}

TEST(FilterAlsoSelecting, AddsTheCheckToThePositivePartOnly) {
  EXPECT_EQ(FilterAlsoSelecting("Checkpoint.*", "Launch.WorldFormed"), "Checkpoint.*:Launch.WorldFormed");
  EXPECT_EQ(FilterAlsoSelecting("Munge.*-Munge.Clock*", "Launch.WorldFormed"),
            "Munge.*:Launch.WorldFormed-Munge.Clock*");
  EXPECT_EQ(FilterAlsoSelecting("", "Launch.WorldFormed"), "") << "an empty filter already selects everything";
  EXPECT_EQ(FilterAlsoSelecting("-Slurm*", "Launch.WorldFormed"), "-Slurm*");
  EXPECT_TRUE(FilterMaySelect(FilterAlsoSelecting("Checkpoint.*", "Launch.WorldFormed"), "Launch", "WorldFormed"));
}

// The selection every report shows is made once, in GoogleTest's filter syntax: a whole check
// name selects its per-node cases, a negative part wins, '?' and '*' match as GoogleTest's do,
// and the selected cases keep their order.
TEST(SelectCases, SelectsAsGoogleTestsFilterWouldInTheirOrder) {
  const std::vector<CheckResult> cases = {Passed("Munge", "KeyIdentical"),        Passed("Munge", "Daemon", "node1"),
                                          Passed("Munge", "Daemon", "gpu-node-2"), Passed("SlurmGres", "Gres", "node1"),
                                          Passed("SlurmNodes", "Usable", "node1")};
  auto names = [&](const std::string& filter) {
    std::vector<std::string> selected;
    for (const auto& result : SelectCases(cases, filter)) selected.push_back(result.TestName());
    return selected;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names("*").size(), cases.size());
  EXPECT_EQ(names(""), names("*"));
  EXPECT_EQ(names("Munge.Daemon"), (Names{"Munge.Daemon/node1", "Munge.Daemon/gpu-node-2"}));
  EXPECT_EQ(names("Munge.*-Munge.Daemon/gpu-node-2"), (Names{"Munge.KeyIdentical", "Munge.Daemon/node1"}));
  EXPECT_EQ(names("-Munge.*"), (Names{"SlurmGres.Gres/node1", "SlurmNodes.Usable/node1"}));
  EXPECT_EQ(names("Slurm?res.*:Munge.Key*"), (Names{"Munge.KeyIdentical", "SlurmGres.Gres/node1"}));
  EXPECT_TRUE(names("Nothing.*").empty());
  EXPECT_FALSE(FilterSelects("Munge.Key", "Munge.KeyIdentical")) << "a pattern matches the whole name";
}

}  // namespace
}  // namespace gpuconform
