// Torchrun suite: the checks on real runs recorded on the local cluster (healthy, Debian's
// unpatched launcher, two launchers per node, MASTER_ADDR on a node other than SLURM_NODEID
// 0, every rank writing the checkpoint), and each check made to fail on an edited report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "probes/torchrun/torchrun_facts.h"
#include "probes/torchrun/torchrun_parse.h"
#include "probes/torchrun/torchrun_probe.h"
#include "suites/torchrun/torchrun_checks.h"
#include "suites/torchrun/worker_deaths.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::torchrun {
namespace {

using test_support::Describe;
using test_support::VerdictsByCase;

std::vector<CheckResult> OnSnapshot(const std::string& name) {
  return test_support::EvaluateSuiteOnSnapshot("Torchrun", test_support::FixtureDir("local-3node-torchrun-" + name),
                                               test_support::BuiltinProfile("local"));
}

const CheckResult& Case(const std::vector<CheckResult>& results, const std::string& name) {
  for (const auto& result : results) {
    if (result.CaseName() == name) return result;
  }
  static const CheckResult kMissing{};
  ADD_FAILURE() << "no case " << name << "\n" << Describe(results);
  return kMissing;
}

bool AnyFindingHas(const CheckResult& result, const std::string& code, const std::string& part) {
  for (const auto& finding : result.findings) {
    if (finding.code == code && finding.message.find(part) != std::string::npos) return true;
  }
  return false;
}

std::string HealthyOutput(const std::string& node) {
  return test_support::ReadFile(test_support::FixtureDir("local-3node-torchrun-healthy") + "/nodes/" + node +
                                "/torchrun.txt");
}

// The recorded healthy run, parsed, for edits that break one thing at a time.
NodeFacts<NodeTorchrunReport> Healthy() {
  NodeFacts<NodeTorchrunReport> facts;
  for (const std::string node : {"node1", "node2", "node3"}) {
    facts.Add(node, ParseTorchrunReport(HealthyOutput(node), node, node + "/torchrun.txt"));
  }
  return facts;
}

const std::vector<std::string> kNodes = {"node1", "node2", "node3"};

Profile Local() { return test_support::BuiltinProfile("local"); }

// A node's per-node check, judged on its own report and what it reads of the others'.
CheckResult LauncherStarted(const NodeFacts<NodeTorchrunReport>& facts, const std::string& node) {
  return CheckLauncherStarted(facts.read.at(node), SummarizeNodes(facts));
}

CheckResult DataLoader(const NodeFacts<NodeTorchrunReport>& facts, const std::string& node,
                       const Profile& profile = Local()) {
  return CheckDataLoaderThroughput(facts.read.at(node), SummarizeNodes(facts), profile);
}

// Every case, each check judged and then put through the workers' deaths, as the suite does:
// what a death changes and what it leaves alone.
std::vector<CheckResult> EveryCaseAfterDeaths(const NodeFacts<NodeTorchrunReport>& facts) {
  const WorkerDeaths deaths = FindWorkerDeaths(facts);
  std::vector<CheckResult> cases = {
      WithWorkerDeaths(CheckMasterPortOpen(facts), kMasterPortOpen, "", deaths),
      WithWorkerDeaths(CheckRanksConsistent(facts), kRanksConsistent, "", deaths),
      WithWorkerDeaths(CheckCollectiveCorrect(facts, Local()), kCollectiveCorrect, "", deaths),
      WithWorkerDeaths(CheckSamplerShards(facts), kSamplerShardsDisjoint, "", deaths),
      WithWorkerDeaths(CheckCheckpointRankZero(facts), kCheckpointRankZero, "", deaths),
  };
  for (const auto& node : kNodes) {
    const NodeTorchrunReport& report = facts.read.at(node);
    cases.push_back(WithWorkerDeaths(LauncherStarted(facts, node), kLauncherStarted, node, deaths));
    cases.push_back(WithWorkerDeaths(CheckOneLauncherPerNode(report), kOneLauncherPerNode, node, deaths));
    cases.push_back(WithWorkerDeaths(CheckDevicesDistinct(report), kDevicesDistinct, node, deaths));
    cases.push_back(WithWorkerDeaths(DataLoader(facts, node), kDataLoaderThroughput, node, deaths));
  }
  return cases;
}

TEST(TorchrunChecks, HealthyRunConformsEveryCaseButTheGpuOne) {
  const auto results = OnSnapshot("healthy");
  for (const auto& [name, verdict] : VerdictsByCase(results)) {
    if (name.starts_with("DevicesDistinct/") || name == "JobLogLaunch") {
      EXPECT_EQ(verdict, Verdict::kSkip) << name;
    } else {
      EXPECT_EQ(verdict, Verdict::kPass) << name << "\n" << Describe(results);
    }
  }
  EXPECT_EQ(Case(results, "DevicesDistinct/node1").findings.at(0).message,
            "the workers run on CPUs (gloo backend): there is no GPU to hand out");
}

TEST(TorchrunChecks, DebiansUnpatchedTorchrunIsNamedWithItsExceptionAndFix) {
  const auto results = OnSnapshot("unpatched-launcher");
  for (const std::string node : {"node1", "node2", "node3"}) {
    const CheckResult& started = Case(results, "LauncherStarted/" + node);
    ASSERT_EQ(started.verdict, Verdict::kFail) << Describe(results);
    EXPECT_TRUE(AnyFindingHas(started, "torchrun-crashed", "AttributeError: 'NoneType' object has no attribute 'get'"));
    EXPECT_TRUE(AnyFindingHas(started, "torchrun-crashed", "/usr/bin/torchrun (torch 1.13"));
    EXPECT_TRUE(AnyFindingHas(started, "torchrun-crashed", "Std.from_str on Python 3.11"));
    EXPECT_EQ(started.findings.at(0).entity, node);
  }
  // What ran after the launcher is not judged twice.
  EXPECT_EQ(Case(results, "RanksConsistent").verdict, Verdict::kSkip);
  EXPECT_EQ(Case(results, "CheckpointRankZero").verdict, Verdict::kSkip);
}

TEST(TorchrunChecks, TwoLaunchersPerNodeAreNamedOnEveryNode) {
  const auto results = OnSnapshot("two-launchers-per-node");
  for (const std::string node : {"node1", "node2", "node3"}) {
    const CheckResult& one = Case(results, "OneLauncherPerNode/" + node);
    ASSERT_EQ(one.verdict, Verdict::kFail) << Describe(results);
    EXPECT_TRUE(AnyFindingHas(one, "torchrun-duplicated", node + ": 2 torchrun launchers"));
    EXPECT_TRUE(AnyFindingHas(one, "torchrun-duplicated", "--ntasks-per-node=1"));
  }
  EXPECT_TRUE(AnyFindingHas(Case(results, "OneLauncherPerNode/node1"), "torchrun-duplicated", "Address already in use"));
  EXPECT_TRUE(AnyFindingHas(Case(results, "RanksConsistent"), "rank-env-wrong", "is held by 2 workers"));
  // The job's own output of the same mistake, kept in the snapshot as cluster/job.log.
  const CheckResult& log = Case(results, "JobLogLaunch");
  EXPECT_EQ(log.verdict, Verdict::kFail) << Describe(results);
  EXPECT_TRUE(AnyFindingHas(log, "rendezvous-port-in-use", "29555"));
}

TEST(TorchrunChecks, MasterAddrOnAnotherNodeIsNamedWithTheNodeThatHostsTheRendezvous) {
  const auto results = OnSnapshot("master-addr-not-node0");
  const CheckResult& port = Case(results, "MasterPortOpen");
  ASSERT_EQ(port.verdict, Verdict::kFail) << Describe(results);
  EXPECT_TRUE(AnyFindingHas(port, "rendezvous-unreachable",
                            "MASTER_ADDR=node2 is not node1, the node with SLURM_NODEID 0 that hosts the rendezvous"));
  // No launcher is started where the rendezvous cannot work: each would only wait out its deadline.
  const CheckResult& started = Case(results, "LauncherStarted/node3");
  EXPECT_EQ(started.verdict, Verdict::kSkip);
  EXPECT_NE(started.findings.at(0).message.find("node3: torchrun was not started: the rendezvous cannot work"),
            std::string::npos);
}

TEST(TorchrunChecks, EveryRankWritingTheCheckpointIsDetected) {
  const auto results = OnSnapshot("checkpoint-every-rank-writes");
  const CheckResult& checkpoint = Case(results, "CheckpointRankZero");
  ASSERT_EQ(checkpoint.verdict, Verdict::kFail) << Describe(results);
  EXPECT_TRUE(AnyFindingHas(checkpoint, "checkpoint-not-rank-zero", "6 ranks wrote the checkpoint"));
}

TEST(TorchrunChecks, MissingLauncherIsAConfigurationFailureNamingHowToSetIt) {
  auto facts = Healthy();
  auto& launcher = facts.read.at("node3").launchers.at(0);
  launcher.state = "missing";
  launcher.detail = "torchrun (from the default, on PATH) is not on PATH or not executable";
  facts.read.at("node3").workers.clear();
  EXPECT_TRUE(AnyFindingHas(LauncherStarted(facts, "node3"), "torchrun-missing", "GPUCONFORM_TORCHRUN"));
  EXPECT_EQ(LauncherStarted(facts, "node1").verdict, Verdict::kPass);
}

TEST(TorchrunChecks, RendezvousTimeoutNamesTheNodeThatNeverJoined) {
  auto facts = Healthy();
  for (const std::string node : {"node1", "node2"}) {
    facts.read.at(node).launchers.at(0).state = "timed-out";
    facts.read.at(node).workers.clear();
  }
  facts.read.at("node3").launchers.at(0).state = "crashed";
  facts.read.at("node3").workers.clear();
  EXPECT_TRUE(AnyFindingHas(LauncherStarted(facts, "node1"), "torchrun-rendezvous-timeout",
                            "never joined: node3 (its launcher crashed)"));
}

TEST(TorchrunChecks, WrongRanksAndNodeRankFromProcidAreNamed) {
  auto facts = Healthy();
  facts.read.at("node2").workers.at(1).rank = 5;  // RANK not node_rank x nproc + LOCAL_RANK
  facts.read.at("node3").launchers.at(0).slurm_nodeid = "1";
  const CheckResult ranks = CheckRanksConsistent(facts);
  ASSERT_EQ(ranks.verdict, Verdict::kFail);
  EXPECT_TRUE(AnyFindingHas(ranks, "rank-env-wrong", "RANK=5, expected node_rank x nproc_per_node + LOCAL_RANK"));
  EXPECT_TRUE(AnyFindingHas(ranks, "rank-env-wrong", "RANK 5 is held by 2 workers"));
  EXPECT_TRUE(AnyFindingHas(ranks, "rank-env-wrong", "node_rank 2 but SLURM_NODEID=1"));
}

TEST(TorchrunChecks, TwoWorkersOnOneGpuAreNamedOnGpuProfiles) {
  auto facts = Healthy();
  for (auto& [node, report] : facts.read) {
    for (auto& worker : report.workers) {
      worker.backend = "nccl";
      worker.device = "cuda:" + std::to_string(worker.local_rank);
      worker.device_uuid = "GPU-" + node + "-" + std::to_string(worker.local_rank);
    }
  }
  facts.read.at("node2").workers.at(1).device_uuid = facts.read.at("node2").workers.at(0).device_uuid;
  EXPECT_EQ(CheckDevicesDistinct(facts.read.at("node1")).verdict, Verdict::kPass);
  EXPECT_TRUE(
      AnyFindingHas(CheckDevicesDistinct(facts.read.at("node2")), "gpu-shared-by-workers", "ranks 2, 3 all hold"));
}

TEST(TorchrunChecks, WrongSumFailedInitAndSlowBackendFailTheCollective) {
  auto facts = Healthy();
  facts.read.at("node1").workers.at(1).allreduces.at(0).got = 20;
  facts.read.at("node3").workers.at(0).init_ok = false;
  facts.read.at("node3").workers.at(0).init_error = "RuntimeError: Connection refused";
  Profile profile = test_support::BuiltinProfile("local");
  TorchrunExpectation torchrun = *profile.Get<TorchrunExpectation>();
  torchrun.busbw_floor_gb_per_s = 1000;
  torchrun.source = "a test floor";
  profile.Set(torchrun);
  const CheckResult collective = CheckCollectiveCorrect(facts, profile);
  ASSERT_EQ(collective.verdict, Verdict::kFail);
  EXPECT_TRUE(AnyFindingHas(collective, "allreduce-results-wrong", "gave 20 (expected 21)"));
  EXPECT_TRUE(AnyFindingHas(collective, "process-group-init-failed", "RuntimeError: Connection refused"));
  EXPECT_TRUE(AnyFindingHas(collective, "busbw-below-floor", "below the floor of 1000 GB/s (a test floor)"));
  // The stages inside the group could not run everywhere: skipped, not blamed twice.
  EXPECT_EQ(CheckSamplerShards(facts).verdict, Verdict::kSkip);
  EXPECT_EQ(DataLoader(facts, "node1").verdict, Verdict::kSkip);
}

TEST(TorchrunChecks, ANcclBackendFarBelowTheRunsOwnNcclSweepIsNamedWithItsChannels) {
  auto facts = Healthy();
  for (auto& [node, report] : facts.read) {
    for (auto& worker : report.workers) {
      worker.backend = "nccl";
      worker.allreduces.at(0).busbw_gb_per_s = 20;
      worker.transport_lines = {"node1:1234:1240 [0] NCCL INFO Channel 00/0 : 0[0] -> 2[0] [send] via NET/Socket/0"};
    }
  }
  SweepReference sweep{"gpuconform's NCCL run", {{512 << 10, 90}, {1 << 20, 150}, {4 << 20, 300}}, true};
  const CheckResult collective = CheckCollectiveCorrect(facts, Local(), sweep);
  ASSERT_EQ(collective.verdict, Verdict::kFail) << Describe({collective});
  EXPECT_TRUE(AnyFindingHas(collective, "backend-below-sweep", "13% of gpuconform's NCCL run's 150.000 GB/s at 1 MiB"));
  EXPECT_TRUE(AnyFindingHas(collective, "backend-below-sweep", "via NET/Socket/0"));
  // At the sweep's speed it conforms; against the MPI sweep (gloo) it is recorded, never judged.
  sweep.busbw_by_size = {{1 << 20, 30}};
  EXPECT_EQ(CheckCollectiveCorrect(facts, Local(), sweep).verdict, Verdict::kPass);
  SweepReference mpi{"the MPI sweep", {{1 << 20, 150}}, false};
  const CheckResult against_mpi = CheckCollectiveCorrect(facts, Local(), mpi);
  EXPECT_EQ(against_mpi.verdict, Verdict::kPass);
  bool recorded = false;
  for (const auto& m : against_mpi.measurements) {
    recorded = recorded || (m.name == "busbw_over_sweep@1 MiB" && m.source.find("recorded, not judged") != std::string::npos);
  }
  EXPECT_TRUE(recorded);
}

TEST(TorchrunChecks, OverlappingShardsAndNoReshuffleAreNamed) {
  auto facts = Healthy();
  auto& first = facts.read.at("node1").workers.at(0);
  auto& second = facts.read.at("node1").workers.at(1);
  second.shard_indices[0] = first.shard_indices[0];
  EXPECT_TRUE(AnyFindingHas(CheckSamplerShards(facts), "shards-overlap", "epoch 0:"));
  facts = Healthy();
  for (auto& [node, report] : facts.read) {
    for (auto& worker : report.workers) worker.shard_indices[1] = worker.shard_indices[0];
  }
  EXPECT_TRUE(AnyFindingHas(CheckSamplerShards(facts), "shards-overlap", "set_epoch(1)"));
}

TEST(TorchrunChecks, SamplerPaddingIsNotOverlap) {
  // 7 items over 6 ranks: DistributedSampler pads to 12 by repeating 5 indices.
  auto facts = Healthy();
  int next = 0;
  for (auto& [node, report] : facts.read) {
    for (auto& worker : report.workers) {
      worker.dataset_items = 7;
      worker.shard_indices[0] = {next % 7, (next + 6) % 7};
      worker.shard_indices[1] = {(next + 6) % 7, next % 7};
      ++next;
    }
  }
  const CheckResult shards = CheckSamplerShards(facts);
  EXPECT_EQ(shards.verdict, Verdict::kPass) << Describe({shards});
}

TEST(TorchrunChecks, SlowDataOnOneNodeFailsItsCaseAgainstTheFloor) {
  auto facts = Healthy();
  for (auto& worker : facts.read.at("node3").workers) worker.dataload_mb_per_s[4] = 0.5;
  Profile profile = test_support::BuiltinProfile("local");
  TorchrunExpectation torchrun = *profile.Get<TorchrunExpectation>();
  torchrun.dataload_floor_mb_per_s = 5;
  torchrun.source = "a test floor";
  profile.Set(torchrun);
  EXPECT_EQ(DataLoader(facts, "node1", profile).verdict, Verdict::kPass);
  EXPECT_TRUE(AnyFindingHas(DataLoader(facts, "node3", profile), "dataload-below-floor",
                            "node3: a DataLoader with num_workers=4 read 0.5 MB/s per rank"));
}

TEST(TorchrunChecks, RankLoadingAnotherCheckpointIsNamed) {
  auto facts = Healthy();
  auto& checkpoint = facts.read.at("node2").workers.at(0).checkpoint;
  checkpoint.consistent = false;
  checkpoint.loaded_step = 3;
  EXPECT_TRUE(AnyFindingHas(CheckCheckpointRankZero(facts), "checkpoint-load-mismatch",
                            "node2: rank 2 loaded step 3 with other weights"));
}

// node3's /dev/shm a 64 KiB tmpfs, as the local cluster's shm-small fault makes it: its ranks'
// DataLoader (num_workers=4) raise ENOSPC, their later barriers pair with the other ranks'
// earlier ones, and rank 4 loads the checkpoint before rank 0 renamed it into place.
NodeFacts<NodeTorchrunReport> Node3ShmExhausted() {
  auto facts = Healthy();
  auto& node3 = facts.read.at("node3");
  node3.limits.shm_bytes = 64 << 10;
  node3.limits.shm_free_bytes = 56 << 10;
  for (auto& worker : node3.workers) {
    worker.dataload_mb_per_s.erase(4);
    worker.errors.emplace_back("dataload", "OSError: [Errno 28] No space left on device");
  }
  auto& checkpoint = node3.workers.at(0).checkpoint;
  checkpoint.consistent = false;
  checkpoint.loaded_step.reset();
  checkpoint.error = "FileNotFoundError: [Errno 2] No such file or directory: '/shared/checkpoint.pt'";
  return facts;
}

TEST(TorchrunChecks, ShmExhaustedOnANodeIsNamedThereAndItsConsequencesSkip) {
  const auto results = EveryCaseAfterDeaths(Node3ShmExhausted());
  const CheckResult& own = Case(results, "DataLoaderThroughput/node3");
  EXPECT_EQ(own.verdict, Verdict::kFail) << Describe(results);
  EXPECT_TRUE(AnyFindingHas(own, "shm-exhausted", "node3: /dev/shm ran out (/dev/shm is 64 KiB (56 KiB free))"))
      << Describe(results);
  const CheckResult& checkpoint = Case(results, "CheckpointRankZero");
  EXPECT_EQ(checkpoint.verdict, Verdict::kSkip) << Describe(results);
  ASSERT_FALSE(checkpoint.findings.empty());
  EXPECT_NE(checkpoint.findings.front().message.find("rank 4 on node3 died of /dev/shm exhaustion (/dev/shm is 64 KiB"),
            std::string::npos)
      << checkpoint.findings.front().message;
  EXPECT_NE(checkpoint.findings.front().message.find("Torchrun.DataLoaderThroughput/node3"), std::string::npos);
  // No case blames anything else: the cases before the stage it died in keep their verdicts.
  for (const auto& result : results) {
    for (const auto& finding : result.findings) {
      if (result.verdict == Verdict::kFail || result.verdict == Verdict::kError) {
        EXPECT_EQ(finding.code, "shm-exhausted") << result.CaseName() << ": " << finding.message;
      }
    }
  }
  EXPECT_EQ(Case(results, "CollectiveCorrect").verdict, Verdict::kPass);
  EXPECT_EQ(Case(results, "LauncherStarted/node3").verdict, Verdict::kPass);
  EXPECT_EQ(Case(results, "DataLoaderThroughput/node1").verdict, Verdict::kPass);
}

TEST(TorchrunChecks, AFailureBeforeTheDeathKeepsItsOwnCode) {
  auto facts = Node3ShmExhausted();
  facts.read.at("node1").workers.at(1).allreduces.at(0).got = 20;  // the allreduce ran before the DataLoader
  const auto results = EveryCaseAfterDeaths(facts);
  EXPECT_TRUE(AnyFindingHas(Case(results, "CollectiveCorrect"), "allreduce-results-wrong", "rank 1"));
}

TEST(TorchrunChecks, AWorkerKilledByTheOomKillerFailsItsLauncherCase) {
  auto facts = Healthy();
  auto& node2 = facts.read.at("node2");
  node2.limits.memory_max_bytes = 1LL << 30;
  node2.launchers.at(0).state = "failed";
  node2.launchers.at(0).exit_code = 1;
  node2.launchers.at(0).output = {
      "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 4242) of binary: "
      "/usr/bin/python3"};
  for (auto& worker : node2.workers) worker.checkpoint = {};
  const auto results = EveryCaseAfterDeaths(facts);
  EXPECT_TRUE(AnyFindingHas(Case(results, "LauncherStarted/node2"), "memory-exhausted",
                            "node2: memory ran out (the job's cgroup memory.max is 1 GiB)"))
      << Describe(results);
  EXPECT_EQ(Case(results, "CheckpointRankZero").verdict, Verdict::kSkip) << Describe(results);
}

TEST(TorchrunChecks, AnUnclassifiedDataLoaderErrorStaysNotMeasured) {
  auto facts = Healthy();
  for (auto& worker : facts.read.at("node3").workers) {
    worker.dataload_mb_per_s.erase(4);
    worker.errors.emplace_back("dataload", "RuntimeError: DataLoader worker (pid(s) 77) exited unexpectedly");
  }
  const auto results = EveryCaseAfterDeaths(facts);
  EXPECT_EQ(Case(results, "DataLoaderThroughput/node3").verdict, Verdict::kError);
  EXPECT_EQ(Case(results, "DataLoaderThroughput/node3").findings.at(0).code, "not-measured");
}

TEST(TorchrunChecks, PortInUseOnTheRendezvousNodeIsNamed) {
  auto facts = Healthy();
  facts.read.at("node1").ports.push_back({"host", "node1", "", 29500, "in-use", "Address already in use (errno 98)"});
  EXPECT_TRUE(AnyFindingHas(CheckMasterPortOpen(facts), "rendezvous-port-in-use",
                            "node1: MASTER_PORT 29500 cannot be bound on node1"));
}

// The healthy run's outputs on node1 and node2; node3 has none.
ClusterRaw HealthyButNode3() {
  test_support::NodeOutputs outputs = {{"node3", {}}};
  for (const std::string node : {"node1", "node2"}) {
    outputs[node][TorchrunProbe().id] = test_support::OkOutput(HealthyOutput(node), node + "/torchrun.txt");
  }
  return test_support::RawOf(outputs);
}

TEST(TorchrunChecks, ANodeWithoutOutputIsAnErrorNeverAPass) {
  auto facts = Healthy();
  facts.read.erase("node3");
  facts.unread["node3"] = "node3: no torchrun.txt (absent)";
  const CheckResult ranks = CheckRanksConsistent(facts);
  EXPECT_EQ(ranks.verdict, Verdict::kError);
  EXPECT_EQ(ranks.findings.at(0).message, "node3: no torchrun.txt (absent)");
  // A per-node check errors where the node's own report could not be read.
  const auto cases = test_support::JudgeRegistered(kSuite, HealthyButNode3(), Local(), {kLauncherStarted});
  EXPECT_EQ(Case(cases, "LauncherStarted/node1").verdict, Verdict::kPass) << Describe(cases);
  const CheckResult& node3 = Case(cases, "LauncherStarted/node3");
  ASSERT_EQ(node3.verdict, Verdict::kError) << Describe(cases);
  EXPECT_EQ(node3.findings.at(0).code, "unavailable");
  EXPECT_NE(node3.findings.at(0).message.find("node3"), std::string::npos) << node3.findings.at(0).message;
}

// The per-node checks judge node by node, each node's outputs released once it is judged: what
// they read of the other nodes (here node1's data problem) is read before the first is released.
TEST(TorchrunChecks, APerNodeCheckSeesWhatAnEarlierNodeReported) {
  ClusterRaw raw = HealthyButNode3();
  raw.node["node3"][TorchrunProbe().id] = test_support::OkOutput(HealthyOutput("node3"), "node3/torchrun.txt");
  std::string& node1 = raw.node["node1"][TorchrunProbe().id].text;
  const auto problem = node1.find("problem=\"\"");
  ASSERT_NE(problem, std::string::npos);
  node1.replace(problem, 10, "problem=\"the shared directory is read-only\"");
  const auto cases = test_support::JudgeRegistered(kSuite, raw, Local(), {kDataLoaderThroughput});
  ASSERT_EQ(cases.size(), 3u) << Describe(cases);
  for (const auto& judged : cases) {
    EXPECT_EQ(judged.verdict, Verdict::kSkip) << Describe(cases);
    EXPECT_EQ(judged.findings.at(0).message,
              "the DataLoader was not measured: the shared directory is read-only");
  }
}

// A job log that cannot be parsed at all (empty, or a binary handed over by mistake) is the
// suite's error before the check runs: never a pass, never a crash.
TEST(TorchrunChecks, AnUnparseableJobLogErrorsAsUnparseable) {
  for (const std::string& log : {std::string(), std::string("\x7f" "ELF\x02\x01\x01", 7) + std::string(200, '\0')}) {
    test_support::TempDir snapshot;
    std::filesystem::copy(test_support::FixtureDir("local-3node-torchrun-healthy"), snapshot.path(),
                          std::filesystem::copy_options::recursive);
    std::ofstream(snapshot.path() + "/cluster/job.log", std::ios::binary) << log;
    const auto results =
        test_support::EvaluateSuiteOnSnapshot("Torchrun", snapshot.path(), test_support::BuiltinProfile("local"));
    const CheckResult& judged = Case(results, "JobLogLaunch");
    ASSERT_EQ(judged.verdict, Verdict::kError) << Describe(results);
    EXPECT_EQ(judged.findings.at(0).code, "unparseable");
    EXPECT_TRUE(AnyFindingHas(judged, "unparseable", "cluster/job.log")) << Describe(results);
  }
}

TEST(TorchrunChecks, AProfileWithoutATorchrunSectionSkipsSayingSo) {
  Profile profile = test_support::BuiltinProfile("local");
  profile.Unset<TorchrunExpectation>();
  ASSERT_TRUE(NotApplicable(profile));
  EXPECT_NE(NotApplicable(profile)->find("has no torchrun section"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::torchrun
