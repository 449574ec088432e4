#include "suites/nccl_transport/nccl_transport_checks.h"

#include <gtest/gtest.h>

#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "harness/core/cluster_raw.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "harness/util/text_util.h"
#include "probes/nccl_log/nccl_log_parse.h"

namespace gpuconform::nccl_transport {

using namespace gpuconform::nccl_log;
namespace {

const std::string kRealdata = std::string(GPUCONFORM_REALDATA_DIR) + "/nccl-debug-logs";
const std::string kFixtures = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots";

using test_support::ReadFileIfPresent;

Profile Builtin(const std::string& name) { return test_support::BuiltinProfile(name); }

// The koordinator pods: one Tesla P40 per pod, one SR-IOV ConnectX-5 RoCE VF at 25 Gb/s.
Profile RocePodProfile() {
  Profile p = Builtin("h100-sxm-8");
  p.name = "p40-roce-pod";
  p.gpu->count_per_node = 1;
  p.nvlink.reset();
  p.infiniband->rail_nics_per_node = 1;
  p.infiniband->link_layer = "Ethernet";
  p.infiniband->rate_gbit_per_s = 25;
  p.nccl->gpudirect_rdma = false;
  p.nccl->forbidden_ifnames.clear();
  return p;
}

// An H100 cluster whose NCCL must run over TCP on ens1 (the local cluster's rule, with GPUs).
Profile SocketOnEns1Profile() {
  Profile p = Builtin("h100-sxm-8");
  p.name = "h100-socket-ens1";
  p.nccl->network = "Socket";
  p.nccl->gpudirect_rdma = false;
  p.nccl->socket_ifname = "ens1";
  return p;
}

using test_support::VerdictsByCheck;

std::string Describe(const std::vector<CheckResult>& results) {
  std::string text;
  for (const auto& r : results) {
    text += r.TestName() + " " + VerdictName(r.verdict) + "\n";
    for (const auto& f : r.findings) text += "  [" + f.entity + "] " + f.message + "\n";
  }
  return text;
}

const CheckResult& Result(const std::vector<CheckResult>& results, const std::string& check) {
  for (const auto& r : results) {
    if (r.check == check) return r;
  }
  static const CheckResult kNone;
  ADD_FAILURE() << "no result for " << check;
  return kNone;
}

// Every check of the registered suite on a run whose NCCL log is `text`, as a run judges them.
std::vector<CheckResult> JudgeLogText(const std::string& text, const Profile& profile) {
  ClusterRaw raw;
  raw.cluster["nccl-debug-log"] = {ProbeStatus::kOk, text, "cluster/nccl-debug.log", ""};
  return test_support::JudgeRegistered(kSuite, raw, profile);
}

constexpr Verdict P = Verdict::kPass, F = Verdict::kFail, E = Verdict::kError, S = Verdict::kSkip;

std::map<std::string, Verdict> V(Verdict network, Verdict devices, Verdict gdr, Verdict intra, Verdict socket,
                                 Verdict env, Verdict errors) {
  return {{kInterNodeChannelsUseProfileNetwork, network}, {kNetIbDevicesMatchRails, devices},
          {kGpuDirectRdmaOnInterNodeChannels, gdr},       {kIntraNodeChannelsOverNvlink, intra},
          {kSocketInterfaceIsFabric, socket},             {kEnvironmentAudit, env},
          {kNoNcclErrors, errors}};
}

// ---- realdata ------------------------------------------------------------------------------

TEST(NcclTransportRealdata, EveryLogJudgedAsItsSourceSays) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  struct Case {
    std::string file;
    Profile profile;
    std::map<std::string, Verdict> expected;
    std::string why;
  };
  const Profile h100 = Builtin("h100-sxm-8");
  const std::vector<Case> cases = {
      {"azure-ndv5-mlx5_1-roce-nic-misnamed.txt", h100, V(P, F, E, E, P, P, F),
       "a RoCE device among the 8 NDR rails + topology WARN: the NIC check and the error scan fail; what the "
       "excerpt lacks (channels, GDR for 7 HCAs) is an error, not a pass"},
      {"gke-ncclRemoteError-peer-killed.txt", h100, V(E, E, E, E, E, P, F),
       "ncclRemoteError after a peer died: the error scan fails"},
      {"koordinator-2pod-p40-roce-vf-allreduce.txt", RocePodProfile(), V(P, P, S, S, P, P, P),
       "RoCE transport correctly selected: transport checks pass"},
      {"koordinator-2pod-p40-roce-vf-allreduce.txt", h100, V(P, F, E, E, P, P, P),
       "the transport is right, but one 25G RoCE VF is not an H100 node's 8 NDR rails"},
  };
  for (const auto& c : cases) {
    const auto text = ReadFileIfPresent(kRealdata + "/" + c.file);
    ASSERT_TRUE(text) << c.file;
    const auto results = JudgeLogText(*text, c.profile);
    EXPECT_EQ(VerdictsByCheck(results), c.expected)
        << c.file << " with " << c.profile.name << " (" << c.why << ")\n" << Describe(results);
  }
}

TEST(NcclTransportRealdata, FindingsNameHostRankDeviceAndFix) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const Profile h100 = Builtin("h100-sxm-8");
  auto azure = ParseNcclLog(*ReadFileIfPresent(kRealdata + "/azure-ndv5-mlx5_1-roce-nic-misnamed.txt"), "azure");
  ASSERT_TRUE(azure);
  const auto devices = CheckNetIbDevicesMatchRails(*azure, h100);
  ASSERT_EQ(devices.findings.size(), 2u) << Describe({devices});
  EXPECT_NE(devices.findings[0].message.find("elsah100"), std::string::npos);
  EXPECT_NE(devices.findings[0].message.find("9 device(s)"), std::string::npos) << devices.findings[0].message;
  EXPECT_EQ(devices.findings[1].entity, "elsah100/mlx5_1");
  EXPECT_NE(devices.findings[1].message.find("is RoCE, expected IB"), std::string::npos);
  EXPECT_NE(devices.findings[1].message.find("NCCL_IB_HCA"), std::string::npos);
  const auto warn = CheckNoNcclErrors(*azure);
  ASSERT_EQ(warn.findings.size(), 1u);
  EXPECT_NE(warn.findings[0].message.find("graph/xml.h:85 NCCL WARN Attribute busid of node nic not found"),
            std::string::npos)
      << warn.findings[0].message;
  EXPECT_NE(warn.findings[0].message.find("NCCL_TOPO_FILE"), std::string::npos);

  auto gke = ParseNcclLog(*ReadFileIfPresent(kRealdata + "/gke-ncclRemoteError-peer-killed.txt"), "gke");
  ASSERT_TRUE(gke);
  EXPECT_EQ(gke->versions.front(), "2.22.3+cuda12.6");
  const auto errors = CheckNoNcclErrors(*gke);
  ASSERT_EQ(errors.verdict, Verdict::kFail);
  bool remote_on_rank0 = false;
  bool crash_on_host = false;
  for (const auto& f : errors.findings) {
    remote_on_rank0 = remote_on_rank0 || (f.code == "nccl-remote-error" && Contains(f.message, "rank 0") &&
                                          Contains(f.message, "another rank"));
    crash_on_host = crash_on_host || (f.code == "nccl-crash" && f.entity.rfind("nccl-hang-0", 0) == 0);
  }
  EXPECT_TRUE(remote_on_rank0) << Describe({errors});
  EXPECT_TRUE(crash_on_host) << Describe({errors});
  for (const auto& f : errors.findings) EXPECT_EQ(f.message.find("DIAGNOSIS"), std::string::npos) << "comment judged";

  auto pods = ParseNcclLog(*ReadFileIfPresent(kRealdata + "/koordinator-2pod-p40-roce-vf-allreduce.txt"), "koordinator");
  ASSERT_TRUE(pods);
  ASSERT_EQ(pods->net_inits.size(), 2u);
  EXPECT_EQ(pods->net_inits[0].devices[0].name, "mlx5_2");
  EXPECT_EQ(pods->net_inits[0].devices[0].link_layer, "RoCE");
  EXPECT_EQ(pods->net_inits[0].oob_ifname, "eth0");
  EXPECT_EQ(pods->networks[0].text, "IBext_v8");
  EXPECT_EQ(pods->env[0].name, "NCCL_SOCKET_IFNAME");
  EXPECT_EQ(pods->env[0].value, "eth0");
  EXPECT_EQ(pods->bootstraps[0].text, "eth0");
  EXPECT_EQ(pods->RankOf(pods->ranks[0].source), 0);
}

TEST(NcclTransportRealdata, SurvivesEveryTruncationOfEveryLog) {
  if (!std::filesystem::is_directory(kRealdata)) GTEST_SKIP() << "no realdata at " << kRealdata;
  const Profile h100 = Builtin("h100-sxm-8");
  for (const auto& entry : std::filesystem::directory_iterator(kRealdata)) {
    if (entry.path().string().find(".source.") != std::string::npos) continue;
    const std::string text = *ReadFileIfPresent(entry.path().string());
    for (std::size_t length = 0; length <= text.size(); ++length) (void)JudgeLogText(text.substr(0, length), h100);
  }
  SUCCEED();
}

// ---- parser ----------------------------------------------------------------------------------

TEST(NcclTransportParse, ChannelLinesOfEveryNcclGeneration) {
  const std::string text =
      "node1:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n"
      "node1:100:200 [0] NCCL INFO Channel 01/0 : 15[7] -> 0[0] [receive] via NET/IB/0(1)/GDRDMA\n"
      "node1:100:200 [0] NCCL INFO Channel 02 : 0[7000] -> 1[b000] via P2P/IPC\n"
      "node1:100:200 [0] NCCL INFO Channel 03/1 : 0[0] -> 1[1] via P2P/CUMEM/read\n"
      "node1:100:200 [0] NCCL INFO Ring 00 : 0[0] -> 1[1] via SHM/direct/direct\n"
      "[1,0]<stdout>:node1:100:200 [0] NCCL INFO Channel 04/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA\n"
      "node1:100:200 [0] NCCL INFO Channel 05/0 : 0[0] -> 8[0] [send] via NET/Socket/1\n";
  const auto log = test_support::Parsed(ParseNcclLog(text, "t"));
  ASSERT_EQ(log.channels.size(), 7u);
  EXPECT_EQ(log.channels[0].net, "IB");
  EXPECT_TRUE(log.channels[0].gdr);
  EXPECT_EQ(log.channels[0].source.host, "node1");
  EXPECT_EQ(log.channels[0].source.pid, 100);
  EXPECT_EQ(log.channels[1].direction, "receive");
  EXPECT_EQ(log.channels[1].from_rank, 15);
  EXPECT_EQ(log.channels[2].kind, TransportKind::kP2p);
  EXPECT_EQ(log.channels[2].channel, "02");
  EXPECT_EQ(log.channels[4].kind, TransportKind::kShm);
  EXPECT_EQ(log.channels[5].net, "AWS Libfabric");
  EXPECT_EQ(log.channels[5].source.host, "node1");
  EXPECT_EQ(log.channels[6].net, "Socket");
  EXPECT_FALSE(log.channels[6].gdr);
}

TEST(NcclTransportParse, TextWithoutNcclOutputIsAnErrorSayingHowToCaptureIt) {
  auto log = ParseNcclLog("hello\nworld\n", "cluster/nccl-debug.log");
  test_support::ExpectErrorStartingWith(log, "cluster/nccl-debug.log:1: no NCCL output in 2 line(s)");
  EXPECT_NE(log.error().find("NCCL_DEBUG=INFO"), std::string::npos);
}

TEST(NcclTransportParse, SurvivesRandomBytes) {
  const Profile h100 = Builtin("h100-sxm-8");
  // Each noise string starts as a line NCCL writes, or as nothing.
  const std::vector<std::string> starts = {"", "h:1:2 [0] NCCL INFO Channel ", "h:1:2 [0] NCCL INFO NET/IB : Using [",
                                           "x NCCL WARN ", "[rank"};
  test_support::ForEachNoisyString({.seed = 99, .count = 5000, .max_extra = 173, .starts = starts},
                                   [&h100](const std::string& bytes) { (void)JudgeLogText(bytes, h100); });
  SUCCEED();
}

TEST(NcclTransportParse, EnormousLogKeepsMemoryBoundedAndCountsWhatItDropped) {
  const std::string line = "node1:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n";
  std::string text;
  text.reserve(line.size() * (kMaxChannels + 50000) + kMaxLineBytes * 4);
  for (std::size_t i = 0; i < kMaxChannels + 50000; ++i) text += line;
  text += std::string(kMaxLineBytes * 3, 'x') + " NCCL WARN a very long line\n";
  auto log = ParseNcclLog(text, "big");
  ASSERT_TRUE(log);
  EXPECT_EQ(log->channels.size(), kMaxChannels);
  EXPECT_GE(log->dropped, 50000u);
  EXPECT_EQ(log->lines, kMaxChannels + 50001);
  const auto results = JudgeLogText(text, Builtin("h100-sxm-8"));
  EXPECT_EQ(Result(results, kInterNodeChannelsUseProfileNetwork).verdict, Verdict::kPass);
}

// The log a check test judges: parsed, or an empty one after the failure is recorded, so that a
// broken test text fails the test instead of crashing it.
NcclLog MustParse(std::string_view text) {
  auto log = ParseNcclLog(text, "t");
  EXPECT_TRUE(log) << log.error();
  return log ? *log : NcclLog{};
}

// ---- checks, one failure each ---------------------------------------------------------------

TEST(NcclTransportChecks, EnvironmentAuditNamesEachDefeatingSetting) {
  const NcclLog log = MustParse(
      "n1:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
      "n2:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
      "n1:1:1 [0] NCCL INFO NCCL_NET set by environment to Socket\n"
      "n1:1:1 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC\n"
      "n1:1:1 [0] NCCL INFO NCCL_DEBUG set by environment to INFO\n");
  const auto r = CheckEnvironmentAudit(log, Builtin("h100-sxm-8"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 3u) << Describe({r});
  EXPECT_EQ(r.findings[0].message.rfind("n1, n2: NCCL_IB_DISABLE=1 (first at line 1) disables InfiniBand", 0), 0u)
      << r.findings[0].message;
}

TEST(NcclTransportChecks, SocketInterfaceNamesTheFixForTheProfileInterface) {
  const NcclLog log = MustParse(*ReadFileIfPresent(kFixtures + "/nccl-socket-fallback-eth0/cluster/nccl-debug.log"));
  const auto r = CheckSocketInterfaceIsFabric(log, SocketOnEns1Profile());
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].entity, "gpu-node-01/eth0");
  EXPECT_NE(r.findings[0].message.find("set NCCL_SOCKET_IFNAME=ens1"), std::string::npos) << r.findings[0].message;
  // Over sockets the network is right; the interface is what is wrong.
  EXPECT_EQ(CheckInterNodeChannelsUseProfileNetwork(log, SocketOnEns1Profile()).verdict, Verdict::kPass);
}

TEST(NcclTransportChecks, SocketIfnameSelectingTheForbiddenInterfaceFails) {
  const NcclLog log = MustParse(
      "n1:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth\n"
      "n1:1:1 [0] NCCL INFO Bootstrap : Using ens1:10.20.0.1<0>\n");
  Profile profile = SocketOnEns1Profile();
  const auto r = CheckSocketInterfaceIsFabric(log, profile);
  ASSERT_EQ(r.verdict, Verdict::kFail) << Describe({r});
  EXPECT_EQ(r.findings[0].code, "nccl-socket-not-fabric");
  auto pinned = ParseNcclLog("n1:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to =ens1\n", "t");
  EXPECT_EQ(CheckSocketInterfaceIsFabric(*pinned, profile).verdict, Verdict::kPass);
}

TEST(NcclTransportChecks, TimeoutWarningFailsTheErrorScanWithRank) {
  const auto r = CheckNoNcclErrors(
      MustParse("n1:7:8 [3] NCCL INFO comm 0x1 rank 11 nRanks 16 nNodes 2 localRanks 8 localRank 3 MNNVL 0\n"
                "n1:7:8 [3] misc/socket.cc:50 NCCL WARN socketPollConnect: Connect to 10.1.0.12<4321> returned "
                "110(Connection timed out)\n"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].entity, "n1/rank11");
  EXPECT_NE(r.findings[0].message.find("misc/socket.cc:50 NCCL WARN socketPollConnect"), std::string::npos);
}

TEST(NcclTransportChecks, NoDeviceFoundWithoutChannelsFailsTheNetworkCheck) {
  const NcclLog log = MustParse(
      "n1:1:2 [0] NCCL INFO NET/IB : No device found.\n"
      "n1:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
      "n1:1:2 [0] NCCL INFO Using network Socket\n");
  const auto r = CheckInterNodeChannelsUseProfileNetwork(log, Builtin("h100-sxm-8"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(r.findings[0].message.find("'Using network Socket'"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("NET/IB found no device on n1"), std::string::npos) << r.findings[0].message;
}

TEST(NcclTransportChecks, GdrDisabledLineFailsWithoutChannels) {
  const auto r = CheckGpuDirectRdmaOnInterNodeChannels(
      MustParse("n1:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.1<0>\n"
                "n1:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n"),
      Builtin("h100-sxm-8"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].entity, "n1/mlx5_0");
}

TEST(NcclTransportSuite, ProfileWithoutGpusSkipsEveryCheckWhenNoLogExists) {
  ClusterRaw raw;
  raw.cluster["nccl-debug-log"] = {ProbeStatus::kToolMissing, "", "", "GPUCONFORM_NCCL_LOG is not set"};
  for (const auto& r : test_support::JudgeRegistered(kSuite, raw, Builtin("local"))) {
    EXPECT_EQ(r.verdict, Verdict::kSkip) << r.check;
  }
  const auto errors = test_support::JudgeRegistered(kSuite, raw, Builtin("h100-sxm-8"));
  ASSERT_EQ(errors.size(), 7u);
  for (const auto& r : errors) {
    EXPECT_EQ(r.verdict, Verdict::kError) << r.check;
    EXPECT_EQ(r.findings.at(0).code, "tool-missing") << r.check;
  }
}

// Through the registered suite: a log that was not obtained is each applicable check's error
// with the probe's status as its code and how to provide the log; one that does not parse is
// "unparseable", quoting the parser.
TEST(NcclTransportSuite, ALogNotObtainedOrNotParsedIsEachApplicableChecksError) {
  ClusterRaw raw;
  const auto absent = test_support::JudgeRegistered(kSuite, raw, Builtin("h100-sxm-8"));
  ASSERT_EQ(absent.size(), 7u);
  EXPECT_EQ(absent[0].TestName(), "NcclTransport.InterNodeChannelsUseProfileNetwork");
  EXPECT_EQ(absent[0].verdict, Verdict::kError);
  EXPECT_EQ(absent[0].findings[0].code, "file-absent");
  EXPECT_EQ(absent[0].findings[0].entity, "cluster");
  EXPECT_EQ(absent[0].findings[0].message.rfind("no cluster-wide nccl-debug-log output was collected; gpuconform's "
                                                "own NCCL run makes it",
                                                0),
            0u)
      << absent[0].findings[0].message;
  ClusterRaw garbled;
  garbled.cluster["nccl-debug-log"] = {ProbeStatus::kOk, "no NCCL here\n", "cluster/nccl-debug.log", ""};
  const auto unparseable = test_support::JudgeRegistered(kSuite, garbled, Builtin("h100-sxm-8"));
  ASSERT_EQ(unparseable.size(), 7u);
  EXPECT_EQ(unparseable[0].verdict, Verdict::kError);
  EXPECT_EQ(unparseable[0].findings[0].code, "unparseable");
  EXPECT_EQ(unparseable[0].findings[0].message.rfind("cluster/nccl-debug.log", 0), 0u)
      << unparseable[0].findings[0].message;
  for (const auto& r : test_support::JudgeRegistered(kSuite, garbled, Builtin("local"))) {
    EXPECT_EQ(r.verdict, Verdict::kSkip) << r.TestName();
  }
}

// ---- fixture snapshots, judged through the registered suite -------------------------------

std::map<std::string, Verdict> JudgeSnapshot(const std::string& name, std::string* messages) {
  const auto results = test_support::EvaluateSuiteOnSnapshot(kSuite, kFixtures + "/" + name, Builtin("h100-sxm-8"));
  *messages = Describe(results);
  return VerdictsByCheck(results);
}

TEST(NcclTransportFixtures, EachSnapshotFailsExactlyTheRightChecks) {
  struct Case {
    std::string snapshot;
    std::vector<std::string> failing;
  };
  const std::vector<Case> cases = {
      {"nccl-h100-2node-healthy", {}},
      {"nccl-socket-fallback-eth0",
       {kInterNodeChannelsUseProfileNetwork, kNetIbDevicesMatchRails, kGpuDirectRdmaOnInterNodeChannels,
        kSocketInterfaceIsFabric}},
      {"nccl-mixed-gdr", {kGpuDirectRdmaOnInterNodeChannels}},
      {"nccl-shm-intra-node", {kIntraNodeChannelsOverNvlink, kEnvironmentAudit}},
  };
  for (const auto& c : cases) {
    std::map<std::string, Verdict> expected;
    for (const auto& check : test_support::RegisteredSuite(kSuite).checks) expected[check.name] = Verdict::kPass;
    for (const auto& check : c.failing) expected[check] = Verdict::kFail;
    std::string messages;
    EXPECT_EQ(JudgeSnapshot(c.snapshot, &messages), expected) << c.snapshot << "\n" << messages;
  }
}

TEST(NcclTransportFixtures, MixedGdrNamesTheRankHostAndChannels) {
  auto log = ParseNcclLog(*ReadFileIfPresent(kFixtures + "/nccl-mixed-gdr/cluster/nccl-debug.log"), "t");
  ASSERT_TRUE(log);
  const auto r = CheckGpuDirectRdmaOnInterNodeChannels(*log, Builtin("h100-sxm-8"));
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].entity, "gpu-node-02/rank15/channel00/0");
  EXPECT_EQ(r.findings[0].message.rfind("gpu-node-02 rank 15: channels 00/0, 01/0 [send] with rank 0 (gpu-node-01) "
                                        "via NET/IB/7",
                                        0),
            0u)
      << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("mixed: 6 of 8"), std::string::npos);
}

TEST(NcclTransportFixtures, HealthyLogIsTruncationSafe) {
  const std::string text = *ReadFileIfPresent(kFixtures + "/nccl-h100-2node-healthy/cluster/nccl-debug.log");
  const Profile h100 = Builtin("h100-sxm-8");
  for (std::size_t length = 0; length <= text.size(); length += 13) (void)JudgeLogText(text.substr(0, length), h100);
  SUCCEED();
}

// ---- enormous, long-lined and cut-off logs ---------------------------------------------------

TEST(NcclTransportParse, AVeryLongLineOfGarbageIsAClearErrorNotACrash) {
  const std::string garbage(64u << 20, 'x');
  auto log = ParseNcclLog(garbage, "huge.log");
  test_support::ExpectErrorStartingWith(log, "huge.log:1: no NCCL output in 1 line(s)");
}

TEST(NcclTransportParse, VeryLongLinesKeepOnlyClippedFields) {
  const std::string tail(32u << 20, 'A');
  const std::string text =
      "gpu-node-01:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA" + tail + "\n" +
      "gpu-node-01:1:2 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ens1" + tail + "\n" + tail + "\n" +
      "gpu-node-01:1:2 [0] NCCL INFO NET/IB : Using " + [] {
        std::string devices;
        for (int i = 0; i < 2000; ++i) devices += "[" + std::to_string(i) + "]mlx5_" + std::to_string(i) + ":1/IB ";
        return devices;
      }() + "\n";
  const auto log = test_support::Parsed(ParseNcclLog(text, "long.log"));
  EXPECT_EQ(log.lines, 4u);
  ASSERT_EQ(log.channels.size(), 1u);
  EXPECT_EQ(log.channels[0].net, "IB");
  EXPECT_TRUE(log.channels[0].gdr);
  EXPECT_LE(log.channels[0].via.size(), kMaxFieldBytes);
  ASSERT_EQ(log.env.size(), 1u);
  EXPECT_LE(log.env[0].value.size(), kMaxFieldBytes);
  ASSERT_EQ(log.net_inits.size(), 1u);
  EXPECT_EQ(log.net_inits[0].devices.size(), kMaxDevicesPerInit);
  (void)JudgeLogText(text, Builtin("h100-sxm-8"));
}

TEST(NcclTransportParse, LogCutInsideALineIsJudgedOnItsWholeLinesAndSaysSo) {
  const std::string text = *ReadFileIfPresent(kFixtures + "/nccl-h100-2node-healthy/cluster/nccl-debug.log");
  const std::string marker = "[send] via NET/IB/7/GDRDMA";
  const auto at = text.find(marker);
  ASSERT_NE(at, std::string::npos);
  const auto line_start = text.rfind('\n', at) + 1;
  const std::string whole_lines = text.substr(0, line_start);
  const std::string cut = text.substr(0, at + std::string("[send] via NET/I").size());  // "via NET/I": no such net
  const Profile h100 = Builtin("h100-sxm-8");
  auto reference = ParseNcclLog(whole_lines, "whole");
  auto truncated = ParseNcclLog(cut, "cut");
  ASSERT_TRUE(reference && truncated);
  EXPECT_EQ(truncated->channels.size(), reference->channels.size());
  EXPECT_EQ(truncated->cut_last_line, static_cast<int>(std::count(whole_lines.begin(), whole_lines.end(), '\n')) + 1);
  const auto reference_results = JudgeLogText(whole_lines, h100);
  const auto truncated_results = JudgeLogText(cut, h100);
  ASSERT_EQ(reference_results.size(), truncated_results.size());
  for (std::size_t i = 0; i < reference_results.size(); ++i) {
    EXPECT_EQ(truncated_results[i].verdict, reference_results[i].verdict) << truncated_results[i].check;
    const auto& m = truncated_results[i].measurements;
    EXPECT_TRUE(std::any_of(m.begin(), m.end(), [](const Measurement& x) { return x.name == "log_cut_off"; }))
        << truncated_results[i].check;
  }
  // A single line without a newline is a whole (if short) log, not a cut one.
  auto one = ParseNcclLog("n1:1:2 [0] NCCL INFO Using network IB", "one");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->cut_last_line, 0);
  EXPECT_EQ(one->networks.size(), 1u);
}

TEST(NcclTransportParse, FactsAreCappedAndCountedOnALogOfManyMegabytes) {
  std::string text;
  text.reserve(40u << 20);
  for (int i = 0; text.size() < (40u << 20); ++i) {
    text += "gpu-node-0" + std::to_string(i % 2 + 1) + ":1:2 [0] NCCL INFO Channel 00/0 : " + std::to_string(i % 16) +
            "[0] -> " + std::to_string((i + 8) % 16) + "[0] [send] via NET/IB/0/GDRDMA\n";
  }
  auto log = ParseNcclLog(text, "big");
  ASSERT_TRUE(log);
  EXPECT_EQ(log->channels.size(), kMaxChannels);
  EXPECT_EQ(log->dropped, log->lines - kMaxChannels);
}

}  // namespace
}  // namespace gpuconform::nccl_transport
