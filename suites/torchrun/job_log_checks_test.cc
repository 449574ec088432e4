// Torchrun.JobLogLaunch: a diagnosed failure fails naming its node, the evidence line and the
// fix; a completed launch passes; a log that shows neither errors (one that cannot be parsed at
// all is the suite's error: torchrun_checks_test).
#include "suites/torchrun/job_log_checks.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace gpuconform::torchrun {
namespace {

bool Mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

CheckResult Judge(const std::string& log) {
  return CheckJobLogLaunch(test_support::Parsed(ParseJobLog(log, "cluster/job.log")), "cluster/job.log");
}

TEST(JobLogLaunch, PortInUseFailsOnItsNodeWithEvidenceAndFix) {
  const CheckResult result = Judge(
      "1: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already "
      "in use).\n"
      "2: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already "
      "in use).\n"
      "srun: error: gpu-node-01: tasks 1-2: Exited with exit code 1\n");
  test_support::ExpectOnlyFinding(result, "gpu-node-01",
                                  "gpu-node-01: the rendezvous port 29500 is already in use on gpu-node-01 (2 of 3 "
                                  "launchers failed to listen)");
  const Finding& finding = result.findings[0];
  EXPECT_EQ(finding.code, "rendezvous-port-in-use");
  EXPECT_TRUE(Mentions(finding.message, "(cluster/job.log:1: \"[W socket.cpp:436]")) << finding.message;
  EXPECT_TRUE(Mentions(finding.message, "; fix: several launchers on one node")) << finding.message;
}

TEST(JobLogLaunch, AFailureTheLogPutsOnNoNodeIsTheClusters) {
  const CheckResult result = Judge("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n");
  test_support::ExpectOnlyFinding(result, "cluster", "the launchers did not meet at the rendezvous");
  EXPECT_EQ(result.findings[0].code, "rendezvous-unreachable");
}

TEST(JobLogLaunch, EachRootCauseIsAFindingFirstSeenFirst) {
  const CheckResult result = Judge(
      "+ torchrun --nnodes=2 --node_rank=5 train.py\n"
      "gpu-node-02:10:10 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found\n");
  ASSERT_EQ(result.verdict, Verdict::kFail);
  ASSERT_EQ(result.findings.size(), 2u);
  EXPECT_EQ(result.findings[0].code, "node-rank-from-procid");
  EXPECT_EQ(result.findings[0].entity, "cluster");
  EXPECT_EQ(result.findings[1].code, "socket-ifname-not-on-node");
  EXPECT_EQ(result.findings[1].entity, "gpu-node-02");
  EXPECT_TRUE(Mentions(result.findings[1].message, "cluster/job.log:2:")) << result.findings[1].message;
}

TEST(JobLogLaunch, EveryOtherClassFailsWithItsCode) {
  const std::vector<std::pair<std::string, std::string>> logs = {
      {"Traceback (most recent call last):\n"
       "  File \"/usr/bin/torchrun\", line 33, in <module>\n"
       "    sys.exit(load_entry_point('torch==1.13.1', 'console_scripts', 'torchrun')())\n"
       "AttributeError: 'NoneType' object has no attribute 'get'\n",
       "torchrun-crashed"},
      {"srun: job 12 queued and waiting for resources\n"
       "[INFO] [runner.py:570:main] cmd = pdsh -S -f 1024 -w n1,n2 python -u -m deepspeed.launcher.launch train.py\n",
       "deepspeed-launcher-under-srun"},
      {"--master_addr=nodeX\nsocket.gaierror: [Errno -2] Name or service not known\n", "master-addr-unresolvable"},
  };
  for (const auto& [log, code] : logs) {
    const CheckResult result = Judge(log);
    ASSERT_EQ(result.verdict, Verdict::kFail) << log;
    ASSERT_EQ(result.findings.size(), 1u) << log;
    EXPECT_EQ(result.findings[0].code, code);
    EXPECT_EQ(result.findings[0].entity, "cluster");
    EXPECT_TRUE(Mentions(result.findings[0].message, "; fix: ")) << result.findings[0].message;
  }
  EXPECT_TRUE(Mentions(Judge(logs[0].first).findings[0].message,
                       "torchrun itself crashed before it started the workers (torch 1.13.1)"));
}

TEST(JobLogLaunch, ACompletedLaunchPassesWithItsToleratedLines) {
  const CheckResult result = Judge(
      "torch.distributed.run: [WARNING] master_addr is only used for static rdzv_backend and when rdzv_endpoint is "
      "not specified.\n"
      "...\n"
      "[INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish\n"
      "[INFO] Done waiting for other agents. Elapsed: 0.001 seconds\n");
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_TRUE(result.findings.empty());
  ASSERT_EQ(result.measurements.size(), 2u);
  EXPECT_EQ(result.measurements[0].name, "agents_succeeded");
  EXPECT_EQ(result.measurements[0].value, "1");
  EXPECT_TRUE(Mentions(result.measurements[1].value, "line 1: torchrun's warning")) << result.measurements[1].value;
}

TEST(JobLogLaunch, ALogShowingNeitherErrorsQuotingItsLastErrorNeverPasses) {
  const CheckResult result = Judge(
      "Epoch 1 | step 10\n"
      "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled cuda error\n"
      "Epoch 1 | step 11\n");
  ASSERT_EQ(result.verdict, Verdict::kError);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code, "launch-outcome-unknown");
  EXPECT_TRUE(Mentions(result.findings[0].message, "its last error line is cluster/job.log:2: \"torch.distributed."))
      << result.findings[0].message;
}

// The realdata job outputs judged: the verdict each source file gives.
TEST(JobLogLaunchRealdata, EachPublishedOutputGetsItsVerdict) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  const std::vector<std::tuple<std::string, Verdict, std::string, std::string>> expected = {
      {"nccl-bootstrap-no-socket-interface-ifname-eth0-py311-nccl2.21.5.txt", Verdict::kFail,
       "socket-ifname-not-on-node", "cluster"},
      {"slurm-accelerate-c10d-errno98-port12211.txt", Verdict::kFail, "rendezvous-port-in-use", "cluster"},
      {"slurm-megatron-16node-eaddrinuse-port12341-node-rank-from-slurm-procid.txt", Verdict::kFail,
       "rendezvous-port-in-use", "cluster"},
      {"slurm-srun-colossalai-torchrun-eaddrinuse-port29601.txt", Verdict::kFail, "rendezvous-port-in-use",
       "HOST-10-140-60-1"},
      {"slurm-torchrun-c10d-2node-ddp-healthy-workers-succeeded.txt", Verdict::kPass, "", ""},
  };
  for (const auto& [name, verdict, code, entity] : expected) {
    const auto text = test_support::ReadFileIfPresent(dir / name);
    ASSERT_TRUE(text) << name;
    const CheckResult result = CheckJobLogLaunch(test_support::Parsed(ParseJobLog(*text, name)), name);
    EXPECT_EQ(result.verdict, verdict) << name;
    if (verdict != Verdict::kFail) continue;
    ASSERT_EQ(result.findings.size(), 1u) << name;
    EXPECT_EQ(result.findings[0].code, code) << name;
    EXPECT_EQ(result.findings[0].entity, entity) << name;
    EXPECT_TRUE(Mentions(result.findings[0].message, name + ":")) << result.findings[0].message;
  }
  EXPECT_EQ(test_support::DataFiles(dir).size(), expected.size()) << "a new file in torchrun-logs needs its verdict here";
}

}  // namespace
}  // namespace gpuconform::torchrun
