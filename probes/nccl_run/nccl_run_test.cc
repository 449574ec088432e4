// gpuconform's own NCCL run: the protocol (pure), and the parent side run for real with
// the real worker (no GPU here: it must say so) and with workers that hang. The one stand-in
// is a worker script that replays recorded NCCL output (a log and a topology dump from the
// fixtures) in place of GPUs these machines do not have, so the parent's exchange, deadline,
// table and clean-up are exercised end to end.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness/util/text_util.h"
#include "harness/world/world.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/nccl_run/nccl_collective_layout.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_run/nccl_run_records.h"
#include "probes/nccl_run/nccl_worker_protocol.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "probes/resource_limits/death_records.h"
#include "suites/allreduce/allreduce_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_run {

using namespace gpuconform::allreduce_sweep;
using namespace gpuconform::nccl_tests;
namespace {

namespace fs = std::filesystem;
using test_support::ScopedEnvironment;
using test_support::TempDir;

// ---- protocol ------------------------------------------------------------------------

TEST(NcclWorkerProtocol, UniqueIdSurvivesHexRoundTripAndGarbageIsRefused) {
  std::string bytes;
  for (int i = 0; i < 128; ++i) bytes += static_cast<char>(i * 7);
  const std::string hex = ToHex(bytes);
  EXPECT_EQ(hex.size(), 256u);
  EXPECT_EQ(FromHex(hex), bytes);
  EXPECT_FALSE(FromHex("abc"));   // odd length
  EXPECT_FALSE(FromHex("zz00"));  // not hex
}

TEST(NcclWorkerProtocol, VersionCodesReadAsOperatorsWriteThem) {
  EXPECT_EQ(NcclVersionText(22105), "2.21.5");
  EXPECT_EQ(NcclVersionText(2708), "2.7.8");  // before 2.9: major*1000
  EXPECT_EQ(CudaVersionText(12040), "12.4");
  EXPECT_EQ(CudaVersionText(11080), "11.8");
}

TEST(NcclWorkerProtocol, FewerIterationsForLargeSizesButNeverNone) {
  EXPECT_EQ(PlanIterations(8 * allreduce_sweep::kMiB).iterations, 20);
  EXPECT_EQ(PlanIterations(allreduce_sweep::kGiB).iterations, 20);
  EXPECT_LT(PlanIterations(16 * allreduce_sweep::kGiB).iterations, PlanIterations(2 * allreduce_sweep::kGiB).iterations);
  EXPECT_GE(PlanIterations(16 * allreduce_sweep::kGiB).iterations, 1);
  EXPECT_GE(PlanIterations(16 * allreduce_sweep::kGiB).warmup, 1);
}

TEST(NcclWorkerProtocol, ReadyLinesParseAndSilenceIsAnErrorNamingTheHost) {
  const auto ready = test_support::Parsed(
      ParseWorkerReady("ready gpus=2 nccl_version=2.21.5 cuda_runtime=12.4 devices=\"0000:18:00.0 0000:2a:00.0\"\n"
                       "unique-id hex=00ff\n",
                       "node1"));
  EXPECT_TRUE(ready.available);
  EXPECT_EQ(ready.gpus, 2);
  EXPECT_EQ(ready.bus_ids, (std::vector<std::string>{"0000:18:00.0", "0000:2a:00.0"}));
  EXPECT_EQ(ready.unique_id_hex, "00ff");
  auto missing = ParseWorkerReady("unavailable reason=\"libnccl.so.2 not found\"\n", "node2");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(missing->available);
  EXPECT_EQ(missing->reason, "libnccl.so.2 not found");
  auto silent = ParseWorkerReady("", "node3");
  ASSERT_FALSE(silent);
  EXPECT_NE(silent.error().find("node3"), std::string::npos);
  EXPECT_FALSE(ParseWorkerReady("ready gpus=eight\n", "node4"));
  EXPECT_FALSE(ParseWorkerReady("\x01\x02garbage\n", "node5"));
}

TEST(NcclWorkerProtocol, MeasureLinesNameTheirCollectiveAndReadBack) {
  const IterationPlan plan{5, 20};
  EXPECT_EQ(MeasureLine(8388608, plan), "measure size_bytes=8388608 warmup=5 iterations=20") << "allreduce as before";
  EXPECT_EQ(MeasureLine(8388608, plan, "allreduce"), MeasureLine(8388608, plan));
  const std::string alltoall = MeasureLine(8388608, plan, "alltoall");
  EXPECT_EQ(alltoall, "measure size_bytes=8388608 warmup=5 iterations=20 collective=alltoall");
  const auto read = test_support::Parsed(ParseMeasureLine(alltoall));
  EXPECT_EQ(read.collective, "alltoall");
  EXPECT_EQ(read.size_bytes, 8388608);
  EXPECT_EQ(read.iterations.warmup, 5);
  EXPECT_EQ(read.iterations.iterations, 20);
  EXPECT_EQ(test_support::Parsed(ParseMeasureLine(MeasureLine(4096, plan))).collective, "allreduce")
      << "a line without collective= is allreduce";
  for (const char* collective : {"allgather", "reduce_scatter"}) {
    EXPECT_EQ(test_support::Parsed(ParseMeasureLine(MeasureLine(4096, plan, collective))).collective, collective);
  }
  auto unknown = ParseMeasureLine("measure size_bytes=4096 warmup=5 iterations=20 collective=broadcast");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("unknown collective 'broadcast'"), std::string::npos) << unknown.error();
  EXPECT_FALSE(ParseMeasureLine("measure size_bytes=2 warmup=5 iterations=20"));
  EXPECT_FALSE(ParseMeasureLine("measure size_bytes=4096 warmup=5 iterations=0"));
  EXPECT_FALSE(ParseMeasureLine("measure size_bytes=4096"));
  EXPECT_FALSE(ParseMeasureLine("row size_bytes=4096 warmup=5 iterations=20"));
  EXPECT_EQ(NotMeasuredLine("alltoall", "libnccl.so.2 lacks ncclSend"),
            "not-measured collective=alltoall reason=\"libnccl.so.2 lacks ncclSend\"");
}

// Every rank's layout, run through each collective's definition on the host: what rank r
// receives is what the collective delivers from every rank's send blocks.
TEST(NcclCollectiveLayout, EveryRankReceivesWhatTheCollectiveDeliversFromTheOthersSendBlocks) {
  constexpr int n = 5;
  const long long size = allreduce_sweep::CollectiveSizeBytes(1 << 20, n);
  std::vector<CollectiveLayout> layouts;
  for (const char* collective : {"allreduce", "alltoall", "allgather", "reduce_scatter"}) {
    SCOPED_TRACE(collective);
    layouts.clear();
    for (int rank = 0; rank < n; ++rank) layouts.push_back(*LayoutOf(collective, rank, n, size));
    const std::string name = collective;
    for (int r = 0; r < n; ++r) {
      const CollectiveLayout& mine = layouts[static_cast<std::size_t>(r)];
      if (name == "allreduce") {
        EXPECT_EQ(mine.send.TotalFloats() * sizeof(float), static_cast<std::size_t>(size));
        float sum = 0;
        for (const auto& other : layouts) sum += other.send.value(0);
        EXPECT_EQ(mine.receive.value(0), sum);
      } else if (name == "alltoall") {
        EXPECT_EQ(mine.send.TotalFloats() * sizeof(float), static_cast<std::size_t>(size)) << "S is one send buffer";
        EXPECT_EQ(mine.receive.count, static_cast<std::size_t>(n));
        for (int from = 0; from < n; ++from) {
          EXPECT_EQ(mine.receive.value(from), layouts[static_cast<std::size_t>(from)].send.value(r));
        }
      } else if (name == "allgather") {
        EXPECT_EQ(mine.receive.TotalFloats() * sizeof(float), static_cast<std::size_t>(size)) << "S is the output";
        EXPECT_EQ(mine.receive.floats, mine.send.floats);
        for (int from = 0; from < n; ++from) {
          EXPECT_EQ(mine.receive.value(from), layouts[static_cast<std::size_t>(from)].send.value(0));
        }
      } else {
        EXPECT_EQ(mine.send.TotalFloats() * sizeof(float), static_cast<std::size_t>(size)) << "S is the input";
        float sum = 0;
        for (const auto& other : layouts) sum += other.send.value(r);
        EXPECT_EQ(mine.receive.value(0), sum);
        EXPECT_EQ(mine.receive.floats, mine.send.floats);
      }
    }
    // A block delivered to another rank or slot differs from the one expected there.
    if (name == "alltoall") EXPECT_NE(layouts[1].receive.value(2), layouts[2].receive.value(1));
  }
  EXPECT_FALSE(LayoutOf("broadcast", 0, n, size));
}

TEST(NcclRunRecords, InitLinesAndNotMeasuredLinesReadBack) {
  const std::string init = FormatNcclInit({{"gpu-node-01", 4.25, ""}, {"gpu-node-02", std::nullopt, "gpu-node-02: timed out"}});
  EXPECT_EQ(init, "node host=gpu-node-01 seconds=4.250\nnode host=gpu-node-02 problem=\"gpu-node-02: timed out\"\n");
  const auto nodes = test_support::Parsed(ParseNcclInit(init, "cluster/nccl-init.txt"));
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].seconds, 4.25);
  EXPECT_FALSE(nodes[1].seconds);
  EXPECT_EQ(nodes[1].problem, "gpu-node-02: timed out");
  auto bad = ParseNcclInit("node host=a seconds=fast\n", "cluster/nccl-init.txt");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("cluster/nccl-init.txt:1"), std::string::npos) << bad.error();
  EXPECT_FALSE(ParseNcclInit("node seconds=1\n", "f"));
  EXPECT_FALSE(ParseNcclInit("node host=a\n", "f"));

  const auto results = test_support::Parsed(
      ParseNcclCollectives(NotMeasuredComment("alltoall", "node1: libnccl.so.2 lacks ncclSend"), "f"));
  EXPECT_TRUE(results.tables.empty());
  EXPECT_EQ(results.not_measured.at("alltoall"), "node1: libnccl.so.2 lacks ncclSend");
}

WorkerReady Ready(const std::string& host, int gpus, const std::string& id = "") {
  WorkerReady ready;
  ready.host = host;
  ready.available = true;
  ready.gpus = gpus;
  ready.unique_id_hex = id;
  return ready;
}

TEST(NcclWorkerProtocol, PlanNumbersRanksNodeByNodeFromTheRootsId) {
  const std::string id = ToHex(std::string(128, 'x'));
  const auto planned = PlanRun({Ready("a", 8, id), Ready("b", 8), Ready("c", 4)});
  ASSERT_TRUE(planned.plan) << planned.problem.detail;
  EXPECT_EQ(planned.plan->nranks, 20);
  EXPECT_EQ(planned.plan->nodes[1].first_rank, 8);
  EXPECT_EQ(planned.plan->nodes[2].first_rank, 16);
  EXPECT_EQ(planned.plan->unique_id_hex, id);
  EXPECT_NE(InitLine(*planned.plan, 8).find("first_rank=8"), std::string::npos);
}

TEST(NcclWorkerProtocol, NodesThatCannotRunAreAllNamedAndToldApartFromNoNcclAnywhere) {
  WorkerReady no_driver;
  no_driver.host = "b";
  no_driver.reason = "no NVIDIA driver (libcuda.so.1 not found)";
  const std::string id = ToHex(std::string(128, 'x'));
  const auto some = PlanRun({Ready("a", 8, id), no_driver, Ready("c", 0)});
  ASSERT_FALSE(some.plan);
  EXPECT_FALSE(some.problem.all_unavailable);
  EXPECT_NE(some.problem.detail.find("2 of 3 node(s)"), std::string::npos) << some.problem.detail;
  EXPECT_NE(some.problem.detail.find("b: no NVIDIA driver"), std::string::npos) << some.problem.detail;
  EXPECT_NE(some.problem.detail.find("c: CUDA sees no GPU"), std::string::npos) << some.problem.detail;
  WorkerReady also = no_driver;
  also.host = "a";
  const auto none = PlanRun({also, no_driver});
  EXPECT_TRUE(none.problem.all_unavailable);
  WorkerReady hung = no_driver;
  hung.reason = "the NCCL worker did not say whether it can run within 60 s";
  hung.failed = true;
  EXPECT_FALSE(PlanRun({also, hung}).problem.all_unavailable) << "a hung worker is a fault, not a missing NCCL";
  const auto no_id = PlanRun({Ready("a", 8, "beef")});
  ASSERT_FALSE(no_id.plan);
  EXPECT_NE(no_id.problem.detail.find("ncclUniqueId"), std::string::npos);
}

// ---- the parent, run for real ----------------------------------------------------------

NcclRunOutputs RunOnOneNode(const std::string& executable, const Profile* profile = nullptr,
                            const RunOptions& options = DefaultRunOptions()) {
  const World world = World::Single();
  const CollectiveContext context{world, profile, "node1", true, {"node1"}, options};
  return RunNccl(context, executable);
}

bool EmptyDirectory(const std::string& dir) { return fs::is_empty(dir); }

TEST(NcclRun, RealWorkerWithoutADriverSaysSoForEveryOutputAndLeavesNothing) {
  TempDir temp;
  TempDir no_libraries;  // the only place the worker may load NVIDIA's libraries from: none there
  ScopedEnvironment env;
  env.Set("TMPDIR", temp.path());
  RunOptions options = DefaultRunOptions();
  options.gpu_library_dir = no_libraries.path();
  const NcclRunOutputs outputs = RunOnOneNode(GPUCONFORM_BINARY, nullptr, options);
  const std::string said = "node1: no NVIDIA driver (libcuda.so.1 not found: " + no_libraries.path() +
                           "/libcuda.so.1: cannot open shared object file";
  for (const RawOutput* out : {&outputs.allreduce, &outputs.debug_log, &outputs.topology}) {
    EXPECT_EQ(out->status, ProbeStatus::kToolMissing) << out->detail;
    EXPECT_NE(out->detail.find(said), std::string::npos) << out->detail;
  }
  EXPECT_TRUE(EmptyDirectory(temp.path())) << "the work directory was left";
}

// One run's scratch: a directory for the fake worker's script and what it saw, and TMPDIR
// pointed at an empty directory, so a test can tell the run left no work directory behind;
// the run's options, for a test to set.
struct WorkerScratch {
  TempDir scripts;
  TempDir work;
  ScopedEnvironment env;
  RunOptions options;
  WorkerScratch() { env.Set("TMPDIR", work.path()); }
};

std::string WriteScript(const std::string& dir, const std::string& body) {
  const std::string path = dir + "/fake-worker.sh";
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ::chmod(path.c_str(), 0755);
  return path;
}

// The real worker exits right after "unavailable"; on the cluster it is long gone when the
// parent sends "quit" after the readiness exchange, and that write once ended every rank with
// SIGPIPE ("srun: error: node1: task 0: Broken pipe"). Closing stdin first makes that certain.
TEST(NcclRun, WorkerThatExitsBeforeQuitIsNotAFatalBrokenPipe) {
  WorkerScratch scratch;
  const NcclRunOutputs outputs = RunOnOneNode(
      WriteScript(scratch.scripts.path(), "exec 0<&-\necho 'unavailable reason=\"CUDA sees no GPU\"'\nexit 1\n"));
  EXPECT_EQ(outputs.allreduce.status, ProbeStatus::kToolMissing) << outputs.allreduce.detail;
  EXPECT_NE(outputs.topology.detail.find("CUDA sees no GPU"), std::string::npos) << outputs.topology.detail;
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

TEST(NcclRun, WorkerThatNeverAnswersIsKilledAtTheDeadlineAndNamed) {
  WorkerScratch scratch;
  scratch.options.collective_timeout_s = 1;
  const auto start = std::chrono::steady_clock::now();
  const NcclRunOutputs outputs = RunOnOneNode(WriteScript(scratch.scripts.path(), "exec sleep 60\n"), nullptr, scratch.options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(outputs.allreduce.status, ProbeStatus::kFailed) << "a hung worker is not a missing NCCL";
  EXPECT_NE(outputs.allreduce.detail.find("did not say whether it can run within 1 s"), std::string::npos)
      << outputs.allreduce.detail;
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

// Stands in for GPUs: speaks the worker protocol, checks what the parent tells it, and
// leaves recorded NCCL output (a fixture's log and topology dump) where NCCL would.
// `hang_at`: a line kind it hangs at; `hang_on`: text of a line it hangs at (a collective);
// `lacks`: a collective it answers not-measured for, as a worker whose NCCL lacks its calls.
std::string ReplayingWorker(const std::string& dir, const std::string& hang_at = "", const std::string& hang_on = "",
                            const std::string& lacks = "") {
  const std::string fixture = test_support::FixtureDir("nccl-h100-2node-healthy");
  return WriteScript(dir, R"sh(dir="$3"
seen=")sh" + dir + R"sh(/seen.txt"
echo 'ready gpus=2 nccl_version=2.21.5 cuda_runtime=12.4 devices="0000:18:00.0 0000:2a:00.0"'
[ "$4" = "--root" ] && echo "unique-id hex=$(printf '%0256d' 7)"
while read kind rest; do
  echo "$kind $rest" >> "$seen"
  [ "$kind" = ")sh" + hang_at + R"sh(" ] && exec sleep 60
)sh" + (hang_on.empty() ? std::string() : "  case \"$rest\" in *" + hang_on + "*) exec sleep 60 ;; esac\n") +
                              (lacks.empty() ? std::string()
                                             : "  case \"$rest\" in *collective=" + lacks +
                                                   "*) echo 'not-measured collective=" + lacks +
                                                   " reason=\"libnccl.so.2 lacks ncclSend, ncclRecv (NCCL older than "
                                                   "2.7)\"'; continue ;; esac\n") +
                              R"sh(  case "$kind" in
    init) echo "env NCCL_DEBUG=$NCCL_DEBUG NCCL_DEBUG_SUBSYS=$NCCL_DEBUG_SUBSYS NCCL_DEBUG_FILE=$NCCL_DEBUG_FILE" >> "$seen"
          cp ")sh" + fixture + R"sh(/cluster/nccl-debug.log" "$dir/nccl-debug.log"
          cp ")sh" + fixture + R"sh(/nodes/gpu-node-01/nccl-topo.xml" "$dir/nccl-topo.xml"
          echo "initialized seconds=0.5" ;;
    measure) size=${rest#size_bytes=}; size=${size%% *}
          wrong=0; [ "$size" = 16777216 ] && wrong=5
          echo "row size_bytes=$size time_us=1000 wrong=$wrong" ;;
    quit) exit 0 ;;
  esac
done
)sh");
}

TEST(NcclRun, ReplayedRunBecomesAJudgedTableWithItsLogAndTopology) {
  WorkerScratch scratch;
  scratch.options.allreduce_max_bytes = 16 * allreduce_sweep::kMiB;
  const Profile h100 = test_support::BuiltinProfile("h100-sxm-8");  // sweeps to 16 GiB, capped above
  const NcclRunOutputs outputs = RunOnOneNode(ReplayingWorker(scratch.scripts.path()), &h100, scratch.options);
  ASSERT_EQ(outputs.allreduce.status, ProbeStatus::kOk) << outputs.allreduce.detail;
  // The parent passed the root's id on, and asked for each size of the sweep.
  const std::string seen = test_support::ReadFile(scratch.scripts.path() + "/seen.txt");
  EXPECT_NE(seen.find("init unique_id=" + std::string(255, '0') + "7 nranks=2 first_rank=0"), std::string::npos)
      << seen;
  EXPECT_NE(seen.find("measure size_bytes=8388608 warmup=5 iterations=20"), std::string::npos) << seen;
  EXPECT_NE(seen.find("quit"), std::string::npos) << seen;
  // The parent gave the worker NCCL's settings in its environment (NCCL_DEBUG is not set here).
  EXPECT_NE(seen.find("env NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV NCCL_DEBUG_FILE=/"), std::string::npos)
      << seen;
  EXPECT_NE(seen.find("/nccl-debug.log\n"), std::string::npos) << seen;

  auto table = nccl_tests::ParseNcclTestsOutput(outputs.allreduce.text, outputs.allreduce.origin);
  ASSERT_TRUE(table) << table.error() << "\n" << outputs.allreduce.text;
  EXPECT_EQ(table->ranks, 2);
  EXPECT_EQ(table->nodes, 1);
  // The latency band (8 B to 64 KiB: 6 sizes), then 8 and 16 MiB.
  ASSERT_EQ(table->rows.size(), 8u) << outputs.allreduce.text;
  EXPECT_EQ(table->rows[0].size_bytes, 8);
  EXPECT_EQ(table->rows[5].size_bytes, 64 * 1024);
  EXPECT_EQ(table->rows[6].size_bytes, 8 * allreduce_sweep::kMiB);
  EXPECT_NEAR(table->rows[6].algbw_gb_per_s, 8.389, 0.001);  // 8 MiB in 1000 us
  EXPECT_NEAR(table->rows[6].busbw_gb_per_s, 8.389, 0.001);  // 2 ranks: factor 1
  // The wrong elements the worker found fail the correctness check, naming the size.
  const auto correct = allreduce::CheckResultsCorrect(*table);
  ASSERT_EQ(correct.verdict, Verdict::kFail);
  EXPECT_NE(correct.findings[0].message.find("16 MiB"), std::string::npos) << correct.findings[0].message;

  const std::string fixture = test_support::FixtureDir("nccl-h100-2node-healthy");
  EXPECT_EQ(outputs.debug_log.status, ProbeStatus::kOk);
  EXPECT_EQ(outputs.debug_log.text, test_support::ReadFile(fixture + "/cluster/nccl-debug.log"));
  EXPECT_EQ(outputs.topology.status, ProbeStatus::kOk);
  EXPECT_EQ(outputs.topology.text, test_support::ReadFile(fixture + "/nodes/gpu-node-01/nccl-topo.xml"));
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

TEST(NcclRun, IterationsFromTheEnvironmentReachTheWorker) {
  WorkerScratch scratch;
  scratch.options = BuildRunOptions({}, {{"GPUCONFORM_ALLREDUCE_MAX_BYTES", std::to_string(8 * allreduce_sweep::kMiB)},
                                                    {"GPUCONFORM_ALLREDUCE_ITERS", "7"}});
  const NcclRunOutputs outputs = RunOnOneNode(ReplayingWorker(scratch.scripts.path()), nullptr, scratch.options);
  ASSERT_EQ(outputs.allreduce.status, ProbeStatus::kOk) << outputs.allreduce.detail;
  const std::string seen = test_support::ReadFile(scratch.scripts.path() + "/seen.txt");
  EXPECT_NE(seen.find("measure size_bytes=8388608 warmup=5 iterations=7"), std::string::npos) << seen;
}

TEST(NcclRun, WorkerEnvironmentKeepsTraceAndPutsTheFilesInTheWorkDirectory) {
  const auto info = WorkerNcclEnvironment({{"NCCL_DEBUG", "WARN"}}, "/w");
  EXPECT_EQ(info.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(info.at("NCCL_DEBUG_FILE"), "/w/nccl-debug.log");
  EXPECT_EQ(info.at("NCCL_TOPO_DUMP_FILE"), "/w/nccl-topo.xml");
  const auto trace = WorkerNcclEnvironment({{"NCCL_DEBUG", "TRACE"}}, "/w");
  EXPECT_EQ(trace.count("NCCL_DEBUG"), 0u) << "the user's TRACE is inherited as it is";
}

TEST(NcclRun, CollectiveThatHangsIsAbandonedAtTheDeadlineKeepingTheLog) {
  WorkerScratch scratch;
  scratch.options.collective_timeout_s = 1;
  scratch.options.allreduce_max_bytes = 16 * allreduce_sweep::kMiB;
  const auto start = std::chrono::steady_clock::now();
  const NcclRunOutputs outputs = RunOnOneNode(ReplayingWorker(scratch.scripts.path(), "measure"), nullptr, scratch.options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(outputs.allreduce.status, ProbeStatus::kFailed);
  EXPECT_NE(outputs.allreduce.detail.find("node1: the NCCL allreduce of 8 B did not complete within 1 s"),
            std::string::npos)
      << outputs.allreduce.detail;
  EXPECT_EQ(outputs.debug_log.status, ProbeStatus::kOk) << "the log up to the hang is kept, to say why";
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
  // The probe's own SIGKILL at the deadline is no death (never the OOM killer's); the node's
  // limits are still recorded.
  EXPECT_EQ(outputs.allreduce.text.find("# worker-died"), std::string::npos) << outputs.allreduce.text;
  EXPECT_NE(outputs.allreduce.text.find("# limits "), std::string::npos) << outputs.allreduce.text;
  EXPECT_NE(outputs.allreduce.text.find(" node=node1"), std::string::npos) << outputs.allreduce.text;
}

// A worker that dies by itself inside NCCL's init (a /dev/shm segment it could not extend, then
// SIGBUS): the table records its signal, what NCCL's log warned and the node's limits, and the
// one rule reads them back as /dev/shm exhaustion on node1.
TEST(NcclRun, WorkerThatDiesOfShmIsRecordedWithItsSignalLogAndLimits) {
  WorkerScratch scratch;
  scratch.options.collective_timeout_s = 5;
  const std::string worker = WriteScript(scratch.scripts.path(), R"sh(dir="$3"
echo 'ready gpus=2 nccl_version=2.21.5 cuda_runtime=12.4 devices="0000:18:00.0 0000:2a:00.0"'
[ "$4" = "--root" ] && echo "unique-id hex=$(printf '%0256d' 7)"
read kind rest
echo "node1:2211:2211 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>" >> "$dir/nccl-debug.log"
echo "node1:2211:2230 [0] include/shmutils.cc:41 NCCL WARN Error: failed to extend /dev/shm/nccl-qJ7dMa to 9637892 bytes" >> "$dir/nccl-debug.log"
echo "node1:2211:2230 [0] NCCL WARN Call to posix_fallocate failed : No space left on device" >> "$dir/nccl-debug.log"
kill -BUS $$
)sh");
  const auto start = std::chrono::steady_clock::now();
  const NcclRunOutputs outputs = RunOnOneNode(worker, nullptr, scratch.options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << "its death is seen at once";
  EXPECT_EQ(outputs.allreduce.status, ProbeStatus::kFailed);
  EXPECT_NE(outputs.allreduce.text.find("# worker-died node=node1 signal=7\n"), std::string::npos)
      << outputs.allreduce.text;
  const auto records = resource_limits::ParseDeathLines(outputs.allreduce.text);
  ASSERT_EQ(records.deaths.count("node1"), 1u) << outputs.allreduce.text;
  EXPECT_EQ(records.deaths.at("node1").text.size(), 2u) << "NCCL's warnings, not its INFO lines";
  ASSERT_EQ(records.limits.count("node1"), 1u) << outputs.allreduce.text;
  EXPECT_TRUE(records.limits.at("node1").open_files) << "measured in the probe's process";
  const auto deaths = resource_limits::ClassifyRecordedDeaths(records, "the NCCL worker");
  ASSERT_EQ(deaths.size(), 1u);
  EXPECT_EQ(deaths[0].exhaustion.code, "shm-exhausted");
  EXPECT_EQ(deaths[0].who, "the NCCL worker on node1");
  EXPECT_NE(deaths[0].exhaustion.evidence.find("failed to extend /dev/shm/nccl-qJ7dMa"), std::string::npos);
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

// A profile of NCCL floors for alltoall (8 and 16 MiB) and allgather (8 MiB) on one node.
Profile NcclFloorsProfile() {
  Result<Profile> profile = ParseProfile(
      "name: floors\nnccl_collectives:\n"
      "  - {collective: alltoall, nodes: 1, size_bytes: 8388608, busbw_floor_gb_per_s: 1, source: a test}\n"
      "  - {collective: alltoall, nodes: 1, size_bytes: 16777216, busbw_floor_gb_per_s: 1, source: a test}\n"
      "  - {collective: allgather, nodes: 1, size_bytes: 8388608, busbw_floor_gb_per_s: 1, source: a test}\n",
      "floors.yaml");
  EXPECT_TRUE(profile) << profile.error();
  return profile ? *profile : Profile{};
}

// After the sweep, the collectives the profile names, at its sizes, each as its own table in
// mpi-collectives.txt's format; every node's init time in its own file.
TEST(NcclRun, ReplayedCollectivesBecomeTablesAndInitTimesARecord) {
  WorkerScratch scratch;
  scratch.options.allreduce_max_bytes = 8 * allreduce_sweep::kMiB;
  const Profile profile = NcclFloorsProfile();
  const NcclRunOutputs outputs = RunOnOneNode(ReplayingWorker(scratch.scripts.path()), &profile, scratch.options);
  ASSERT_EQ(outputs.allreduce.status, ProbeStatus::kOk) << outputs.allreduce.detail;
  ASSERT_EQ(outputs.collectives.status, ProbeStatus::kOk) << outputs.collectives.detail;
  const std::string seen = test_support::ReadFile(scratch.scripts.path() + "/seen.txt");
  EXPECT_NE(seen.find("measure size_bytes=8388608 warmup=5 iterations=20 collective=alltoall"), std::string::npos)
      << seen;
  EXPECT_NE(seen.find("measure size_bytes=8388608 warmup=5 iterations=20 collective=allgather"), std::string::npos)
      << seen;
  EXPECT_EQ(seen.find("collective=reduce_scatter"), std::string::npos) << "no floor, not measured";
  // The 16 MiB floor is capped at --allreduce-max-bytes, as the sweep is: one alltoall row.
  const auto results = test_support::Parsed(ParseNcclCollectives(outputs.collectives.text, outputs.collectives.origin));
  ASSERT_EQ(results.tables.size(), 2u) << outputs.collectives.text;
  const auto& alltoall = results.tables.at("alltoall");
  EXPECT_EQ(alltoall.tool, "gpuconform NCCL alltoall");
  EXPECT_EQ(alltoall.ranks, 2);
  ASSERT_EQ(alltoall.rows.size(), 1u);
  EXPECT_NEAR(alltoall.rows[0].busbw_gb_per_s, 8.389 / 2, 0.001);  // 8 MiB in 1000 us, factor 1/2 on 2 ranks
  EXPECT_EQ(outputs.init.status, ProbeStatus::kOk) << outputs.init.detail;
  EXPECT_EQ(outputs.init.text, "node host=node1 seconds=0.500\n");
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

TEST(NcclRun, ACollectiveThisNcclLacksIsNotedAndTheOthersStillRun) {
  WorkerScratch scratch;
  scratch.options.allreduce_max_bytes = 8 * allreduce_sweep::kMiB;
  const Profile profile = NcclFloorsProfile();
  const NcclRunOutputs outputs =
      RunOnOneNode(ReplayingWorker(scratch.scripts.path(), "", "", "alltoall"), &profile, scratch.options);
  ASSERT_EQ(outputs.collectives.status, ProbeStatus::kOk) << outputs.collectives.detail;
  const auto results = test_support::Parsed(ParseNcclCollectives(outputs.collectives.text, outputs.collectives.origin));
  EXPECT_EQ(results.not_measured.at("alltoall"), "node1: libnccl.so.2 lacks ncclSend, ncclRecv (NCCL older than 2.7)");
  EXPECT_EQ(results.tables.count("alltoall"), 0u);
  EXPECT_EQ(results.tables.count("allgather"), 1u);
}

// A worker that hangs in the second collective: killed at the deadline, the first collective's
// table kept, and the output says which collective and size it stopped at.
TEST(NcclRun, ACollectiveThatHangsKeepsTheTablesSoFarAndSaysWhereItStopped) {
  WorkerScratch scratch;
  scratch.options.collective_timeout_s = 1;
  scratch.options.allreduce_max_bytes = 8 * allreduce_sweep::kMiB;
  const Profile profile = NcclFloorsProfile();
  const auto start = std::chrono::steady_clock::now();
  const NcclRunOutputs outputs =
      RunOnOneNode(ReplayingWorker(scratch.scripts.path(), "", "collective=allgather"), &profile, scratch.options);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(outputs.allreduce.status, ProbeStatus::kOk) << "the sweep before it stands";
  EXPECT_EQ(outputs.collectives.status, ProbeStatus::kFailed);
  EXPECT_NE(outputs.collectives.detail.find("node1: the NCCL allgather of 8388608 B did not complete within 1 s"),
            std::string::npos)
      << outputs.collectives.detail;
  const auto results = test_support::Parsed(ParseNcclCollectives(outputs.collectives.text, outputs.collectives.origin));
  ASSERT_EQ(results.tables.count("alltoall"), 1u) << outputs.collectives.text;
  EXPECT_EQ(results.tables.at("alltoall").rows.size(), 1u);
  EXPECT_EQ(results.tables.count("allgather"), 0u);
  EXPECT_EQ(outputs.init.status, ProbeStatus::kOk);
  EXPECT_TRUE(EmptyDirectory(scratch.work.path()));
}

TEST(NcclRun, ASweepThatFailedLeavesTheCollectivesNotMeasuredAndTheInitFailed) {
  WorkerScratch scratch;
  scratch.options.collective_timeout_s = 1;
  const Profile profile = NcclFloorsProfile();
  const NcclRunOutputs outputs = RunOnOneNode(ReplayingWorker(scratch.scripts.path(), "init"), &profile, scratch.options);
  EXPECT_EQ(outputs.collectives.status, ProbeStatus::kFailed);
  EXPECT_NE(outputs.collectives.detail.find("not measured: the NCCL run stopped in its allreduce sweep"),
            std::string::npos)
      << outputs.collectives.detail;
  EXPECT_EQ(outputs.init.status, ProbeStatus::kFailed);
  EXPECT_NE(outputs.init.text.find("node host=node1 problem="), std::string::npos) << outputs.init.text;
}

}  // namespace
}  // namespace gpuconform::nccl_run
