#include "suites/launch/launch_checks.h"

#include <gtest/gtest.h>

#include "probes/iproute/iproute_facts.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::launch {
namespace {

RankInfo Rank(int rank, const std::string& host, const std::string& env) { return {rank, host, env}; }

std::vector<RankLaunch> ThreeNodeSrun() {
  return ParseRanks({Rank(0, "node1", "SLURM_PROCID=0\nSLURM_NODEID=0\nSLURM_NTASKS=3\nSLURM_NTASKS_PER_NODE=1\n"),
                     Rank(1, "node2", "SLURM_PROCID=1\nSLURM_NODEID=1\nSLURM_NTASKS=3\nSLURM_NTASKS_PER_NODE=1\n"),
                     Rank(2, "node3", "SLURM_PROCID=2\nSLURM_NODEID=2\nSLURM_NTASKS=3\nSLURM_NTASKS_PER_NODE=1\n")});
}

TEST(LaunchTaskStarted, RefusedNodeFailsQuotingSlurmAndStartedNodesPass) {
  const std::vector<RefusedNode> refused = {
      {"node1", "srun: error: Task launch for StepId=6.0 failed on node node1: Socket timed out on send/recv operation"}};
  EXPECT_EQ(CheckTaskStarted("node2", refused).verdict, Verdict::kPass);
  const auto result = CheckTaskStarted("node1", refused);
  test_support::ExpectOnlyFinding(result, "node1", "node1: Slurm could not start the run's task (\"srun: error:");
  EXPECT_EQ(result.findings[0].code, ReasonCode("slurm-launch-refused"));
  EXPECT_NE(result.findings[0].message.find("Socket timed out"), std::string::npos);
}

TEST(LaunchTaskStarted, ATaskThatEndedBeforeTheRanksMetIsAConfigurationFaultOfThatNodesImage) {
  const std::vector<RefusedNode> exited = {
      {"node3", "srun: error: node3: task 2: Exited with exit code 127; the task printed: /shared/bin/gpuconform: 4: "
                "exec: /opt/image-lost-it/gpuconform: not found"}};
  const auto result = CheckTaskStarted("node3", exited);
  test_support::ExpectOnlyFinding(result, "node3", "node3: the run's task ended before the ranks met (\"srun: error:");
  EXPECT_EQ(result.findings[0].code, ReasonCode("task-exited-at-start"));
  EXPECT_NE(result.findings[0].message.find("/opt/image-lost-it/gpuconform: not found"), std::string::npos);
  EXPECT_EQ(result.findings[0].code.entry().fault_class, FaultClass::kConfiguration);
  const auto crash = CheckTaskStarted("node2", {{"node2", "srun: error: node2: task 1: Segmentation fault (core dumped)"}});
  EXPECT_EQ(crash.findings[0].code, ReasonCode("task-exited-at-start"));
}

// The launch suite's cases on two nodes that ran a task, judged by the run's evaluator.
std::vector<CheckResult> LaunchCases(const RunOptions& options, const std::vector<RankInfo>& ranks = {},
                                     const std::string& world_problem = "") {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  const Profile profile;
  const SuiteContext context{raw, profile, ranks, false, world_problem, options};
  return test_support::EvaluateOneSuite(test_support::RegisteredSuite(kSuite), context);
}

TEST(LaunchTaskStarted, UnderLaunchTheNodesLeftOutAreNamedAfterThoseThatRan) {
  RunOptions options;
  options.launched = true;
  options.launch_refused = {{"node0", "srun: error: Task launch for StepId=6.0 failed on node node0: Socket timed out"}};
  std::vector<std::string> names;
  for (const auto& result : LaunchCases(options)) {
    if (result.check == kTaskStarted) names.push_back(result.CaseName() + " " + VerdictName(result.verdict));
  }
  EXPECT_EQ(names, (std::vector<std::string>{std::string(kTaskStarted) + "/node1 pass", std::string(kTaskStarted) + "/node2 pass",
                                             std::string(kTaskStarted) + "/node0 fail"}))
      << "a refused node is named though it ran no task";
}

TEST(LaunchTaskStarted, WithoutLaunchOneCaseSkipsSayingWhy) {
  std::vector<CheckResult> task_started;
  for (auto& result : LaunchCases(RunOptions{})) {
    if (result.check == kTaskStarted) task_started.push_back(std::move(result));
  }
  ASSERT_EQ(task_started.size(), 1u);
  EXPECT_EQ(task_started[0].CaseName(), kTaskStarted);
  EXPECT_EQ(task_started[0].verdict, Verdict::kSkip);
  EXPECT_NE(task_started[0].findings[0].message.find("gpuconform launch"), std::string::npos);
}

// Without ranks to judge, WorldFormed says why and every ranks check is skipped pointing there:
// a world that never formed first, then a launch that started no task, then a run with no
// launch facts.
TEST(LaunchWorldFormed, AWorldThatNeverFormedIsAnErrorAndTheRanksChecksSaySo) {
  const std::vector<RankInfo> ranks = {Rank(0, "node1", "SLURM_PROCID=0\n")};
  RunOptions no_task;
  no_task.launch_no_task = true;
  auto cases = [](const std::vector<CheckResult>& results) {
    std::vector<std::string> shown;
    for (const auto& result : results) {
      if (result.check == kTaskStarted) continue;
      shown.push_back(result.CaseName() + " " + VerdictName(result.verdict) + " " + result.findings.at(0).code.str() +
                      ": " + result.findings.at(0).message);
    }
    return shown;
  };
  const std::string not_formed = std::string("the ranks did not form a world; see ") + kWorldFormed;
  EXPECT_EQ(cases(LaunchCases(no_task, ranks, "rank 1 did not join within 12 s")),
            (std::vector<std::string>{std::string(kWorldFormed) + " error world-not-formed: rank 1 did not join within 12 s",
                                      std::string(kSlurmIdsConsistent) + " skip not-applicable: " + not_formed,
                                      std::string(kTasksPerNodeAsRequested) + " skip not-applicable: " + not_formed,
                                      std::string(kMasterAddrInAllocation) + " skip not-applicable: " + not_formed,
                                      std::string(kFabricPinnedInEnvironment) + " skip not-applicable: " + not_formed}));
  const std::string no_task_reason = std::string("Slurm started no task on any node (see ") + kTaskStarted + "), so no rank was launched";
  for (const auto& shown : cases(LaunchCases(no_task, ranks))) {
    EXPECT_NE(shown.find("skip not-applicable: " + no_task_reason), std::string::npos) << shown;
  }
  const auto no_facts = cases(LaunchCases(RunOptions{}));
  ASSERT_EQ(no_facts.size(), 5u);
  for (const auto& shown : no_facts) {
    EXPECT_NE(shown.find("skip not-applicable: launch facts exist only in a live run"), std::string::npos) << shown;
  }
}

TEST(Launch, ConsistentSrunLaunchConforms) {
  const auto ranks = ThreeNodeSrun();
  EXPECT_EQ(CheckSlurmIdsConsistent(ranks).verdict, Verdict::kPass);
  EXPECT_EQ(CheckTasksPerNodeAsRequested(ranks).verdict, Verdict::kPass);
  EXPECT_EQ(CheckMasterAddrInAllocation(ranks, {}).verdict, Verdict::kSkip);
}

TEST(Launch, ReorderedProcidAndWrongTaskCountAreNamed) {
  const auto ranks = ParseRanks({Rank(0, "node1", "SLURM_PROCID=1\nSLURM_NODEID=0\nSLURM_NTASKS=4\n"),
                                 Rank(1, "node2", "SLURM_PROCID=0\nSLURM_NODEID=1\nSLURM_NTASKS=4\n")});
  const auto result = CheckSlurmIdsConsistent(ranks);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].message.rfind("rank 0 on node1: SLURM_PROCID=1, expected 0", 0), 0u)
      << result.findings[0].message;
  bool ntasks = false;
  for (const auto& f : result.findings) ntasks = ntasks || f.code == "ntasks";
  EXPECT_TRUE(ntasks);
}

TEST(Launch, OversubscribedNodeIsNamed) {
  const auto ranks = ParseRanks({Rank(0, "node1", "SLURM_PROCID=0\nSLURM_NODEID=0\n"),
                                 Rank(1, "node1", "SLURM_PROCID=1\nSLURM_NODEID=0\n"),
                                 Rank(2, "node2", "SLURM_PROCID=2\nSLURM_NODEID=1\n")});
  const auto result = CheckTasksPerNodeAsRequested(ranks);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].message.rfind("node1: 2 tasks on this node, expected at most 1", 0), 0u);
  const auto asked_two = ParseRanks({Rank(0, "node1", "SLURM_NTASKS_PER_NODE=2\n"),
                                     Rank(1, "node1", "SLURM_NTASKS_PER_NODE=2\n")});
  EXPECT_EQ(CheckTasksPerNodeAsRequested(asked_two).verdict, Verdict::kPass);
}

TEST(Launch, MasterAddrMustAgreeAndBeAnAllocatedNode) {
  auto with_master = [](const std::string& addr0, const std::string& addr1, const std::string& port) {
    return ParseRanks({Rank(0, "node1", "MASTER_ADDR=" + addr0 + "\nMASTER_PORT=" + port + "\n"),
                       Rank(1, "node2", "MASTER_ADDR=" + addr1 + "\nMASTER_PORT=" + port + "\n")});
  };
  const NodeInterfaceAddresses addresses = {
      {"node1", {{"lo", "127.0.0.1/8"}, {"eth0", "10.10.0.1/24"}, {"ens1", "10.20.0.1/24"}, {"ens1", "fe80::1/64"}}},
      {"node2", {{"eth0", "10.10.0.2/24"}, {"ens1", "10.20.0.2/24"}}}};
  auto judged = [&](const std::string& addr0, const std::string& addr1, const std::string& port = "29500") {
    return CheckMasterAddrInAllocation(with_master(addr0, addr1, port), addresses);
  };
  // Every form MASTER_ADDR takes in the field: short name, FQDN, IPv4, IPv6, bracketed IPv6.
  EXPECT_EQ(judged("node1", "node1").verdict, Verdict::kPass);
  EXPECT_EQ(judged("node1.cluster.local", "node1.cluster.local").verdict, Verdict::kPass);
  EXPECT_EQ(judged("10.20.0.2", "10.20.0.2").verdict, Verdict::kPass);
  EXPECT_EQ(judged("fe80::1", "fe80::1").verdict, Verdict::kPass);
  EXPECT_EQ(judged("[fe80::1]", "[fe80::1]").verdict, Verdict::kPass);
  const auto outside = judged("login1", "login1");
  ASSERT_EQ(outside.verdict, Verdict::kFail);
  EXPECT_NE(outside.findings[0].message.find("MASTER_ADDR=login1 is not a node of this allocation"), std::string::npos);
  EXPECT_EQ(judged("login1.cluster.local", "login1.cluster.local").verdict, Verdict::kFail);
  // An address no node has (a login node's, a stale one): the rendezvous is outside.
  const auto ip_outside = judged("10.20.0.99", "10.20.0.99");
  ASSERT_EQ(ip_outside.verdict, Verdict::kFail);
  EXPECT_NE(ip_outside.findings[0].message.find("MASTER_ADDR=10.20.0.99 is not an address of any node"),
            std::string::npos);
  EXPECT_EQ(judged("fe80::9", "fe80::9").verdict, Verdict::kFail);
  // An address with no node's addresses known is not judged, and never passes.
  EXPECT_EQ(CheckMasterAddrInAllocation(with_master("10.20.0.2", "10.20.0.2", "29500"), {}).verdict, Verdict::kError);
  // Different on two ranks, or set on some ranks only.
  EXPECT_EQ(judged("node1", "node2").findings[0].code, "master-addr-differs");
  const auto some_only = CheckMasterAddrInAllocation(
      ParseRanks({Rank(0, "node1", "MASTER_ADDR=node1\nMASTER_PORT=29500\n"), Rank(1, "node2", "MASTER_PORT=29500\n")}),
      addresses);
  ASSERT_EQ(some_only.verdict, Verdict::kFail);
  EXPECT_NE(some_only.findings[0].message.find("unset on some ranks"), std::string::npos);
  EXPECT_EQ(judged("node1", "node1", "99999").findings[0].code, "master-port");
  EXPECT_EQ(judged("node1", "node1", "").findings[0].code, "master-port");
}

// torchrun's static rendezvous is hosted by the node with SLURM_NODEID 0: MASTER_ADDR must be
// that node in every form (name, FQDN, IPv4, IPv6, bracketed), and PRIMARY_ADDR stands in for it.
TEST(Launch, MasterAddrMustBeTheNodeWithSlurmNodeidZeroInEveryForm) {
  const NodeInterfaceAddresses addresses = {
      {"node1", {{"ens1", "10.20.0.1/24"}, {"ens1", "fe80::1/64"}}},
      {"node2", {{"ens1", "10.20.0.2/24"}, {"ens1", "fe80::2/64"}}}};
  auto judged = [&](const std::string& name, const std::string& addr) {
    return CheckMasterAddrInAllocation(
        ParseRanks({Rank(0, "node1", "SLURM_NODEID=0\n" + name + "=" + addr + "\nMASTER_PORT=29500\n"),
                    Rank(1, "node2", "SLURM_NODEID=1\n" + name + "=" + addr + "\nMASTER_PORT=29500\n")}),
        addresses);
  };
  for (const std::string name : {"MASTER_ADDR", "PRIMARY_ADDR"}) {
    for (const auto& [node0, other] : std::vector<std::pair<std::string, std::string>>{
             {"node1", "node2"}, {"node1.cluster.local", "node2.cluster.local"}, {"10.20.0.1", "10.20.0.2"},
             {"fe80::1", "fe80::2"}, {"[fe80::1]", "[fe80::2]"}}) {
      EXPECT_EQ(judged(name, node0).verdict, Verdict::kPass) << name << "=" << node0;
      const auto wrong = judged(name, other);
      ASSERT_EQ(wrong.verdict, Verdict::kFail) << name << "=" << other;
      EXPECT_EQ(wrong.findings[0].code, "master-addr-not-node0");
      EXPECT_NE(wrong.findings[0].message.find("the node with SLURM_NODEID 0 (node1)"), std::string::npos)
          << wrong.findings[0].message;
    }
  }
  // PRIMARY_PORT stands in for MASTER_PORT too.
  const auto primary_port = CheckMasterAddrInAllocation(
      ParseRanks({Rank(0, "node1", "SLURM_NODEID=0\nPRIMARY_ADDR=node1\nPRIMARY_PORT=70000\n")}), addresses);
  EXPECT_EQ(primary_port.findings.at(0).code, "master-port");
}

// Through the registered suite: every case named, the ranks read once per run, and a
// MASTER_ADDR given as an IP judged against the nodes' `ip -o addr show`.
TEST(LaunchSuite, NamesEveryCaseAndJudgesTheRanksAgainstTheNodesAddresses) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  for (const auto& [node, address] : {std::pair<std::string, std::string>{"node1", "10.20.0.1"}, {"node2", "10.20.0.2"}}) {
    raw.node[node]["ip-addr"] = {ProbeStatus::kOk, "2: ens1    inet " + address + "/24 brd 10.20.0.255 scope global ens1\n",
                                 node + "/ip-addr.txt", ""};
  }
  const std::vector<RankInfo> ranks = {Rank(1, "node2", "MASTER_ADDR=10.20.0.2\nMASTER_PORT=29500\n"),
                                       Rank(0, "node1", "MASTER_ADDR=10.20.0.2\nMASTER_PORT=29500\n")};
  RunOptions options;
  options.launched = true;
  const Profile profile;
  const SuiteContext context{raw, profile, ranks, false, "", options};
  const auto results = test_support::EvaluateOneSuite(test_support::RegisteredSuite(kSuite), context);
  std::map<std::string, const CheckResult*> by_name;
  for (const auto& result : results) by_name[result.TestName()] = &result;
  auto named = [&](const std::string& case_name) { return by_name.at(std::string(kSuite) + "." + case_name); };
  EXPECT_EQ(named(std::string(kTaskStarted) + "/node1")->verdict, Verdict::kPass);
  EXPECT_EQ(named(kWorldFormed)->verdict, Verdict::kPass);
  EXPECT_EQ(named(kMasterAddrInAllocation)->verdict, Verdict::kPass);
  EXPECT_EQ(named(kSlurmIdsConsistent)->verdict, Verdict::kSkip);
  EXPECT_EQ(named(kSlurmIdsConsistent)->findings[0].entity, "cluster");
  const auto& launches = facts::ReadRankLaunches(raw, ranks);
  EXPECT_EQ(&facts::ReadRankLaunches(raw, ranks), &launches) << "read once per run";
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].host, "node1") << "in rank order";
  const auto& addresses = iproute::ReadIpAddr(raw, "node2");
  ASSERT_TRUE(addresses) << addresses.error();
  EXPECT_EQ(&iproute::ReadIpAddr(raw, "node2"), &addresses);
}

TEST(Launch, PlainRunWithoutSrunSkipsSlurmIds) {
  const auto ranks = ParseRanks({Rank(0, "vm", "")});
  EXPECT_EQ(CheckSlurmIdsConsistent(ranks).verdict, Verdict::kSkip);
  EXPECT_EQ(CheckTasksPerNodeAsRequested(ranks).verdict, Verdict::kPass);
}

}  // namespace
}  // namespace gpuconform::launch

namespace gpuconform::launch {
namespace {

// The local cluster's: sockets on ens1, never on the management interface eth0.
Profile FabricProfile() {
  Profile p = test_support::SocketFabricProfile("local", "ens1");
  p.nccl->forbidden_ifnames = {"eth0"};
  return p;
}

std::vector<RankLaunch> MpiRanks(const std::string& env) {
  return ParseRanks({Rank(0, "node1", "PMIX_RANK=0\n" + env), Rank(1, "node2", "PMIX_RANK=1\n" + env)});
}

TEST(LaunchFabric, PinnedToTheFabricConforms) {
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include=ens1\nNCCL_SOCKET_IFNAME=ens1\n"),
                                           FabricProfile())
                .verdict,
            Verdict::kPass);
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_exclude=lo,eth0\nNCCL_SOCKET_IFNAME=^eth0,lo\n"),
                                           FabricProfile())
                .verdict,
            Verdict::kPass);
}

TEST(LaunchFabric, PinningTheManagementNicFailsWithTheFix) {
  const auto result = CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include=eth0\n"), FabricProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u) << "one per host";
  EXPECT_EQ(result.findings[0].message,
            "node1: OMPI_MCA_btl_tcp_if_include=eth0 puts MPI traffic on eth0, the management network; set "
            "OMPI_MCA_btl_tcp_if_include=ens1");
  const auto nccl = CheckFabricPinnedInEnvironment(
      MpiRanks("OMPI_MCA_btl_tcp_if_include=ens1\nNCCL_SOCKET_IFNAME=eth\n"), FabricProfile());
  ASSERT_EQ(nccl.verdict, Verdict::kFail);
  EXPECT_EQ(nccl.findings[0].code, "nccl-socket-forbidden");
}

// Open MPI's lists also take subnets: the management subnet is the management interface, the
// fabric subnet the fabric; a subnet with the nodes' addresses unknown is not judged, never passed.
TEST(LaunchFabric, SubnetsInOpenMpisListsAreTheInterfacesWithAnAddressInThem) {
  const NodeInterfaceAddresses interfaces = {{"node1", {{"eth0", "10.10.0.1/24"}, {"ens1", "10.20.0.1/24"}}},
                                             {"node2", {{"eth0", "10.10.0.2/24"}, {"ens1", "10.20.0.2/24"}}}};
  const auto management =
      CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include=10.10.0.0/24\n"), FabricProfile(), interfaces);
  ASSERT_EQ(management.verdict, Verdict::kFail);
  EXPECT_EQ(management.findings[0].code, "mpi-pinned-forbidden");
  EXPECT_NE(management.findings[0].message.find("node1: OMPI_MCA_btl_tcp_if_include=10.10.0.0/24 puts MPI traffic on eth0"),
            std::string::npos)
      << management.findings[0].message;
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include=10.20.0.0/16\n"), FabricProfile(),
                                           interfaces)
                .verdict,
            Verdict::kPass);
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_exclude=127.0.0.0/8, 10.10.0.0/24\n"),
                                           FabricProfile(), interfaces)
                .verdict,
            Verdict::kPass)
      << "excluding the management subnet pins it away";
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include= ens1 , lo\n"), FabricProfile(), interfaces)
                .verdict,
            Verdict::kPass)
      << "spaces around names";
  EXPECT_EQ(CheckFabricPinnedInEnvironment(MpiRanks("OMPI_MCA_btl_tcp_if_include=10.10.0.0/24\n"), FabricProfile()).verdict,
            Verdict::kError);
}

TEST(LaunchFabric, UnpinnedMpiFails) {
  const auto result = CheckFabricPinnedInEnvironment(MpiRanks(""), FabricProfile());
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_EQ(result.findings[0].code, "mpi-unpinned");
  EXPECT_NE(result.findings[0].message.find("set OMPI_MCA_btl_tcp_if_include=ens1"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::launch
