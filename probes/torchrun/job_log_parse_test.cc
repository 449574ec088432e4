// The job-log parser: every failure class in the forms the field prints it (c10d's bind and
// listen errors old and new, srun -l prefixes, torch's [rankN]: prefixes, NCCL and Gloo
// interface errors, node ranks, the deepspeed runner, launcher tracebacks), what it tolerates
// (elisions, benign warnings, refusals before the store was up), the realdata job outputs
// with the verdict each source gives, and garbage.
#include "probes/torchrun/job_log_parse.h"

#include <gtest/gtest.h>

#include "harness/core/reason_code.h"
#include "tests/support/test_support.h"

namespace gpuconform::torchrun {
namespace {

bool Mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

JobLogDiagnosis Diagnose(const std::string& text) { return test_support::Parsed(ParseJobLog(text, "job.log")); }

// The diagnosis's one failure, which must be of `code`; an empty one (so the test's later
// expectations fail too) when the diagnosis has another number of failures.
LaunchFailure OnlyFailure(const JobLogDiagnosis& log, const std::string& code) {
  EXPECT_EQ(log.failures.size(), 1u);
  if (log.failures.size() != 1) return {};
  EXPECT_EQ(log.failures[0].code, code);
  return log.failures[0];
}

// --- 1. the rendezvous port in use -----------------------------------------------------------

TEST(JobLogParse, PortInUseInEveryFormNamesThePort) {
  const std::vector<std::pair<std::string, int>> forms = {
      {"[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already "
       "in use).",
       29500},
      {"RuntimeError: The server socket has failed to listen on any local network address. port: 12341, useIpv6: 0, "
       "code: -98, name: EADDRINUSE, message: address already in use",
       12341},
      {"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. The "
       "server socket has failed to bind to 0.0.0.0:29400 (errno: 98 - Address already in use).",
       29400},
      {"OSError: [Errno 98] Address already in use", 29511},  // the port from --master_port below
      {"RuntimeError: Address already in use", 29511},
  };
  for (const auto& [line, port] : forms) {
    const auto log = Diagnose("+ torchrun --nnodes=2 --master_port=29511 train.py\n" + line + "\n");
    ASSERT_EQ(log.failures.size(), 1u) << line;
    EXPECT_EQ(log.failures[0].code, kPortInUse);
    EXPECT_TRUE(Mentions(log.failures[0].detail, "port " + std::to_string(port))) << log.failures[0].detail;
    EXPECT_EQ(log.failures[0].line, 2);
    EXPECT_FALSE(log.launch_completed);
  }
}

TEST(JobLogParse, SeveralLaunchersFailingOnOneNodePointAtTwoTorchrunsPerNode) {
  // srun -l: tasks 1-3 of one node each failed to host the store; NCCL and ChildFailedError follow.
  const std::string text =
      "0: [2024-05-01 10:00:00,000] torch.distributed.run: [WARNING] master_addr is only used for static rdzv_backend "
      "and when rdzv_endpoint is not specified.\n"
      "1: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in "
      "use).\n"
      "2: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in "
      "use).\n"
      "3: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in "
      "use).\n"
      "0: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, remote process exited\n"
      "0: torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
      "srun: error: gpu-node-01: tasks 1-3: Exited with exit code 1\n";
  const auto log = Diagnose(text);
  ASSERT_EQ(log.failures.size(), 1u);  // NCCL and ChildFailedError are consequences
  const LaunchFailure& f = log.failures[0];
  EXPECT_EQ(f.code, kPortInUse);
  EXPECT_EQ(f.node, "gpu-node-01");
  EXPECT_EQ(f.line, 2);
  EXPECT_TRUE(Mentions(f.detail, "port 29500 is already in use on gpu-node-01 (3 of 4 launchers failed to listen)"))
      << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "more than one torchrun per node")) << f.fix;
  EXPECT_TRUE(Mentions(f.fix, "--ntasks-per-node=1")) << f.fix;
  EXPECT_TRUE(Mentions(f.fix, "$SLURM_NODEID")) << f.fix;
}

TEST(JobLogParse, IdenticalUnprefixedLinesCountAsLaunchers) {
  const std::string line =
      "RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, "
      "code: -98, name: EADDRINUSE, message: address already in use\n";
  const auto log = Diagnose(line + line + line);
  ASSERT_EQ(log.failures.size(), 1u);
  EXPECT_TRUE(Mentions(log.failures[0].detail, "(3 launchers failed to listen)")) << log.failures[0].detail;
  EXPECT_EQ(log.failures[0].node, "");
}

// --- 2. the rendezvous unreachable or unresolvable ---------------------------------------------

TEST(JobLogParse, RendezvousTimeoutNamesTheEndpointAndCountsRefusals) {
  const std::string text =
      "+ srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=gpu-node-07:29500 train.py\n"
      "[W socket.cpp:663] [c10d] The client socket has failed to connect to [gpu-node-07]:29500 (errno: 111 - "
      "Connection refused).\n"
      "[W socket.cpp:663] [c10d] The client socket has failed to connect to [gpu-node-07]:29500 (errno: 111 - "
      "Connection refused).\n"
      "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n";
  const auto log = Diagnose(text);
  const LaunchFailure f = OnlyFailure(log, kRendezvousUnreachable);
  EXPECT_EQ(f.line, 4);
  EXPECT_TRUE(Mentions(f.detail, "gpu-node-07:29500 before the timeout (connection refused 2 times)")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "nc -zv gpu-node-07 29500")) << f.fix;
}

TEST(JobLogParse, TimeoutFormsOfTheStoreAndTheClient) {
  for (const std::string line : {
           "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.",
           "RuntimeError: connect() timed out. Original timeout was 1800000 ms.",
           "torch.distributed.DistNetworkError: The client socket has timed out after 900s while trying to connect to "
           "(10.0.0.5, 29500).",
           "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has "
           "failed. See inner exception for details.",
       }) {
    const auto log = Diagnose("MASTER_ADDR=10.0.0.5 MASTER_PORT=29500\n" + line + "\n");
    ASSERT_EQ(log.failures.size(), 1u) << line;
    EXPECT_EQ(log.failures[0].code, kRendezvousUnreachable) << line;
    EXPECT_TRUE(Mentions(log.failures[0].detail, "10.0.0.5:29500")) << log.failures[0].detail;
  }
}

TEST(JobLogParse, RefusalsThatNeverGetThroughAreTheFailure) {
  const auto log = Diagnose(
      "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-a]:29500 (errno: 111 - Connection "
      "refused).\n"
      "srun: error: node-b: task 1: Exited with exit code 1\n");
  const LaunchFailure f = OnlyFailure(log, kRendezvousUnreachable);
  EXPECT_TRUE(Mentions(f.detail, "could not connect to the rendezvous node-a:29500"))
      << f.detail;
}

TEST(JobLogParse, AnUnresolvableMasterAddrIsTheCauseAndTheTimeoutItsConsequence) {
  const std::string text =
      "+ torchrun --nnodes=2 --master_addr=gpu-nod-01 --master_port=29500 train.py\n"
      "socket.gaierror: [Errno -2] Name or service not known\n"
      "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n";
  const auto log = Diagnose(text);
  const LaunchFailure f = OnlyFailure(log, kMasterAddrUnresolvable);
  EXPECT_EQ(f.line, 2);
  EXPECT_TRUE(Mentions(f.detail, "gpu-nod-01 does not resolve")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "getent hosts gpu-nod-01")) << f.fix;
}

TEST(JobLogParse, IPv6LookupWarningsAreBenign) {
  const auto log = Diagnose(
      "[W socket.cpp:601] [c10d] The IPv6 network addresses of (node-0, 29500) cannot be retrieved (gai error: -2 - "
      "Name or service not known).\n"
      "[W socket.cpp:464] [c10d] The client socket cannot be initialized to connect to [node-0]:29500 (errno: 97 - "
      "Address family not supported by protocol).\n"
      "torch.distributed.elastic.agent.server.api: [INFO] Local worker group finished (WorkerState.SUCCEEDED).\n");
  EXPECT_TRUE(log.failures.empty());
  EXPECT_TRUE(log.launch_completed);
  ASSERT_EQ(log.notes.size(), 1u);
  EXPECT_TRUE(Mentions(log.notes[0], "line 1: c10d could not use IPv6")) << log.notes[0];
}

// --- 3. the socket interface the node lacks ----------------------------------------------------

TEST(JobLogParse, NcclBootstrapWithoutInterfaceNamesTheSettingAndTheNode) {
  const std::string text =
      "gpu-node-03:41222:41222 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0\n"
      "gpu-node-03:41222:41222 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found\n"
      "gpu-node-03:41222:41222 [0] NCCL INFO init.cc:1234 -> 3\n";
  const auto log = Diagnose(text);
  const LaunchFailure f = OnlyFailure(log, kSocketIfnameMissing);
  EXPECT_EQ(f.node, "gpu-node-03");
  EXPECT_EQ(f.line, 2);
  EXPECT_TRUE(Mentions(f.detail, "NCCL_SOCKET_IFNAME=eth0 names an interface the node does not have")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "^docker,lo")) << f.fix;
}

TEST(JobLogParse, GlooWithoutInterfaceNamesItsInterface) {
  const auto log = Diagnose(
      "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. Unable to "
      "find address for: ens1f0\n");
  const LaunchFailure f = OnlyFailure(log, kSocketIfnameMissing);
  EXPECT_TRUE(Mentions(f.detail, "GLOO_SOCKET_IFNAME=ens1f0")) << f.detail;
}

TEST(JobLogParse, AnExportedIfnameIsTheOneNamed) {
  const auto log = Diagnose(
      "+ export NCCL_SOCKET_IFNAME=bond0\n"
      "NCCL WARN NET/Socket : no interface found\n");
  ASSERT_EQ(log.failures.size(), 1u);
  EXPECT_TRUE(Mentions(log.failures[0].detail, "NCCL_SOCKET_IFNAME=bond0")) << log.failures[0].detail;
  EXPECT_EQ(log.failures[0].node, "");
}

// --- 4. node_rank from SLURM_PROCID -------------------------------------------------------------

TEST(JobLogParse, NodeRankAtOrAboveNnodesIsFromProcid) {
  const std::string text =
      "0: + torchrun --nnodes=2 --node_rank=0 --nproc_per_node=8 train.py\n"
      "1: + torchrun --nnodes=2 --node_rank=1 --nproc_per_node=8 train.py\n"
      "2: + torchrun --nnodes=2 --node_rank=2 --nproc_per_node=8 train.py\n"
      "3: + torchrun --nnodes=2 --node_rank=3 --nproc_per_node=8 train.py\n";
  const auto log = Diagnose(text);
  const LaunchFailure f = OnlyFailure(log, kNodeRankFromProcid);
  EXPECT_EQ(f.line, 3);
  EXPECT_TRUE(Mentions(f.detail, "node_rank=2 with --nnodes=2 (node ranks seen: 0,1,2,3)")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "SLURM_NODEID")) << f.fix;
}

TEST(JobLogParse, ProcidVisiblyUsedAsNodeRankWithTheCollisionItCauses) {
  const std::string text =
      "+ NODE_RANK=${SLURM_PROCID}\n"
      "+ torchrun --nnodes 16 --node_rank 0 --master_port 12341 pretrain_gpt.py\n"
      "RuntimeError: The server socket has failed to listen on any local network address. port: 12341, useIpv6: 0, "
      "code: -98, name: EADDRINUSE, message: address already in use\n";
  const auto log = Diagnose(text);
  ASSERT_EQ(log.failures.size(), 2u);
  EXPECT_EQ(log.failures[0].code, kNodeRankFromProcid);
  EXPECT_EQ(log.failures[0].line, 1);
  EXPECT_TRUE(Mentions(log.failures[0].detail, "node_rank is set from SLURM_PROCID")) << log.failures[0].detail;
  EXPECT_EQ(log.failures[1].code, kPortInUse);
}

TEST(JobLogParse, NodeRanksWithinNnodesAreFine) {
  const auto log = Diagnose(
      "0: torchrun --nnodes=2 --node_rank=0 train.py\n1: torchrun --nnodes=2 --node_rank=1 train.py\n"
      "0: [INFO] Done waiting for other agents. Elapsed: 0.001 seconds\n");
  EXPECT_TRUE(log.failures.empty());
  EXPECT_TRUE(log.launch_completed);
}

// --- 5. the deepspeed launcher under srun -------------------------------------------------------

TEST(JobLogParse, DeepspeedRunnerSpawningOverPdshUnderSrun) {
  const std::string text =
      "SLURM_JOB_ID=4711 SLURM_NNODES=2\n"
      "[2024-02-01 09:00:00,000] [INFO] [runner.py:463:main] Using IP address of 10.0.0.11 for node gpu-node-11\n"
      "[2024-02-01 09:00:00,001] [INFO] [multinode_runner.py:72:get_cmd] Running on the following workers: "
      "gpu-node-11,gpu-node-12\n"
      "[2024-02-01 09:00:00,002] [INFO] [runner.py:570:main] cmd = pdsh -S -f 1024 -w gpu-node-11,gpu-node-12 export "
      "...; cd /home/u/run; /usr/bin/python -u -m deepspeed.launcher.launch --world_info=eyJ9 --node_rank=%n "
      "train.py\n"
      "[2024-02-01 09:00:00,000] [INFO] [runner.py:463:main] Using IP address of 10.0.0.12 for node gpu-node-12\n"
      "gpu-node-12: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address "
      "already in use).\n";
  const auto log = Diagnose(text);
  ASSERT_GE(log.failures.size(), 1u);
  const LaunchFailure& f = log.failures[0];
  EXPECT_EQ(f.code, kDeepspeedUnderSrun);
  EXPECT_EQ(f.node, "gpu-node-11");
  EXPECT_EQ(f.line, 2);
  EXPECT_TRUE(Mentions(f.detail, "over SSH (pdsh)")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "torchrun")) << f.fix;
  EXPECT_TRUE(Mentions(f.fix, "--deepspeed")) << f.fix;
}

TEST(JobLogParse, SeveralDeepspeedLaunchersStartedBySrun) {
  const std::string text =
      "0: [INFO] [runner.py:555:main] cmd = /usr/bin/python -u -m deepspeed.launcher.launch --world_info=eyJ9 "
      "--master_addr=127.0.0.1 --master_port=29500 train.py\n"
      "1: [INFO] [runner.py:555:main] cmd = /usr/bin/python -u -m deepspeed.launcher.launch --world_info=eyJ9 "
      "--master_addr=127.0.0.1 --master_port=29500 train.py\n"
      "srun: error: gpu-node-01: task 1: Exited with exit code 1\n";
  const auto log = Diagnose(text);
  const LaunchFailure f = OnlyFailure(log, kDeepspeedUnderSrun);
  EXPECT_TRUE(Mentions(f.detail, "(2 deepspeed launchers started)")) << f.detail;
}

TEST(JobLogParse, OneDeepspeedOnOneNodeThatFinishedAndDeepspeedDrivingSrunAreFine) {
  EXPECT_TRUE(Diagnose("SLURM_JOB_ID=1\n[INFO] [launch.py:145:main] WORLD INFO DICT: {'localhost': [0, 1]}\n"
                       "[INFO] Local worker group finished (WorkerState.SUCCEEDED)\n")
                  .failures.empty());
  EXPECT_TRUE(Diagnose("[INFO] [runner.py:555:main] cmd = srun -n 16 --export=ALL python -u train.py\n"
                       "[INFO] Done waiting for other agents. Elapsed: 0.1 seconds\n")
                  .failures.empty());
}

// --- 6. torchrun crashing at start --------------------------------------------------------------

constexpr char kBookwormCrash[] = R"(Traceback (most recent call last):
  File "/usr/bin/torchrun", line 33, in <module>
    sys.exit(load_entry_point('torch==1.13.1', 'console_scripts', 'torchrun')())
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 346, in wrapper
    return f(*args, **kwargs)
  ...
  File "/usr/lib/python3/dist-packages/torch/distributed/elastic/multiprocessing/api.py", line 91, in from_str
    ...
AttributeError: 'NoneType' object has no attribute 'get'
srun: error: node1: task 0: Exited with exit code 1
)";

TEST(JobLogParse, TorchrunCrashQuotesTheExceptionAndTheVersions) {
  const auto log = Diagnose(std::string("Python 3.11.2\n") + kBookwormCrash);
  const LaunchFailure f = OnlyFailure(log, kTorchrunCrashed);
  EXPECT_EQ(f.line, 11);
  EXPECT_EQ(f.evidence, "AttributeError: 'NoneType' object has no attribute 'get'");
  EXPECT_TRUE(Mentions(f.detail, "(torch 1.13.1)")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "torch built for the Python")) << f.fix;
}

TEST(JobLogParse, APythonVersionInAFramePathIsNamed) {
  const auto log = Diagnose(
      "0: Traceback (most recent call last):\n"
      "0:   File \"/opt/venv/lib/python3.12/site-packages/torch/distributed/run.py\", line 905, in main\n"
      "0:     run(args)\n"
      "0: ImportError: cannot import name 'Mapping' from 'collections'\n");
  const LaunchFailure f = OnlyFailure(log, kTorchrunCrashed);
  EXPECT_TRUE(Mentions(f.detail, "(Python 3.12)")) << f.detail;
}

TEST(JobLogParse, LauncherTracebacksOfConsequencesAreNotCrashes) {
  // A worker's failure surfaces as ChildFailedError through torchrun: no crash of torchrun.
  const auto log = Diagnose(
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py\", line 806, in main\n"
      "    run(args)\n"
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
      "============================================================\n"
      "train.py FAILED\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  host      : gpu-node-05\n"
      "  rank      : 3 (local_rank: 3)\n"
      "  exitcode  : 1 (pid: 1234)\n");
  EXPECT_TRUE(log.failures.empty());
  EXPECT_FALSE(log.launch_completed);
  EXPECT_TRUE(Mentions(log.last_error, "gpu-node-05")) << log.last_error;
  // A worker's own traceback (not through the launcher) is not torchrun's crash either.
  EXPECT_TRUE(Diagnose("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                       "ValueError: bad batch size\n")
                  .failures.empty());
}

// --- 7. success and what is tolerated ------------------------------------------------------------

TEST(JobLogParse, TransientRefusalsBeforeASuccessfulLaunchAreNotes) {
  const auto log = Diagnose(
      "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-0]:29500 (errno: 111 - Connection "
      "refused).\n"
      "... \n"
      "[INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish\n"
      "[INFO] Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish\n");
  EXPECT_TRUE(log.failures.empty());
  EXPECT_TRUE(log.launch_completed);
  EXPECT_EQ(log.agents_succeeded, 2);
  ASSERT_EQ(log.notes.size(), 2u);
  EXPECT_TRUE(Mentions(log.notes[0], "line 1: a connection refused")) << log.notes[0];
  EXPECT_TRUE(Mentions(log.notes[1], "line 2: an elision")) << log.notes[1];
}

TEST(JobLogParse, ASucceededAgentBesideAFailedOneIsNotACompletedLaunch) {
  const auto log = Diagnose(
      "[INFO] Local worker group finished (WorkerState.SUCCEEDED)\n"
      "[ERROR] failed (exitcode: 1) local_rank: 0 (pid: 77) of binary: /usr/bin/python3\n");
  EXPECT_FALSE(log.launch_completed);
  EXPECT_EQ(log.agents_succeeded, 1);
}

TEST(JobLogParse, EveryCodeIsInTheCatalogue) {
  for (const char* code : {kPortInUse, kRendezvousUnreachable, kMasterAddrUnresolvable, kSocketIfnameMissing,
                           kNodeRankFromProcid, kDeepspeedUnderSrun, kTorchrunCrashed}) {
    EXPECT_TRUE(ReasonCode::Find(code)) << code;
  }
}

// --- the realdata job outputs -------------------------------------------------------------------

JobLogDiagnosis Realdata(const std::filesystem::path& dir, const std::string& name) {
  const auto text = test_support::ReadFileIfPresent(dir / name);
  EXPECT_TRUE(text) << name;
  return Diagnose(text.value_or(""));
}

TEST(JobLogParseRealdata, ColossalAiSrunEaddrinuse29601OnOneHostSevenOfEight) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  const auto log = Realdata(dir, "slurm-srun-colossalai-torchrun-eaddrinuse-port29601.txt");
  const LaunchFailure f = OnlyFailure(log, kPortInUse);
  EXPECT_EQ(f.node, "HOST-10-140-60-1");
  EXPECT_EQ(f.line, 1);
  EXPECT_TRUE(Mentions(f.detail,
                       "the rendezvous port 29601 is already in use on HOST-10-140-60-1 (7 of 8 launchers failed to "
                       "listen)"))
      << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "more than one torchrun per node")) << f.fix;
  EXPECT_TRUE(Mentions(f.fix, "--nnodes=1 --node_rank=0")) << f.fix;
  EXPECT_FALSE(log.launch_completed);
}

TEST(JobLogParseRealdata, AccelerateC10dErrno98OnPort12211IsOneFailure) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  const auto log = Realdata(dir, "slurm-accelerate-c10d-errno98-port12211.txt");
  const LaunchFailure f = OnlyFailure(log, kPortInUse);  // the [::] and 0.0.0.0 binds and the listen error are one failure
  EXPECT_EQ(f.line, 1);
  EXPECT_EQ(f.node, "");  // the log does not name the master node
  EXPECT_TRUE(Mentions(f.detail, "port 12211 is already in use on the master node (the one hosting the rendezvous; the log does not name it)"))
      << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "second launcher")) << f.fix;
}

TEST(JobLogParseRealdata, MegatronEaddrinuse12341PointsAtNodeRankAndTasksPerNode) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  // The published output is the one error line: the batch script's NODE_RANK=${SLURM_PROCID}
  // is not in it, so the node-rank finding cannot be made from the log; the fix says where to look.
  const auto log = Realdata(dir, "slurm-megatron-16node-eaddrinuse-port12341-node-rank-from-slurm-procid.txt");
  const LaunchFailure f = OnlyFailure(log, kPortInUse);
  EXPECT_TRUE(Mentions(f.detail, "port 12341")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "node_rank comes from SLURM_PROCID")) << f.fix;
  EXPECT_TRUE(Mentions(f.fix, "--node_rank=$SLURM_NODEID")) << f.fix;
}

TEST(JobLogParseRealdata, NcclBootstrapNoSocketInterfaceIsTheIfnameNotNccl) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  const auto log = Realdata(dir, "nccl-bootstrap-no-socket-interface-ifname-eth0-py311-nccl2.21.5.txt");
  ASSERT_EQ(log.failures.size(), 1u);  // the DistBackendError / ncclInternalError above it are how it surfaced
  const LaunchFailure& f = log.failures[0];
  EXPECT_EQ(f.code, kSocketIfnameMissing);
  EXPECT_EQ(f.line, 7);
  EXPECT_EQ(f.evidence, "Bootstrap : no socket interface found");
  EXPECT_TRUE(Mentions(f.detail, "NCCL_SOCKET_IFNAME")) << f.detail;
  EXPECT_TRUE(Mentions(f.fix, "ip -o -4 addr")) << f.fix;
}

TEST(JobLogParseRealdata, TwoNodeDdpCompletedWithElisionAndBenignWarnings) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  const auto log = Realdata(dir, "slurm-torchrun-c10d-2node-ddp-healthy-workers-succeeded.txt");
  EXPECT_TRUE(log.failures.empty());
  EXPECT_TRUE(log.launch_completed);
  EXPECT_EQ(log.agents_succeeded, 2);
  ASSERT_EQ(log.notes.size(), 3u);
  EXPECT_TRUE(Mentions(log.notes[0], "line 2: torchrun's warning that master_addr")) << log.notes[0];
  EXPECT_TRUE(Mentions(log.notes[1], "line 5: torchrun's warning that it set OMP_NUM_THREADS")) << log.notes[1];
  EXPECT_TRUE(Mentions(log.notes[2], "line 23: an elision")) << log.notes[2];
}

TEST(JobLogParseRealdata, EveryFileGetsTheVerdictItsSourceGives) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "torchrun-logs");
  for (const auto& path : test_support::DataFiles(dir)) {
    const auto log = Diagnose(test_support::ReadFile(path));
    const bool should_pass = Mentions(path.filename().string(), "healthy");
    EXPECT_EQ(log.failures.empty(), should_pass) << path.filename();
    EXPECT_EQ(log.launch_completed, should_pass) << path.filename();
  }
}

// --- garbage ---------------------------------------------------------------------------------------

TEST(JobLogParse, EmptyAndBinaryInputsAreRefused) {
  test_support::ExpectErrorStartingWith(ParseJobLog("", "job.log"), "job.log: the job's output is empty");
  test_support::ExpectErrorStartingWith(ParseJobLog(" \n\n", "job.log"), "job.log: the job's output is empty");
  test_support::ExpectErrorContaining(ParseJobLog(std::string(4096, '\0'), "job.log"), "is not a text log");
}

TEST(JobLogParse, TextWithNulsHugeLinesAndCarriageReturnsIsRead) {
  // A log on a network filesystem after a crash can hold a block of NULs; it is still read.
  std::string text = "epoch 1\n" + std::string(100, '\0') + "\n";
  text += std::string(300000, 'x') + "\n";
  text += " 10%|#         |\r 50%|#####     |\r[INFO] Local worker group finished (WorkerState.SUCCEEDED)\n";
  for (int i = 0; i < 200; ++i) text += "ordinary line " + std::to_string(i) + "\n";
  const auto log = Diagnose(text);
  EXPECT_TRUE(log.launch_completed);
  EXPECT_TRUE(log.failures.empty());
}

TEST(JobLogParse, EvidenceIsClippedAndCleaned) {
  const std::string line = "RuntimeError: Address already in use \x01" + std::string(500, 'y');
  const auto log = Diagnose(line + "\n");
  ASSERT_EQ(log.failures.size(), 1u);
  EXPECT_LE(log.failures[0].evidence.size(), 203u);
  EXPECT_EQ(log.failures[0].evidence.find('\x01'), std::string::npos);
}

TEST(JobLogParse, SurvivesTruncationAndNoise) {
  test_support::SurvivesTruncationAndNoise(
      std::string(kBookwormCrash) +
          "1: [W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already "
          "in use).\nsrun: error: n1: tasks 0-3,7: Exited with exit code 1\n--nnodes=2:4 --node_rank=9 "
          "--rdzv_endpoint=[fe80::1]:29500\n(host, 29500)\nconnect to (",
      ParseJobLog);
  test_support::ForEachNoisyString({7u, 400, 200, {"srun: error: ", "[rank1]: ", "--node_rank=", "connect to "},
                                    "0123456789:-, ()[]\n\rtask"},
                                   [](const std::string& bytes) { (void)ParseJobLog(bytes, "noise"); });
}

}  // namespace
}  // namespace gpuconform::torchrun
