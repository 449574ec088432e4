#include "suites/slurm/slurm_checks.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "probes/slurm/slurm_facts.h"
#include "probes/slurm/slurm_parse.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::slurm {
namespace {

const std::string kRealdata = GPUCONFORM_REALDATA_DIR;

std::string ReadRealdata(const std::string& name) {
  return test_support::ReadFile(std::filesystem::path(kRealdata) / name);
}

// Skips, saying so, when the realdata folder is absent.
#define REQUIRE_REALDATA()                                      \
  GPUCONFORM_REALDATA_OR_SKIP(realdata_dir, "slurm-node"); \
  (void)realdata_dir

constexpr char kHealthyNode[] =
    "NodeName=node2 Arch=x86_64 CoresPerSocket=2 \n"
    "   CPUAlloc=0 CPUEfctv=2 CPUTot=2 CPULoad=0.41\n"
    "   Gres=gpu:8\n"
    "   NodeAddr=10.10.0.2 NodeHostName=node2 Version=22.05.8\n"
    "   OS=Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) \n"
    "   State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n"
    "   Partitions=gpu \n";

constexpr char kGresRejectedNode[] =
    "NodeName=node2 Arch=x86_64 CoresPerSocket=2 \n"
    "   Gres=gpu:8\n"
    "   State=IDLE+DRAIN+INVALID_REG ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n"
    "   Partitions=gpu \n"
    "   Reason=gres/gpu count reported lower than configured (4 < 8) [slurm@2026-12-01T10:00:00]\n";

SlurmNode ParseOne(const std::string& text) {
  auto nodes = ParseScontrolShowNode(text, "scontrol.txt");
  EXPECT_TRUE(nodes) << nodes.error();
  return nodes->front();
}

Profile LocalProfile(const std::string& gres = "gpu:8", const std::string& partition = "") {
  Profile p;
  p.name = "local";
  p.file = "topologies/local.yaml";
  p.Set(SlurmExpectation{gres, 8, partition, "test"});
  return p;
}

TEST(ScontrolParse, ReadsFieldsStateFlagsAndWholeReason) {
  const SlurmNode node = ParseOne(kGresRejectedNode);
  EXPECT_EQ(node.name, "node2");
  EXPECT_EQ(node.Field("Gres"), "gpu:8");
  EXPECT_EQ(node.StateFlags(), (std::set<std::string>{"IDLE", "DRAIN", "INVALID_REG"}));
  EXPECT_EQ(node.reason(), "gres/gpu count reported lower than configured (4 < 8) [slurm@2026-12-01T10:00:00]");
  EXPECT_EQ(node.Partitions(), std::vector<std::string>{"gpu"});
  EXPECT_EQ(ParseOne(kHealthyNode).Field("OS").rfind("Linux 6.1.0-18-amd64 #1", 0), 0u);
}

TEST(ScontrolParse, NotScontrolOutputIsAnErrorNamingOrigin) {
  test_support::ExpectErrorStartingWith(
      ParseScontrolShowNode("PARTITION AVAIL TIMELIMIT\ngpu* up infinite\n", "snap/cluster/scontrol.txt"),
      "snap/cluster/scontrol.txt:1: ");
  test_support::ExpectErrorContaining(ParseScontrolShowNode("NodeName=n1 Arch=x86_64\n   Gres=gpu:8\n", "f"),
                                      "f:1: node n1 has no State=");
}

TEST(ScontrolParse, RealSlinkyOutputWithShellPromptAndSinfoTable) {
  REQUIRE_REALDATA();
  const auto nodes = test_support::Parsed(
      ParseScontrolShowNode(ReadRealdata("slurm-node/slinky-45-sinfo-scontrol-a40-gres.txt"), "slinky"));
  ASSERT_EQ(nodes.size(), 1u);
  const SlurmNode& node = nodes.front();
  EXPECT_EQ(node.name, "esc8000a-1");
  EXPECT_EQ(node.Field("Gres"), "gpu:a40:1(S:0,2,4,6,8,10)");
  // The .source.txt: the Slurm-side record is self-consistent and idle: usable, 1 GPU.
  EXPECT_EQ(CheckNodeUsable(node).verdict, Verdict::kPass);
  EXPECT_EQ(GpuCount(*ParseGres(node.Field("Gres"))), 1);
  // ... and "GRES count == physical GPUs visible" fails on that host (8 visible vs 1 configured).
  const auto vs_hardware = CheckGresMatchesHardware(node, {8, "nvidia-smi lists 8 GPUs", ""});
  EXPECT_EQ(vs_hardware.verdict, Verdict::kFail);
  EXPECT_NE(vs_hardware.findings[0].message.find("esc8000a-1: Slurm advertises 1 GPUs"), std::string::npos);
}

TEST(GresString, ParsesTypedUntypedAffinityAndMultipleEntries) {
  auto a = ParseGres("gpu:h100:8(S:0-1)");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->front().type, "h100");
  EXPECT_EQ(GpuCount(*a), 8);
  EXPECT_EQ(GpuCount(*ParseGres("gpu:8")), 8);
  EXPECT_EQ(GpuCount(*ParseGres("gpu:gtx970:1,gpu:gtx1060:1")), 2);
  EXPECT_EQ(GpuCount(*ParseGres("gpu:tesla:2,gpu:kepler:2,mps:400,bandwidth:lustre:no_consume:4G")), 4);
  EXPECT_EQ(GpuCount(*ParseGres("(null)")), 0);
  EXPECT_FALSE(ParseGres("gpu:h100:eight"));
}

TEST(Hostlist, ExpandsRangesPaddingAndLists) {
  EXPECT_EQ(*ExpandHostlist("node[1-3]"), (std::vector<std::string>{"node1", "node2", "node3"}));
  EXPECT_EQ(*ExpandHostlist("c[002,004,008-009]"), (std::vector<std::string>{"c002", "c004", "c008", "c009"}));
  EXPECT_EQ(*ExpandHostlist("a,b[01-02]"), (std::vector<std::string>{"a", "b01", "b02"}));
  EXPECT_FALSE(ExpandHostlist("node[3-1]"));
  EXPECT_FALSE(ExpandHostlist("node[1-"));
  EXPECT_FALSE(ExpandHostlist("node[1-999999999]")) << "bounded, not a memory bomb";
}

TEST(GresConf, CountsFilesAndCountsPerNodeCaseInsensitively) {
  const auto conf =
      test_support::Parsed(ParseGresConf("AutoDetect=off\n"
                                         "NodeName=node1 Name=gpu File=/x/node1/dev/nvidia[0-7]\n"
                                         "Nodename=node2\tName=gpu Type=h100 File=/dev/nvidia[0-3]  # four only\n"
                                         "NodeName=node3 Name=gpu Count=2\n",
                                         "gres.conf"));
  EXPECT_EQ(conf.GpusFor("node1"), 8);
  EXPECT_EQ(conf.GpusFor("node2"), 4);
  EXPECT_EQ(conf.GpusFor("node3"), 2);
  EXPECT_EQ(conf.GpusFor("node4"), -1);
  test_support::ExpectErrorStartingWith(ParseGresConf("NodeName=n1 Name=gpu\nthis is not gres\n", "gres.conf"),
                                        "gres.conf:2: ");
}

TEST(GresConf, RealDanielmcPairAgreesForEveryGpuNode) {
  REQUIRE_REALDATA();
  const auto conf =
      test_support::Parsed(ParseGresConf(ReadRealdata("slurm-node/danielmc81-cluster-gres.conf"), "gres.conf"));
  const auto nodes =
      test_support::Parsed(ParseSlurmConfNodes(ReadRealdata("slurm-node/danielmc81-cluster-slurm.conf"), "slurm.conf"));
  int gpu_nodes = 0;
  for (const auto& node : nodes) {
    if (node.Field("Gres").empty()) continue;
    ++gpu_nodes;
    EXPECT_EQ(CheckGresConfMatchesSlurmConf(node, conf, "gres.conf").verdict, Verdict::kPass) << node.name;
  }
  EXPECT_EQ(gpu_nodes, 5) << "ibnodo1-2, visualizacion1-2, ibtesla";
  // ... and it fails an 8x H100 profile.
  EXPECT_EQ(CheckGresMatchesProfile(nodes.front(), LocalProfile("gpu:h100:8")).verdict, Verdict::kFail);
}

TEST(SlurmConf, NodeLinesNamingMoreThanTheCapInAllAreAnErrorWithTheLine) {
  // Each line alone is under the cap; together they are not (a typo repeated, or fuzzed input).
  const std::string text = "NodeName=a[1-60000] Gres=gpu:8\nNodeName=b[1-60000] Gres=gpu:8\n";
  const auto nodes = ParseSlurmConfNodes(text, "slurm.conf");
  ASSERT_FALSE(nodes);
  EXPECT_NE(nodes.error().find("slurm.conf:2"), std::string::npos) << nodes.error();
  EXPECT_NE(nodes.error().find("more than 100000 nodes in all"), std::string::npos) << nodes.error();
  EXPECT_TRUE(ParseSlurmConfNodes("NodeName=a[1-60000] Gres=gpu:8\n", "slurm.conf"));
}

TEST(SlurmConf, AGivenHostCapHoldsForRangesPlainNamesAndTheWholeFile) {
  // The fuzz targets parse with a cap of a few hundred: the same checks, reached sooner.
  EXPECT_TRUE(ExpandHostlist("n[1-10]", 10));
  EXPECT_FALSE(ExpandHostlist("n[1-11]", 10));
  EXPECT_FALSE(ExpandHostlist("a,b,c", 2)) << "plain names count too";
  const auto nodes = ParseSlurmConfNodes("NodeName=a[1-6]\nNodeName=b[1-6]\n", "slurm.conf", 10);
  ASSERT_FALSE(nodes);
  EXPECT_NE(nodes.error().find("more than 10 nodes in all"), std::string::npos) << nodes.error();
}

TEST(GresConf, RealSchedmdDocPairHasMismatchedTypes) {
  REQUIRE_REALDATA();
  const auto conf = test_support::Parsed(
      ParseGresConf(ReadRealdata("slurm-node/schedmd-gres-doc-gres-conf-example.conf"), "gres.conf"));
  const auto nodes = test_support::Parsed(
      ParseSlurmConfNodes(ReadRealdata("slurm-node/schedmd-gres-doc-slurm-conf-snippet.conf"), "slurm.conf"));
  ASSERT_EQ(nodes.size(), 8u) << "tux[0-7]";
  const auto result = CheckGresConfMatchesSlurmConf(nodes.front(), conf, "gres.conf");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "gres-conf-types");
  EXPECT_NE(result.findings[0].message.find("tux0: gres.conf declares GPU types gp100:2,p6000:2"), std::string::npos)
      << result.findings[0].message;
}

TEST(SlurmGres, MatchesProfileFailsOnWrongCountAndType) {
  EXPECT_EQ(CheckGresMatchesProfile(ParseOne(kHealthyNode), LocalProfile()).verdict, Verdict::kPass);
  const auto wrong_count = CheckGresMatchesProfile(ParseOne(kHealthyNode), LocalProfile("gpu:4"));
  ASSERT_EQ(wrong_count.verdict, Verdict::kFail);
  EXPECT_NE(wrong_count.findings[0].message.find("node2: Slurm advertises Gres=gpu:8 (8 GPUs), expected gpu:4"),
            std::string::npos);
  const auto wrong_type = CheckGresMatchesProfile(ParseOne(kHealthyNode), LocalProfile("gpu:h100:8"));
  ASSERT_EQ(wrong_type.verdict, Verdict::kFail);
  EXPECT_EQ(wrong_type.findings[0].code, "gres-type");
  Profile no_slurm = LocalProfile();
  no_slurm.Unset<SlurmExpectation>();
  EXPECT_EQ(CheckGresMatchesProfile(ParseOne(kHealthyNode), no_slurm).verdict, Verdict::kSkip);
}

TEST(SlurmGres, RegisteredSurfacesTheControllersReason) {
  EXPECT_EQ(CheckGresRegistered(ParseOne(kHealthyNode)).verdict, Verdict::kPass);
  const auto rejected = CheckGresRegistered(ParseOne(kGresRejectedNode));
  ASSERT_EQ(rejected.verdict, Verdict::kFail);
  EXPECT_NE(rejected.findings[0].message.find("gres/gpu count reported lower than configured (4 < 8)"),
            std::string::npos);
  EXPECT_NE(rejected.findings[0].message.find("scontrol update nodename=node2 state=resume"), std::string::npos);
}

TEST(SlurmGres, GresConfCountMismatchNamesNodeAndBothCounts) {
  auto conf = ParseGresConf("NodeName=node2 Name=gpu File=/dev/nvidia[0-3]\n", "node2:/etc/slurm/gres.conf");
  const auto result = CheckGresConfMatchesSlurmConf(ParseOne(kHealthyNode), *conf, "node2:/etc/slurm/gres.conf");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(result.findings[0].message.find("node2: node2:/etc/slurm/gres.conf declares 4 GPUs, slurm.conf says Gres=gpu:8"),
            std::string::npos)
      << result.findings[0].message;
  auto none = ParseGresConf("NodeName=node1 Name=gpu File=/dev/nvidia[0-7]\n", "g");
  EXPECT_EQ(CheckGresConfMatchesSlurmConf(ParseOne(kHealthyNode), *none, "g").findings[0].code, "gres-conf-missing");
  auto autodetect = ParseGresConf("AutoDetect=nvml\n", "g");
  EXPECT_EQ(CheckGresConfMatchesSlurmConf(ParseOne(kHealthyNode), *autodetect, "g").verdict, Verdict::kSkip);
}

TEST(SlurmGres, HardwareMismatchAndMissingCountAreFailureAndError) {
  EXPECT_EQ(CheckGresMatchesHardware(ParseOne(kHealthyNode), {8, "8 devices", ""}).verdict, Verdict::kPass);
  const auto fewer = CheckGresMatchesHardware(ParseOne(kHealthyNode), {7, "nvidia-smi lists 7 GPUs", ""});
  ASSERT_EQ(fewer.verdict, Verdict::kFail);
  EXPECT_NE(fewer.findings[0].message.find("node2: Slurm advertises 8 GPUs (Gres=gpu:8) but nvidia-smi lists 7 GPUs"),
            std::string::npos);
  const auto unknown = CheckGresMatchesHardware(ParseOne(kHealthyNode), {std::nullopt, "", "node2: no NVIDIA GPU found"});
  EXPECT_EQ(unknown.verdict, Verdict::kError);
}

TEST(SlurmNodes, UnusableStatesAreNamedWithReasonAndFix) {
  EXPECT_EQ(CheckNodeUsable(ParseOne(kHealthyNode)).verdict, Verdict::kPass);
  const auto drained = CheckNodeUsable(ParseOne(
      "NodeName=node3\n   State=IDLE+DRAIN\n   Reason=gpuconform fault injection [root@2026-12-02T14:00:00]\n"));
  ASSERT_EQ(drained.verdict, Verdict::kFail);
  EXPECT_NE(drained.findings[0].message.find("node3: State=IDLE+DRAIN, Reason=\"gpuconform fault injection"),
            std::string::npos);
  const auto silent = CheckNodeUsable(ParseOne("NodeName=node2\n   State=IDLE+NOT_RESPONDING\n"));
  ASSERT_EQ(silent.verdict, Verdict::kFail);
  EXPECT_NE(silent.findings[0].message.find("slurmd does not answer"), std::string::npos);
  EXPECT_EQ(CheckNodeUsable(ParseOne("NodeName=n\n   State=UNKNOWN+NOT_RESPONDING\n")).verdict, Verdict::kFail);
  EXPECT_EQ(CheckNodeUsable(ParseOne("NodeName=n\n   State=MIXED\n")).verdict, Verdict::kPass);
  EXPECT_EQ(CheckNodeUsable(ParseOne("NodeName=n\n   State=ALLOCATED\n")).verdict, Verdict::kPass);
}

TEST(SlurmNodes, JobsPendingOnBrokenNodesAreNamed) {
  const auto jobs = test_support::Parsed(ParsePendingJobs(
      "41|gpu|alice|(Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions)\n"
      "42|gpu|bob|Resources\n",
      "squeue"));
  const auto result = CheckNoJobsPendingOnBrokenNodes(jobs);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u) << "waiting for Resources is normal";
  EXPECT_NE(result.findings[0].message.find("job 41 (user alice, partition gpu)"), std::string::npos);
  EXPECT_EQ(CheckNoJobsPendingOnBrokenNodes({}).verdict, Verdict::kPass);
  EXPECT_FALSE(ParsePendingJobs("garbage line\n", "squeue"));
}

TEST(SlurmGres, AllocationCountsVisibleDevicesPerNode) {
  const std::vector<std::string> nodes = {"node1", "node2"};
  EXPECT_EQ(CheckAllocationGivesGpus(ParseAllocationReport("node1 0,1,2,3\nnode2 0,1,2,3\n"), nodes, 4).verdict,
            Verdict::kPass);
  const auto short_node = CheckAllocationGivesGpus(ParseAllocationReport("node1 0,1,2,3\nnode2 0,1\n"), nodes, 4);
  ASSERT_EQ(short_node.verdict, Verdict::kFail);
  EXPECT_NE(short_node.findings[0].message.find("node2: `srun --gpus-per-node=4` set CUDA_VISIBLE_DEVICES=0,1 (2 GPUs)"),
            std::string::npos);
  const auto missing = CheckAllocationGivesGpus(ParseAllocationReport("node1 unset\n"), nodes, 4);
  EXPECT_EQ(missing.findings.size(), 2u);
}

TEST(SlurmParse, SurvivesArbitraryBytesAndTruncation) {
  test_support::ForEachNoisyString(
      {.seed = 7, .count = 3000, .max_extra = 131, .alphabet = "N=[]-,: \n\tgpu0123"}, [](const std::string& bytes) {
        (void)ParseScontrolShowNode(bytes, "fuzz");
        (void)ParseGresConf(bytes, "fuzz");
        (void)ParseGres(bytes);
        (void)ExpandHostlist(bytes);
        (void)ParsePendingJobs(bytes, "fuzz");
        (void)ParseSlurmConfNodes(bytes, "fuzz");
      });
  const std::string real = kGresRejectedNode;
  for (std::size_t n = 0; n <= real.size(); ++n) (void)ParseScontrolShowNode(real.substr(0, n), "truncated");
  SUCCEED() << "no crash";
}

}  // namespace
}  // namespace gpuconform::slurm

namespace gpuconform::slurm {
namespace {

TEST(SlurmNodes, UnreachableSlurmdIsNamedAndUnlistedNodeIsAnError) {
  const auto probes = ParseSlurmdReachability(
      "node1 10.10.0.1:6818 ok\nnode2 10.10.0.2:6818 failed Connection refused\n");
  ASSERT_EQ(probes.size(), 2u);
  EXPECT_EQ(CheckSlurmdReachable("node1", &probes[0]).verdict, Verdict::kPass);
  const auto dead = CheckSlurmdReachable("node2", &probes[1]);
  ASSERT_EQ(dead.verdict, Verdict::kFail);
  EXPECT_EQ(dead.findings[0].message.rfind("node2: slurmd at 10.10.0.2:6818 refuses connections (Connection refused)", 0),
            0u)
      << dead.findings[0].message;
  EXPECT_EQ(CheckSlurmdReachable("node3", nullptr).verdict, Verdict::kError);
}

// ---- the suites on raw outputs: the controller's nodes named in every case, each output read once ----

RawOutput Ok(const std::string& text, const std::string& origin) { return {ProbeStatus::kOk, text, origin, ""}; }

// node1 and node2 in the controller's view; gres.conf read on node1 only (node2 ran no task).
ClusterRaw TwoNodesOneGresConf() {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  std::string node1 = kHealthyNode;
  node1.replace(node1.find("NodeName=node2"), 14, "NodeName=node1");
  raw.cluster["scontrol-show-node"] = Ok(node1 + "\n" + kHealthyNode, "cluster/scontrol-show-node.txt");
  raw.node["node1"]["gres.conf"] = Ok("Name=gpu File=/dev/nvidia[0-7]\n", "node1/gres.conf");
  raw.cluster["slurmd-reachable"] = Ok("node1 10.10.0.1:6818 ok\nnode2 10.10.0.2:6818 failed Connection refused\n",
                                       "cluster/slurmd-reachable.txt");
  return raw;
}

TEST(SlurmSuites, NodesOutsideTheRunAreJudgedWithAStandInGresConfAndNamed) {
  const ClusterRaw raw = TwoNodesOneGresConf();
  const auto conf = test_support::JudgeRegistered(kGresSuite, raw, LocalProfile(), {kGresConfMatchesSlurmConf});
  ASSERT_EQ(conf.size(), 2u);
  EXPECT_EQ(conf[1].TestName(), "SlurmGres.GresConfMatchesSlurmConf/node2");
  EXPECT_EQ(conf[1].verdict, Verdict::kPass) << test_support::Describe(conf);
  const Result<NodeGresConf>& stand_in = ReadGresConf(raw, "node2");
  ASSERT_TRUE(stand_in) << stand_in.error();
  EXPECT_EQ(stand_in->origin, "node1/gres.conf");
  EXPECT_EQ(&ReadGresConf(raw, "node2"), &stand_in) << "the stand-in is looked for once";
  EXPECT_EQ(ReadGresConf(raw, "node1")->origin, "node1/gres.conf");
  EXPECT_EQ(&ReadScontrolNodes(raw), &ReadScontrolNodes(raw));

  const auto nodes = test_support::JudgeRegistered(kNodesSuite, raw, LocalProfile());
  std::map<std::string, const CheckResult*> by_name;
  for (const auto& result : nodes) by_name[result.TestName()] = &result;
  EXPECT_EQ(by_name.at("SlurmNodes.SlurmdReachable/node1")->verdict, Verdict::kPass);
  EXPECT_EQ(by_name.at("SlurmNodes.SlurmdReachable/node2")->verdict, Verdict::kFail);
  const CheckResult* queue = by_name.at("SlurmNodes.NoJobsPendingOnBrokenNodes");
  ASSERT_EQ(queue->verdict, Verdict::kError);
  EXPECT_EQ(queue->findings[0].code, "no-queue");
  EXPECT_EQ(queue->findings[0].entity, "cluster");
}

TEST(SlurmSuites, WithoutTheControllersViewEveryCheckIsAnErrorSayingWhy) {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  const auto results = test_support::JudgeRegistered(kGresSuite, raw, LocalProfile());
  ASSERT_EQ(results.size(), 5u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    EXPECT_EQ(result.findings[0].code, "no-controller-view");
    EXPECT_EQ(result.findings[0].message, "no cluster-wide scontrol-show-node output was collected");
  }
  EXPECT_EQ(results[4].TestName(), "SlurmGres.AllocationGivesGpus");
  ClusterRaw no_gres_conf = TwoNodesOneGresConf();
  no_gres_conf.node.clear();
  const auto missing = test_support::JudgeRegistered(kGresSuite, no_gres_conf, LocalProfile(), {kGresConfMatchesSlurmConf});
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[1].findings[0].code, "no-gres-conf");
  EXPECT_EQ(missing[1].findings[0].message,
            "node2: no gres.conf was read (node2: no gres.conf output was collected)");
}


TEST(SlurmSuites, EachNodeIsJudgedFromItsOwnRecordInTheProfilesPartition) {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  raw.cluster["scontrol-show-node"] =
      Ok("NodeName=node1\n   State=IDLE\n   Partitions=gpu\n"
         "NodeName=cpu1\n   State=DOWN\n   Partitions=cpu\n"
         "NodeName=node3\n   State=IDLE+DRAIN\n   Partitions=cpu,gpu\n",
         "cluster/scontrol-show-node.txt");
  const Profile gpu = LocalProfile("gpu:8", "gpu");
  const auto usable = test_support::JudgeRegistered(kNodesSuite, raw, gpu, {kNodeUsable});
  ASSERT_EQ(usable.size(), 2u) << test_support::Describe(usable);
  EXPECT_EQ(usable[0].TestName(), "SlurmNodes.NodeUsable/node1");
  EXPECT_EQ(usable[0].verdict, Verdict::kPass);
  EXPECT_EQ(usable[1].TestName(), "SlurmNodes.NodeUsable/node3");
  EXPECT_EQ(usable[1].verdict, Verdict::kFail);

  const Profile elsewhere = LocalProfile("gpu:8", "debug");
  const auto none = test_support::JudgeRegistered(kNodesSuite, raw, elsewhere);
  ASSERT_EQ(none.size(), 3u) << "one error per check";
  for (const auto& result : none) {
    EXPECT_EQ(result.findings[0].code, "no-controller-view") << result.TestName();
    EXPECT_EQ(result.findings[0].message, "cluster/scontrol-show-node.txt: no node in partition 'debug'");
  }
}

TEST(SlurmSuites, WithoutTheReachabilityProbeEveryNodeIsNotProbed) {
  ClusterRaw raw = TwoNodesOneGresConf();
  raw.cluster["slurmd-reachable"] = {ProbeStatus::kFailed, "", "", "slurmd-reachable: rank 0 could not run it"};
  const auto reachable = test_support::JudgeRegistered(kNodesSuite, raw, LocalProfile(), {kSlurmdReachable});
  ASSERT_EQ(reachable.size(), 2u);
  for (const auto& result : reachable) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    EXPECT_EQ(result.findings[0].code, "not-probed");
    EXPECT_EQ(result.findings[0].message, "slurmd-reachable: rank 0 could not run it");
  }
}

TEST(SlurmSuites, AllocationIsSkippedWithoutASlurmSection) {
  Profile no_slurm = LocalProfile();
  no_slurm.Unset<SlurmExpectation>();
  const auto allocation =
      test_support::JudgeRegisteredOnce(kGresSuite, kAllocationGivesGpus, TwoNodesOneGresConf(), no_slurm);
  EXPECT_EQ(allocation.verdict, Verdict::kSkip);
  EXPECT_EQ(allocation.findings[0].message, "profile has no slurm section");
}

}  // namespace
}  // namespace gpuconform::slurm
