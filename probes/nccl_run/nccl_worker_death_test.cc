// How a node's NCCL worker ended, as the one rule on deaths of a node's resource reads it: NCCL's
// own words (its log's WARN lines, recorded from real failures), the worker's status, and the
// probe's SIGKILL never taken for the OOM killer's; and the records' round trip.
#include "probes/nccl_run/nccl_worker_death.h"

#include <gtest/gtest.h>

#include <csignal>

#include "probes/resource_limits/death_records.h"

namespace gpuconform::nccl_run {
namespace {

using resource_limits::ClassifyDeath;
using resource_limits::NodeLimits;

constexpr char kInfo[] = "node3:4411:4411 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.3<0>\n";

WorkerEnd ErrorLine(const std::string& reason) {
  WorkerEnd end;
  end.exit_code = 1;
  end.error_reason = reason;
  return end;
}

std::string CodeOf(const std::optional<resource_limits::WorkerDeath>& death, const NodeLimits& limits = {}) {
  if (!death) return "no death";
  const auto exhaustion = ClassifyDeath(*death, limits);
  return exhaustion ? std::string(exhaustion->code.code()) : "unexplained";
}

TEST(NcclWorkerDeath, RegisteringMemoryThatRlimitMemlockRefusesIsLockedMemory) {
  const std::string log = std::string(kInfo) +
                          "node3:4411:4433 [2] NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory\n"
                          "node3:4411:4433 [2] NCCL INFO transport/net_ib.cc:829 -> 2\n";
  const auto death = NcclWorkerDeath(ErrorLine("ncclCommInitRank: unhandled system error (run with NCCL_DEBUG=INFO for details)"),
                                     "", log);
  NodeLimits limits;
  limits.memlock_bytes = 64 << 10;
  ASSERT_TRUE(death);
  EXPECT_EQ(death->exit_code, 1);
  EXPECT_EQ(CodeOf(death, limits), "memlock-too-low");
  EXPECT_EQ(ClassifyDeath(*death, limits)->limit, "RLIMIT_MEMLOCK is 64 KiB");
  const auto reg_mr = NcclWorkerDeath(
      ErrorLine("ncclAllReduce: unhandled system error"), "",
      "node3:4411:4433 [0] NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory\n");
  EXPECT_EQ(CodeOf(reg_mr), "memlock-too-low");
}

TEST(NcclWorkerDeath, AShmSegmentNcclCouldNotExtendIsShm) {
  const std::string log = std::string(kInfo) +
                          "node3:4411:4433 [1] include/shmutils.cc:41 NCCL WARN Error: failed to extend "
                          "/dev/shm/nccl-qJ7dMa to 9637892 bytes\n"
                          "node3:4411:4433 [1] NCCL WARN Call to posix_fallocate failed : No space left on device\n";
  EXPECT_EQ(CodeOf(NcclWorkerDeath(ErrorLine("ncclCommInitRank: unhandled system error"), "", log)), "shm-exhausted");
  // Older NCCL says only posix_fallocate's ENOSPC: its segments are in /dev/shm.
  EXPECT_EQ(CodeOf(NcclWorkerDeath(ErrorLine("ncclCommInitRank: unhandled system error"), "",
                                   "node3:4411:4433 [1] NCCL WARN Call to posix_fallocate failed : No space left on device\n")),
            "shm-exhausted");
}

TEST(NcclWorkerDeath, ABusErrorOrTheOomKillersSigkillIsTheWorkersOwnDeath) {
  WorkerEnd bus;
  bus.signal = SIGBUS;
  const auto shm = NcclWorkerDeath(bus, "", kInfo);
  ASSERT_TRUE(shm);
  EXPECT_EQ(shm->signal, SIGBUS);
  NodeLimits limits;
  limits.shm_bytes = 64 << 20;
  EXPECT_EQ(CodeOf(shm, limits), "shm-exhausted");
  EXPECT_EQ(ClassifyDeath(*shm, limits)->limit, "/dev/shm is 64 MiB");
  WorkerEnd oom;
  oom.signal = SIGKILL;
  EXPECT_EQ(CodeOf(NcclWorkerDeath(oom, "", kInfo)), "memory-exhausted");
}

TEST(NcclWorkerDeath, TooManyOpenFilesOnStderrOrInTheLogIsOpenFiles) {
  const auto death = NcclWorkerDeath(
      ErrorLine("ncclCommInitRank: unhandled system error"), "",
      std::string(kInfo) + "node3:4411:4440 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                           "10.1.0.1<45219> failed : Too many open files\n");
  EXPECT_EQ(CodeOf(death), "open-files-exhausted");
  WorkerEnd crashed;
  crashed.exit_code = 134;
  EXPECT_EQ(CodeOf(NcclWorkerDeath(crashed, "terminate called after throwing an instance of 'std::system_error'\n"
                                             "  what():  Too many open files\n", "")),
            "open-files-exhausted");
}

TEST(NcclWorkerDeath, TheProbesOwnKillOrAQuitIsNoDeathAndAKilledErrorCarriesNoSignal) {
  WorkerEnd quit;
  quit.exit_code = 0;
  EXPECT_FALSE(NcclWorkerDeath(quit, "", kInfo));
  WorkerEnd deadline;
  deadline.killed_by_probe = true;
  EXPECT_FALSE(NcclWorkerDeath(deadline, "", "node3:4411:4433 [0] NCCL WARN NET/IB : Got completion from peer "
                                              "10.1.0.2<54032> with status=12 opcode=0 len=0 vendor err 129\n"))
      << "a worker the probe stopped waiting for died of another node's failure";
  WorkerEnd killed_after_error = deadline;
  killed_after_error.error_reason = "ncclAllReduce: remote process exited or there was a network error";
  const auto death = NcclWorkerDeath(killed_after_error, "", "");
  ASSERT_TRUE(death);
  EXPECT_FALSE(death->signal);
  EXPECT_EQ(CodeOf(death), "unexplained") << "the probe's SIGKILL is not the OOM killer's";
}

TEST(NcclWorkerDeath, RecordsReadBackAsTheNamedWorkersDeathWithItsNodesLimits) {
  const auto death = NcclWorkerDeath(ErrorLine("ncclCommInitRank: unhandled system error"), "",
                                     "node3:4411:4433 [1] NCCL WARN Call to posix_fallocate failed : No space left on device\n");
  ASSERT_TRUE(death);
  NodeLimits small;
  small.shm_bytes = 64 << 10;
  small.shm_free_bytes = 0;
  const std::string text = "# nThread 1 nGpus 16\n" + resource_limits::NodeLimitsLine("node1", {}) +
                           resource_limits::NodeLimitsLine("node3", small) +
                           resource_limits::DeathLines({{"node3", *death}});
  const auto records = resource_limits::ParseDeathLines(text);
  ASSERT_EQ(records.deaths.count("node3"), 1u) << text;
  EXPECT_EQ(records.deaths.at("node3").exit_code, 1);
  EXPECT_EQ(records.deaths.at("node3").text, death->text);
  const auto classified = resource_limits::ClassifyRecordedDeaths(records, "the NCCL worker");
  ASSERT_EQ(classified.size(), 1u);
  EXPECT_EQ(classified[0].node, "node3");
  EXPECT_EQ(classified[0].who, "the NCCL worker on node3");
  EXPECT_EQ(classified[0].exhaustion.limit, "/dev/shm is 64 KiB (0 B free)");
  EXPECT_TRUE(resource_limits::ClassifyRecordedDeaths(resource_limits::ParseDeathLines("# nThread 1 nGpus 16\n"),
                                                      "the NCCL worker")
                  .empty())
      << "a table from before the records";
}

}  // namespace
}  // namespace gpuconform::nccl_run
