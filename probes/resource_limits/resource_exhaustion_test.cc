#include "probes/resource_limits/resource_exhaustion.h"

#include <gtest/gtest.h>

#include "probes/resource_limits/node_limits.h"

namespace gpuconform::resource_limits {
namespace {

NodeLimits SmallShm() {
  NodeLimits limits;
  limits.shm_bytes = 64 << 10;
  limits.shm_free_bytes = 60 << 10;
  limits.open_files = 64;
  limits.memlock_bytes = 64 << 10;
  limits.memory_max_bytes = 2LL << 30;
  return limits;
}

NodeLimits LargeShm() {
  NodeLimits limits;
  limits.shm_bytes = 32LL << 30;
  return limits;
}

std::optional<Exhaustion> FromText(std::vector<std::string> text, const NodeLimits& limits = {}) {
  return ClassifyDeath({std::nullopt, std::nullopt, false, std::move(text)}, limits);
}

// Each text alone (behind a traceback's first line) is classified as `code`, with the limit given.
void ExpectEach(const std::vector<std::string>& texts, const char* code, const std::string& limit,
                const NodeLimits& limits) {
  for (const auto& text : texts) {
    const auto found = FromText({"Traceback (most recent call last):", text}, limits);
    ASSERT_TRUE(found) << text;
    EXPECT_EQ(found->code, code) << text;
    EXPECT_EQ(found->limit, limit) << text;
  }
}

TEST(ResourceExhaustion, NoSpaceWithoutPathOnASmallShmIsShm) {
  const auto found = FromText({"OSError: [Errno 28] No space left on device"}, SmallShm());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->code, "shm-exhausted");
  EXPECT_EQ(found->limit, "/dev/shm is 64 KiB (60 KiB free)");
  const std::string message = DescribeExhaustion("node3", *found);
  EXPECT_NE(message.find("node3: /dev/shm ran out (/dev/shm is 64 KiB (60 KiB free))"), std::string::npos) << message;
  EXPECT_NE(message.find("OSError: [Errno 28]"), std::string::npos);
}

TEST(ResourceExhaustion, NoSpaceWithoutPathOnALargeShmIsTheDisk) {
  const auto found = FromText({"OSError: [Errno 28] No space left on device"}, LargeShm());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->code, "storage-full");
}

TEST(ResourceExhaustion, PyTorchSharedMemoryMessagesAreShm) {
  ExpectEach({"RuntimeError: DataLoader worker (pid 12345) is killed by signal: Bus error. It is possible that "
              "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
              "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory "
              "(shm).",
              "RuntimeError: unable to write to file </torch_18692_1954506624_0>: No space left on device (28)",
              "OSError: [Errno 28] No space left on device: '/dev/shm/torch_4242_123'",
              "node3:1234:1300 [0] include/shm.h:48 NCCL WARN Error: failed to extend /dev/shm/nccl-03v824 to 9637892 "
              "bytes",
              "traceback : Signal 7 (SIGBUS) received by PID 4242"},
             "shm-exhausted", "/dev/shm is 32 GiB", LargeShm());  // measured, even where it is large
}

// The worker's error record holds a DataLoader worker's re-raised exception whole, its
// traceback flattened into one line (quotes made '): the source files it names are no path
// that ran out, and the evidence is the part around the words.
TEST(ResourceExhaustion, AFlattenedDataLoaderTracebackIsShmWithAShortExcerpt) {
  std::string text = "OSError: Caught OSError in DataLoader worker process 0. Original Traceback (most recent call "
                     "last):";
  for (int frame = 0; frame < 6; ++frame) {
    text += "   File '/usr/lib/python3/dist-packages/torch/utils/data/_utils/worker.py', line 308, in _worker_loop";
  }
  text += "     OSError: [Errno 28] No space left on device";
  const auto found = FromText({text}, SmallShm());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->code, "shm-exhausted");
  EXPECT_LE(found->evidence.size(), 250u);
  EXPECT_NE(found->evidence.find("[Errno 28] No space left on device"), std::string::npos) << found->evidence;
}

TEST(ResourceExhaustion, SigbusStatusIsShm) {
  EXPECT_EQ(ClassifyDeath({135, std::nullopt, false, {}}, {})->code, "shm-exhausted");
  EXPECT_EQ(ClassifyDeath({std::nullopt, 7, false, {}}, {})->code, "shm-exhausted");
}

TEST(ResourceExhaustion, VerbsCannotAllocateMemoryIsMemlock) {
  ExpectEach({"node2:5555:5600 [0] misc/ibvwrap.cc:129 NCCL WARN Call to ibv_create_cq failed with error Cannot "
              "allocate memory",
              "node2:5555:5600 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate "
              "memory",
              "[node2:05555] UCX  ERROR ibv_reg_mr(address=0x7f00, length=4194304, access=0xf) failed: Cannot allocate "
              "memory",
              "The OpenFabrics (openib) BTL failed to initialize while trying to allocate some locked memory."},
             "memlock-too-low", "RLIMIT_MEMLOCK is 64 KiB", SmallShm());
}

// What MPI, NCCL, libfabric and Slurm print for the same resources, in the MPI sweep's and the
// NCCL run's steps.
TEST(ResourceExhaustion, LauncherAndTransportWordingsAreClassified) {
  ExpectEach({"It appears as if there is not enough space for /dev/shm/vader_segment.node3.9c2b0001.2 (the "
              "shared-memory backing file). It is likely that your MPI job will now either abort or experience "
              "performance degradation.",
              "node3:2143:2561 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device",
              "srun: error: node3: task 2: Bus error"},
             "shm-exhausted", "/dev/shm is 32 GiB", LargeShm());
  ExpectEach({"fi_mr_reg failed, ret is:-12, Cannot allocate memory",
              "[1733562000.123456] [node3:4242:0] ib_md.c:310 UCX  ERROR ibv_reg_mr(address=0x7f00, length=4194304, "
              "access=0xf) failed: Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' "
              "(current: 64 kbytes)"},
             "memlock-too-low", "RLIMIT_MEMLOCK is 64 KiB", SmallShm());
  ExpectEach({"srun: error: node2: tasks 1-3: Out Of Memory",
              "slurmstepd: error: Detected 2 oom-kill event(s) in step 3495064.0 cgroup. Some of your processes may "
              "have been killed by the cgroup out-of-memory handler."},
             "memory-exhausted", "the job's cgroup memory.max is 2 GiB", SmallShm());
}

TEST(ResourceExhaustion, TooManyOpenFilesIsOpenFiles) {
  ExpectEach({"OSError: [Errno 24] Too many open files: '/data/x.bin'", "accept: Too many open files (errno 24)",
              "RuntimeError: received 0 items of ancdata"},
             "open-files-exhausted", "RLIMIT_NOFILE is 64", SmallShm());
}

TEST(ResourceExhaustion, OutOfMemoryIsMemory) {
  ExpectEach({"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 79.15 GiB total "
              "capacity; 78.90 GiB already allocated)",
              "slurmstepd: error: Detected 1 oom_kill event in StepId=42.0. Some of the step tasks have been OOM "
              "Killed.",
              "MemoryError", "[ 1234.5678] Memory cgroup out of memory: Killed process 4242 (python3)",
              "terminate called after throwing an instance of 'std::bad_alloc'", "Killed",
              "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 4242) "
              "of binary: /usr/bin/python3"},
             "memory-exhausted", "the job's cgroup memory.max is 2 GiB", SmallShm());
  EXPECT_EQ(ClassifyDeath({137, std::nullopt, false, {}}, {})->code, "memory-exhausted");
}

TEST(ResourceExhaustion, ADeadlineKillIsNoResource) {
  EXPECT_FALSE(ClassifyDeath({137, 9, true, {"Killed"}}, {}));
  EXPECT_FALSE(ClassifyDeath({135, 7, true, {}}, {}));
}

TEST(ResourceExhaustion, DiskFullAndQuotaNameThePath) {
  auto found = FromText({"OSError: [Errno 28] No space left on device: '/shared/run/checkpoint.pt.tmp'"}, SmallShm());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->code, "storage-full");
  EXPECT_EQ(found->resource_name, "disk space on /shared/run/checkpoint.pt.tmp");
  found = FromText({"OSError: [Errno 122] Disk quota exceeded: '/home/u/x'"});
  ASSERT_TRUE(found);
  EXPECT_EQ(found->code, "storage-quota");
}

TEST(ResourceExhaustion, OtherDeathsAreNotResources) {
  EXPECT_FALSE(FromText({"RuntimeError: Connection reset by peer", "FileNotFoundError: [Errno 2] No such file or "
                                                                    "directory: '/shared/checkpoint.pt'"},
                        SmallShm()));
  EXPECT_FALSE(ClassifyDeath({1, std::nullopt, false, {"AttributeError: 'NoneType' object has no attribute 'get'"}}, {}));
  EXPECT_FALSE(ClassifyDeath({143, 15, false, {}}, {}));
}

TEST(ResourceExhaustion, DependentSkipNamesNodeResourceAndCase) {
  const auto found = FromText({"OSError: [Errno 28] No space left on device"}, SmallShm());
  ASSERT_TRUE(found);
  EXPECT_EQ(DependentSkip("rank 4 on node3", *found, "Torchrun.DataLoaderThroughput/node3"),
            "rank 4 on node3 died of /dev/shm exhaustion (/dev/shm is 64 KiB (60 KiB free)) (shm-exhausted), so this "
            "check has nothing to judge; Torchrun.DataLoaderThroughput/node3 names it");
}

TEST(ResourceExhaustion, BinarySizes) {
  EXPECT_EQ(BinarySize(65536), "64 KiB");
  EXPECT_EQ(BinarySize(1536), "1.5 KiB");
  EXPECT_EQ(BinarySize(100), "100 B");
  EXPECT_EQ(BinarySize(8LL << 30), "8 GiB");
}

TEST(NodeLimits, RecordRoundTrips) {
  const std::string line = LimitsRecordLine(SmallShm());
  EXPECT_EQ(line, "limits memlock_bytes=65536 memory_max_bytes=2147483648 open_files=64 shm_bytes=65536 "
                  "shm_free_bytes=61440");
  const auto records = ParseRecordLines(line + "\n", "t");
  ASSERT_TRUE(records);
  const NodeLimits back = LimitsFromRecord(records->front());
  EXPECT_EQ(back.shm_bytes, 65536);
  EXPECT_EQ(back.shm_free_bytes, 61440);
  EXPECT_EQ(back.open_files, 64);
  EXPECT_EQ(back.memlock_bytes, 65536);
  EXPECT_EQ(back.memory_max_bytes, 2147483648LL);
}

TEST(NodeLimits, MeasuresThisMachinesShm) {
  const NodeLimits limits = MeasureNodeLimits();
  ASSERT_TRUE(limits.shm_bytes) << "every Linux machine gpuconform runs on has /dev/shm";
  EXPECT_GT(*limits.shm_bytes, 0);
  EXPECT_TRUE(limits.open_files);
}

}  // namespace
}  // namespace gpuconform::resource_limits
