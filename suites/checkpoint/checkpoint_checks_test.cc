// Checkpoint suite: the self-verifying file format, the real writer (atomic and in place),
// the real probe run in one process against a temporary directory (writer children really
// SIGKILLed), the checks on outputs made to fail, and the clean-up even when killed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "harness/core/finding_causes.h"
#include "harness/core/live_source.h"
#include "harness/world/gather.h"
#include "harness/world/world.h"
#include "probes/checkpoint_writer/checkpoint_format.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"
#include "probes/checkpoint_writer/checkpoint_probe.h"
#include "probes/checkpoint_writer/checkpoint_writer.h"
#include "probes/checkpoint_writer/checkpoint_writer_facts.h"
#include "suites/checkpoint/checkpoint_checks.h"
#include "tests/support/registered_checks.h"
#include "tests/support/test_support.h"

namespace gpuconform::checkpoint {
namespace {

namespace fs = std::filesystem;
using test_support::Describe;
using test_support::VerdictsByCheck;

// A fresh directory per test, removed afterwards.
using test_support::TempDir;

std::string Slurp(const std::string& path) { return test_support::ReadFile(path); }

// Both directories exist and lie on different filesystems (a rename between them is EXDEV).
bool OnTwoFilesystems(const TempDir& a, const TempDir& b) {
  struct stat a_stat {}, b_stat {};
  return !a.path().empty() && !b.path().empty() && ::stat(a.path().c_str(), &a_stat) == 0 &&
         ::stat(b.path().c_str(), &b_stat) == 0 && a_stat.st_dev != b_stat.st_dev;
}

// ---- format --------------------------------------------------------------------------

TEST(CheckpointFormat, CompleteFileVerifiesWithItsVersionAndWriter) {
  const CheckpointSpec spec{7, 3, 256 * 1024, 16 * 1024};
  const std::string bytes = BuildCheckpoint(spec);
  EXPECT_EQ(bytes.size(), CheckpointFileBytes(spec));
  const CheckpointState state = VerifyCheckpoint(bytes);
  EXPECT_TRUE(state.complete) << state.problem;
  EXPECT_EQ(state.version, 7u);
  EXPECT_EQ(state.writer, 3u);
}

TEST(CheckpointFormat, EveryTruncationIsTorn) {
  const std::string bytes = BuildCheckpoint({1, 0, 64 * 1024, 16 * 1024});
  for (std::size_t n = 0; n < bytes.size(); n += 997) {
    const CheckpointState state = VerifyCheckpoint(std::string_view(bytes).substr(0, n));
    EXPECT_FALSE(state.complete) << n;
    EXPECT_FALSE(state.problem.empty()) << n;
  }
  EXPECT_NE(VerifyCheckpoint(bytes.substr(0, bytes.size() - 1)).problem.find("truncated"), std::string::npos);
  EXPECT_NE(VerifyCheckpoint("").problem.find("empty file"), std::string::npos);
}

TEST(CheckpointFormat, FlippedByteFailsTheChecksum) {
  std::string bytes = BuildCheckpoint({1, 0, 64 * 1024, 16 * 1024});
  bytes[kCheckpointHeaderBytes + 100] ^= 0x01;
  const CheckpointState state = VerifyCheckpoint(bytes);
  EXPECT_FALSE(state.complete);
  EXPECT_NE(state.problem.find("checksum"), std::string::npos) << state.problem;
}

TEST(CheckpointFormat, ChunksOfAnotherWriterOrVersionAreNamed) {
  const std::string a = BuildCheckpoint({5, 0, 64 * 1024, 16 * 1024});
  const std::string other_writer = BuildCheckpoint({5, 2, 64 * 1024, 16 * 1024});
  const std::string other_version = BuildCheckpoint({4, 0, 64 * 1024, 16 * 1024});
  const std::size_t second_chunk = kCheckpointHeaderBytes + 16 * 1024;
  std::string mixed_writers = a.substr(0, second_chunk) + other_writer.substr(second_chunk);
  EXPECT_NE(VerifyCheckpoint(mixed_writers).problem.find("chunks from writers 0, 2"), std::string::npos)
      << VerifyCheckpoint(mixed_writers).problem;
  std::string mixed_versions = a.substr(0, second_chunk) + other_version.substr(second_chunk);
  EXPECT_NE(VerifyCheckpoint(mixed_versions).problem.find("chunks of versions 4, 5"), std::string::npos)
      << VerifyCheckpoint(mixed_versions).problem;
}

TEST(CheckpointFormat, GarbageNeverVerifiesAndNeverCrashes) {
  const std::string bytes = BuildCheckpoint({1, 0, 32 * 1024, 16 * 1024});
  test_support::SurvivesTruncationAndNoise(bytes.substr(0, 2000), [](const std::string& text, const std::string&) {
    return VerifyCheckpoint(text);
  });
  EXPECT_FALSE(VerifyCheckpoint(std::string(100000, '\xff')).complete);
}

// ---- writer ------------------------------------------------------------------------------

TEST(CheckpointWriter, AtomicWriteLeavesOnlyTheFinalFileAndPassesEveryPhase) {
  TempDir dir;
  WriteRequest request{dir.path(), "model.ckpt", "", {3, 0, 128 * 1024, 64 * 1024}, WriteMode::kAtomic, 0};
  std::vector<std::string> phases;
  // The write must succeed; its value (the final path) is checked through the directory below.
  test_support::Parsed(WriteCheckpoint(request, [&](WritePhase phase) { phases.push_back(WritePhaseName(phase)); }));
  EXPECT_EQ(phases, (std::vector<std::string>{"before-write", "mid-write", "after-fsync", "after-rename", "done"}));
  EXPECT_TRUE(VerifyCheckpoint(Slurp(dir.path() + "/model.ckpt")).complete);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(CheckpointWriter, RenameFromAnotherFilesystemFailsWithExdev) {
  TempDir target;
  TempDir other("/dev/shm");
  if (!OnTwoFilesystems(target, other)) GTEST_SKIP() << "no second filesystem (/dev/shm) beside " << target.path();
  WriteRequest request{target.path(), "model.ckpt", other.path(), {1, 0, 64 * 1024, 64 * 1024}, WriteMode::kAtomic, 0};
  test_support::ExpectErrorContaining(WriteCheckpoint(request, [](WritePhase) {}), "Invalid cross-device link");
  EXPECT_FALSE(fs::exists(target.path() + "/model.ckpt"));
}

// ---- the probe, for real, in one process ------------------------------------------------

CheckpointExpectation SmallExpectation() {
  CheckpointExpectation expect;
  expect.torture_kills = 10;
  expect.negative_control_kills = 5;
  expect.test_file_bytes = 256 * 1024;
  expect.publish_versions = 5;
  expect.parallel_readers = 2;
  expect.read_bytes_per_reader = 1 << 20;
  expect.size_bytes = 1 << 20;
  expect.source = "test";
  return expect;
}

ProbeOptions SmallOptions(const std::string& target) {
  ProbeOptions options;
  options.configured = true;
  options.target_dir = target;
  options.target_origin = "the test";
  options.writer_executable = GPUCONFORM_BINARY;
  options.expect = SmallExpectation();
  return options;
}

Profile ProfileWith(const CheckpointExpectation& expect) {
  Profile profile;
  profile.name = "test";
  profile.Set(expect);
  return profile;
}

// Every node's checkpoint.txt judged by the registered suite, as a replayed snapshot is.
std::vector<CheckResult> Judge(const std::map<std::string, std::string>& texts, const Profile& profile) {
  ClusterRaw raw;
  for (const auto& [node, text] : texts) {
    raw.nodes.push_back(node);
    raw.node[node]["checkpoint"] = {ProbeStatus::kOk, text, node + ": Checkpoint probe", ""};
  }
  return test_support::JudgeRegistered(kSuite, raw, profile);
}

std::string RunProbe(const ProbeOptions& options) {
  const World world = World::Single();
  const CollectiveContext context{world, nullptr, "node1", true, {"node1"}};
  return RunCheckpointProbe(context, options);
}

TEST(CheckpointProbe, RealRunOnALocalDirectoryConformsAndLeavesNothing) {
  TempDir target;
  std::ofstream(target.path() + "/user-checkpoint.pt") << "the user's own file";
  const std::string text = RunProbe(SmallOptions(target.path()));
  const auto results = Judge({{"node1", text}}, ProfileWith(SmallExpectation()));
  const auto verdicts = VerdictsByCheck(results);
  for (const char* check : {kTargetShared, kTempOnSameFilesystem, kAtomicPublish, kCrashTortureLeavesValidCheckpoint, kNegativeControlDetected,
                            kSingleWriter, kCapacity, kRunDirectoryRemoved}) {
    EXPECT_EQ(verdicts.at(check), Verdict::kPass) << check << "\n" << Describe(results) << text;
  }
  EXPECT_EQ(verdicts.at(kCrossNodeVisibility), Verdict::kSkip) << "one node";
  EXPECT_EQ(verdicts.at(kReadThroughput), Verdict::kSkip) << "no floor: recorded";
  // Every phase was killed at, and the in-place control tore.
  for (const char* phase : {"before-write", "mid-write", "after-fsync", "after-rename", "random"}) {
    EXPECT_NE(text.find("mode=atomic index=") , std::string::npos);
    EXPECT_NE(text.find("phase=" + std::string(phase)), std::string::npos) << phase << "\n" << text;
  }
  EXPECT_NE(text.find("mode=in-place"), std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex("verify mode=in-place index=\\d+ state=torn")));
  // Only the user's file is left, untouched.
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(target.path())) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"user-checkpoint.pt"});
  EXPECT_EQ(Slurp(target.path() + "/user-checkpoint.pt"), "the user's own file");
}

TEST(CheckpointProbe, TempLocationOnAnotherFilesystemFailsWithExdev) {
  TempDir target;
  TempDir other("/dev/shm");
  if (!OnTwoFilesystems(target, other)) GTEST_SKIP() << "no second filesystem (/dev/shm) beside " << target.path();
  ProbeOptions options = SmallOptions(target.path());
  options.expect.temp_dir = other.path();
  options.expect.torture_kills = 5;
  const auto results = Judge({{"node1", RunProbe(options)}}, ProfileWith(options.expect));
  const auto exdev = std::find_if(results.begin(), results.end(), [](const auto& r) { return r.check == kTempOnSameFilesystem; });
  ASSERT_NE(exdev, results.end());
  EXPECT_EQ(exdev->verdict, Verdict::kFail) << Describe(results);
  ASSERT_FALSE(exdev->findings.empty());
  EXPECT_NE(exdev->findings[0].message.find("EXDEV"), std::string::npos) << exdev->findings[0].message;
  EXPECT_NE(exdev->findings[0].message.find("tmpfs"), std::string::npos) << exdev->findings[0].message;
  EXPECT_TRUE(fs::is_empty(other.path())) << "the probe file in the temp location is removed";
}

TEST(CheckpointProbe, NoTargetIsAnErrorThatSaysHowToGiveOne) {
  ProbeOptions options = SmallOptions("");
  const auto results = Judge({{"node1", RunProbe(options)}}, ProfileWith(options.expect));
  ASSERT_EQ(results.size(), 10u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.check;
    ASSERT_FALSE(result.findings.empty());
    EXPECT_NE(result.findings[0].message.find("--checkpoint-dir"), std::string::npos) << result.findings[0].message;
  }
}

TEST(CheckpointProbe, SweepsOnlyRunDirectoriesOfKilledRunsOnThisHost) {
  TempDir target;
  fs::create_directories(target.path() + "/gpuconform-run-node1-999999999-dead/sub");  // no such pid
  fs::create_directories(target.path() + "/gpuconform-run-node1-" + std::to_string(::getppid()) + "-alive");
  fs::create_directories(target.path() + "/gpuconform-run-othernode-1-x");
  fs::create_directories(target.path() + "/experiments");
  ProbeOptions options = SmallOptions(target.path());
  options.expect.torture_kills = 5;
  const auto results = Judge({{"node1", RunProbe(options)}}, ProfileWith(options.expect));
  EXPECT_FALSE(fs::exists(target.path() + "/gpuconform-run-node1-999999999-dead"));
  EXPECT_TRUE(fs::exists(target.path() + "/gpuconform-run-node1-" + std::to_string(::getppid()) + "-alive"));
  EXPECT_TRUE(fs::exists(target.path() + "/gpuconform-run-othernode-1-x"));
  EXPECT_TRUE(fs::exists(target.path() + "/experiments"));
  const auto cleaned = std::find_if(results.begin(), results.end(), [](const auto& r) { return r.check == kRunDirectoryRemoved; });
  ASSERT_NE(cleaned, results.end());
  bool reported = false;
  for (const auto& m : cleaned->measurements) reported |= m.name == "swept_run_directories" && m.value == "1";
  EXPECT_TRUE(reported) << Describe(results);
}

// A SIGTERM (scancel, a time limit) removes the run directory; after a SIGKILL the next run
// sweeps it. Runs the real binary.
std::string WaitForRunDirectory(const std::string& target) {
  for (int i = 0; i < 300; ++i) {
    for (const auto& entry : fs::directory_iterator(target)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("gpuconform-run-", 0) == 0 && fs::exists(entry.path() / "torture.ckpt")) return name;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return "";
}

TEST(CheckpointProbe, KilledRunLeavesNothingBehind) {
  TempDir target;
  namespace bp = boost::process;
  for (int signal_number : {SIGTERM, SIGKILL}) {
    bp::environment env = boost::this_process::environment();
    env["GPUCONFORM_CHECKPOINT_KILLS"] = "100000";
    bp::child run(std::string(GPUCONFORM_BINARY), "run", "--profile", "local", "--checkpoint-dir", target.path(),
                  "--filter", "Checkpoint.*", env, bp::std_out > bp::null, bp::std_err > bp::null);
    const std::string run_dir = WaitForRunDirectory(target.path());
    ASSERT_FALSE(run_dir.empty()) << "the run never reached the torture";
    ::kill(run.id(), signal_number);
    run.wait();
    if (signal_number == SIGTERM) {
      EXPECT_FALSE(fs::exists(target.path() + "/" + run_dir)) << "SIGTERM removes the run directory";
    } else {
      ASSERT_TRUE(fs::exists(target.path() + "/" + run_dir)) << "SIGKILL cannot clean up";
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the writer child dies with its parent
      ProbeOptions options = SmallOptions(target.path());
      options.expect.torture_kills = 5;
      const World world = World::Single();
      const CollectiveContext context{world, nullptr, LocalHostname(), true, {}};
      const std::string text = RunCheckpointProbe(context, options);
      EXPECT_NE(text.find("swept dir=" + run_dir), std::string::npos) << text;
      EXPECT_TRUE(fs::is_empty(target.path())) << "the next run swept the killed run's directory";
    }
  }
}

// ---- checks on outputs made to fail -------------------------------------------------------

// A healthy three-node output, as the probe prints it; node1 ran rank 0.
std::map<std::string, std::string> HealthyCluster() {
  std::map<std::string, std::string> texts;
  for (const std::string node : {"node1", "node2", "node3"}) {
    std::string t = "checkpoint-probe version=1 node=" + node + "\n";
    t += "target path=/shared/ckpt origin=\"the test\" fs=nfs run_dir=/shared/ckpt/gpuconform-run-node1-1-a\n";
    t += "shared sees_token=yes\n";
    t += "temp path=/shared/ckpt/gpuconform-run-node1-1-a fs=nfs same_device=yes rename=ok\n";
    t += "capacity avail_bytes=5000000000000 total_bytes=9000000000000\n";
    if (node == "node1") t += "publish role=writer versions=5 bytes=1048576 elapsed_ms=50.0\n";
    t += "publish role=reader reads=40 complete=40 missing=0 torn=0 last_version=5 expected_last_version=5\n";
    const char* phases[] = {"before-write", "mid-write", "after-fsync", "after-rename", "random"};
    for (int i = 1; i <= 5; ++i) {
      if (node == "node1") t += "kill mode=atomic index=" + std::to_string(i) + " phase=" + phases[i - 1] + "\n";
      const int version = i >= 4 ? i : 0;
      t += "verify mode=atomic index=" + std::to_string(i) + " state=complete version=" + std::to_string(version) +
           " size=1048632\n";
    }
    for (int i = 1; i <= 2; ++i) {
      if (node == "node1") t += "kill mode=in-place index=" + std::to_string(i) + " phase=mid-write\n";
      t += "verify mode=in-place index=" + std::to_string(i) +
           " state=torn size=524288 problem=\"524288 of 1048632 bytes (truncated)\"\n";
    }
    if (node == "node1") {
      t += "visible trial=0 role=writer published_ms=20.0\n";
    } else {
      t += "visible trial=0 role=reader seen_ms=25.0\n";
    }
    t += "writers guard=none ranks=3 state=torn size=1048632 problem=\"mixed content: chunks from writers 0, 1, 2 "
         "(concurrent writers to one path)\"\n";
    t += "writers guard=rank0 ranks=3 state=complete version=1 size=1048632\n";
    t += "read readers=1 bytes=8388608 elapsed_ms=10.0\nread readers=4 bytes=33554432 elapsed_ms=20.0\n";
    if (node == "node1") t += "cleanup removed=yes\n";
    texts[node] = t;
  }
  return texts;
}

CheckpointExpectation ClusterExpectation() {
  CheckpointExpectation expect;
  expect.size_bytes = 980000000000;
  expect.parallel_readers = 4;
  expect.source = "test";
  return expect;
}

// The one check's result after `edit` changed node `node`'s output.
CheckResult ResultOf(const char* check, const std::string& node, const std::string& from, const std::string& to,
                     CheckpointExpectation expect = ClusterExpectation()) {
  auto texts = HealthyCluster();
  if (!from.empty()) {
    const auto at = texts[node].find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) texts[node].replace(at, from.size(), to);
  }
  for (const auto& result : Judge(texts, ProfileWith(expect))) {
    if (result.check == check) return result;
  }
  ADD_FAILURE() << "no result for " << check;
  return {};
}

std::string Messages(const CheckResult& result) {
  std::string text;
  for (const auto& f : result.findings) text += f.message + "\n";
  return text;
}

// One node's report edited (`from` replaced by `to`) so that one check fails, with a finding
// that says `message`.
struct BrokenReport {
  const char* what;  // the case, as a test name
  const char* check;
  const char* node;
  const char* from;
  const char* to;
  const char* message;
};

constexpr BrokenReport kBrokenReports[] = {
    {"ExdevFromTheTempLocationFails", kTempOnSameFilesystem, "node2",
     "temp path=/shared/ckpt/gpuconform-run-node1-1-a fs=nfs same_device=yes rename=ok",
     "temp path=/tmp fs=tmpfs target_fs=nfs same_device=no rename=EXDEV problem=x",
     "node2: rename from the temporary location /tmp (tmpfs) into the checkpoint directory (nfs) fails "
     "with EXDEV"},
    {"TornReadDuringPublishFails", kAtomicPublish, "node2", "complete=40 missing=0 torn=0",
     "complete=38 missing=0 torn=2", "node2: 2 of 40 reads"},
    {"StaleVersionDuringPublishFails", kAtomicPublish, "node3", "last_version=5", "last_version=3",
     "node3: saw versions only up to 3 of 5"},
    {"TornFileAfterAnAtomicKillFailsNamingNodeKillAndPhase", kCrashTortureLeavesValidCheckpoint, "node2",
     "verify mode=atomic index=2 state=complete version=0 size=1048632",
     "verify mode=atomic index=2 state=torn size=524288 problem=\"524288 of 1048632 bytes (truncated)\"",
     "node2: after kill #2 (mid-write) the final path is torn: 524288 of 1048632 bytes"},
    {"OldVersionAfterACompletedRenameFails", kCrashTortureLeavesValidCheckpoint, "node3", "verify mode=atomic index=4 state=complete version=4",
     "verify mode=atomic index=4 state=complete version=0", "holds version 0, expected 4"},
    {"MissingVerificationsFail", kCrashTortureLeavesValidCheckpoint, "node3",
     "verify mode=atomic index=5 state=complete version=5 size=1048632\n", "",
     "node3: verified the final path after 4 of 5 kills"},
    {"FileNotVisibleOnAnotherNodeFails", kCrossNodeVisibility, "node3", "seen_ms=25.0", "seen_ms=timeout state=missing",
     "node3: a checkpoint renamed into place on node1 was not visible"},
    {"TooLittleSpaceFailsWithTheNumbers", kCapacity, "node2", "avail_bytes=5000000000000", "avail_bytes=1500000000000",
     "node2: the checkpoint directory has 1500.0 GB free; a checkpoint of 980.0 GB with 1 kept "
     "needs 1960.0 GB"},
    {"RunDirectoryLeftBehindFails", kRunDirectoryRemoved, "node1", "cleanup removed=yes",
     "cleanup removed=no problem=\"Permission denied\"", "could not be removed: Permission denied"},
};

TEST(CheckpointChecks, EachBrokenReportFailsItsCheckSayingWhy) {
  for (const BrokenReport& broken : kBrokenReports) {
    SCOPED_TRACE(broken.what);
    const auto r = ResultOf(broken.check, broken.node, broken.from, broken.to);
    EXPECT_EQ(r.verdict, Verdict::kFail) << Messages(r);
    EXPECT_NE(Messages(r).find(broken.message), std::string::npos) << Messages(r);
  }
}

TEST(CheckpointChecks, HealthyClusterConforms) {
  const auto results = Judge(HealthyCluster(), ProfileWith(ClusterExpectation()));
  for (const auto& result : results) {
    if (result.check == kReadThroughput) {
      EXPECT_EQ(result.verdict, Verdict::kSkip) << "recorded only";
      continue;
    }
    EXPECT_EQ(result.verdict, Verdict::kPass) << Describe(results);
  }
}

TEST(CheckpointChecks, NodeThatDoesNotSeeTheTokenFailsTargetSharedAndStopsTheRest) {
  const auto texts = [] {
    auto t = HealthyCluster();
    t["node3"].replace(t["node3"].find("sees_token=yes"), 14, "sees_token=no problem=missing");
    return t;
  }();
  const auto results = Judge(texts, ProfileWith(ClusterExpectation()));
  const auto verdicts = VerdictsByCheck(results);
  EXPECT_EQ(verdicts.at(kTargetShared), Verdict::kFail);
  EXPECT_EQ(verdicts.at(kCrashTortureLeavesValidCheckpoint), Verdict::kError);
  EXPECT_NE(Describe(results).find("node3: does not see rank 0's token"), std::string::npos) << Describe(results);
}

// node2's view of the checkpoint directory is read-only (a bind mount, an export, a filesystem
// the kernel remounted after errors): a configuration failure that names node2 and errno 30,
// not an error saying a fact could not be obtained.
TEST(CheckpointChecks, ReadOnlyStorageOnOneNodeIsAConfigurationFailureNamingNodeAndErrno) {
  const auto r = ResultOf(kSingleWriter, "node2", "writers guard=none ranks=3 state=torn",
                          "error stage=writers problem=\"create /shared/ckpt/gpuconform-run-node1-1-a/w.1: Read-only file "
                          "system (errno 30)\"\nwriters guard=none ranks=3 state=torn");
  ASSERT_EQ(r.verdict, Verdict::kFail) << Messages(r);
  ASSERT_EQ(r.findings.size(), 1u) << Messages(r);
  EXPECT_EQ(r.findings[0].code, "storage-read-only");
  EXPECT_EQ(r.findings[0].code.entry().fault_class, FaultClass::kConfiguration);
  EXPECT_EQ(r.findings[0].entity, "node2");
  EXPECT_NE(Messages(r).find("node2: create /shared/ckpt/gpuconform-run-node1-1-a/w.1: Read-only file system (errno 30)"),
            std::string::npos)
      << Messages(r);
  EXPECT_NE(Messages(r).find("remount"), std::string::npos) << Messages(r);
}

// The node's own limits, by the one classifier of worker deaths (probes/resource_limits): an
// exhausted resource is the node's configuration under its own code, never "read-failed".
TEST(CheckpointChecks, AnExhaustedResourceOfTheNodeIsNamedWithItsOwnCode) {
  const std::pair<const char*, const char*> cases[] = {
      {"open /shared/ckpt/r.1: Too many open files (errno 24)", "open-files-exhausted"},
      {"read /shared/ckpt/r.1: Cannot allocate memory (errno 12)", "memory-exhausted"},
      {"create /dev/shm/ckpt.tmp: No space left on device (errno 28)", "shm-exhausted"}};
  for (const auto& [problem, code] : cases) {
    const auto r = ResultOf(kReadThroughput, "node3", "read readers=1",
                            std::string("error stage=read problem=\"") + problem + "\"\nread readers=1");
    ASSERT_EQ(r.verdict, Verdict::kFail) << problem << ": " << Messages(r);
    EXPECT_EQ(r.findings[0].code, code) << problem;
    EXPECT_EQ(r.findings[0].entity, "node3");
    EXPECT_NE(Messages(r).find("node3: "), std::string::npos) << Messages(r);
  }
}

// Every storage errno the mapping knows gives its own code; an error without one stays an error.
TEST(CheckpointChecks, EachStorageErrnoHasItsOwnCodeAndOthersStayErrors) {
  const std::pair<int, const char*> cases[] = {{28, "storage-full"}, {122, "storage-quota"}, {13, "storage-permission"},
                                                {1, "storage-permission"}, {116, "storage-stale"},
                                                {107, "storage-disconnected"}, {5, "storage-io-error"}};
  for (const auto& [number, code] : cases) {
    const auto r = ResultOf(kReadThroughput, "node3", "read readers=1",
                            "error stage=read problem=\"write /x: some words (errno " + std::to_string(number) +
                                ")\"\nread readers=1");
    ASSERT_EQ(r.verdict, Verdict::kFail) << number;
    EXPECT_EQ(r.findings[0].code, code) << number;
  }
  const auto other = ResultOf(kReadThroughput, "node3", "read readers=1",
                              "error stage=read problem=\"write /x: Interrupted system call (errno 4)\"\nread readers=1");
  EXPECT_EQ(other.verdict, Verdict::kError) << Messages(other);
}

TEST(CheckpointChecks, InPlaceControlThatNeverTearsFails) {
  auto texts = HealthyCluster();
  for (auto& [node, text] : texts) {
    text = std::regex_replace(text, std::regex("state=torn size=524288 problem=\"524288 of 1048632 bytes \\(truncated\\)\""),
                              "state=complete version=0 size=1048632");
  }
  for (const auto& result : Judge(texts, ProfileWith(ClusterExpectation()))) {
    if (result.check != kNegativeControlDetected) continue;
    EXPECT_EQ(result.verdict, Verdict::kFail);
    EXPECT_NE(Messages(result).find("no node saw a torn file"), std::string::npos) << Messages(result);
  }
}

TEST(CheckpointChecks, TornGuardedWriteFailsAndWholeUnguardedWriteIsInconclusive) {
  auto torn = ResultOf(kSingleWriter, "node2", "guard=rank0 ranks=3 state=complete version=1",
                       "guard=rank0 ranks=3 state=torn problem=\"checksum mismatch\"");
  EXPECT_EQ(torn.verdict, Verdict::kFail);
  EXPECT_NE(Messages(torn).find("node2: the checkpoint rank 0 alone wrote is torn"), std::string::npos);
  auto whole = ResultOf(kSingleWriter, "node2",
                        "guard=none ranks=3 state=torn size=1048632 problem=\"mixed content: chunks from writers 0, 1, 2 "
                        "(concurrent writers to one path)\"",
                        "guard=none ranks=3 state=complete version=1 writer=0 size=1048632");
  EXPECT_EQ(whole.verdict, Verdict::kError);
  EXPECT_NE(Messages(whole).find("did not overlap"), std::string::npos) << Messages(whole);
  auto overwritten = ResultOf(kSingleWriter, "node2",
                              "guard=none ranks=3 state=torn size=1048632 problem=\"mixed content: chunks from writers 0, 1, 2 "
                              "(concurrent writers to one path)\"",
                              "guard=none ranks=3 state=complete version=1 writer=2 size=1048632");
  EXPECT_EQ(overwritten.verdict, Verdict::kPass) << Messages(overwritten);
  bool named = false;
  for (const auto& m : overwritten.measurements) named |= m.value.find("rank 2's, not rank 0's") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(CheckpointChecks, ReadBandwidthBelowAFloorFails) {
  CheckpointExpectation expect = ClusterExpectation();
  expect.read_floor_gb_per_s = 10;
  const auto r = ResultOf(kReadThroughput, "node1", "", "", expect);
  EXPECT_EQ(r.verdict, Verdict::kFail) << Messages(r);  // 3 x 32 MiB in 20 ms = 5.0 GB/s
  EXPECT_NE(Messages(r).find("5.033 GB/s, below the floor of 10.000 GB/s"), std::string::npos) << Messages(r);
  expect.read_floor_gb_per_s = 5;
  EXPECT_EQ(ResultOf(kReadThroughput, "node1", "", "", expect).verdict, Verdict::kPass);
}

TEST(CheckpointChecks, ProfileWithoutCheckpointSectionSkipsEveryCheckSayingWhy) {
  Profile profile;
  profile.name = "bare";
  for (const auto& texts : {HealthyCluster(), std::map<std::string, std::string>{}}) {
    const auto results = Judge(texts, profile);
    ASSERT_EQ(results.size(), 10u);
    for (const auto& result : results) {
      EXPECT_EQ(result.verdict, Verdict::kSkip);
      EXPECT_NE(result.findings.at(0).message.find("no checkpoint section"), std::string::npos);
      EXPECT_EQ(result.findings.at(0).entity, "cluster");
    }
    EXPECT_EQ(results[9].TestName(), "Checkpoint.RunDirectoryRemoved");
  }
}

// A node whose output could not be obtained is named first in every check's error, and each
// node's output is parsed once however many checks read it.
TEST(CheckpointSuite, ANodeWithoutOutputIsEveryChecksErrorAndEachOutputIsParsedOnce) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  raw.node["node1"]["checkpoint"] = {ProbeStatus::kOk, HealthyCluster()["node1"], "node1: Checkpoint probe", ""};
  const Result<NodeCheckpointReport>& report = ReadCheckpointReport(raw, "node1");
  ASSERT_TRUE(report) << report.error();
  EXPECT_EQ(report->origin, "node1/checkpoint.txt");
  EXPECT_EQ(&ReadCheckpointReport(raw, "node1"), &report);
  const auto results = test_support::JudgeRegistered(kSuite, raw, ProfileWith(ClusterExpectation()));
  ASSERT_EQ(results.size(), 10u);
  for (const auto& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    EXPECT_EQ(result.findings.at(0).code, "no-observation");
    EXPECT_EQ(result.findings.at(0).message, "node2: no checkpoint output was collected") << result.TestName();
  }
}

TEST(CheckpointParse, MalformedOutputIsAnErrorWithTheLine) {
  test_support::ExpectErrorContaining(ParseCheckpointReport("hello world\n", "node1", "node1/checkpoint.txt"),
                                      "node1/checkpoint.txt:1:");
  test_support::ExpectErrorContaining(
      ParseCheckpointReport("checkpoint-probe version=1\nshared problem=\"open\n", "n", "n/c.txt"),
      "n/c.txt:2: unterminated");
  const std::string healthy = HealthyCluster()["node1"];
  test_support::SurvivesTruncationAndNoise(healthy.substr(0, 1500), [](const std::string& text, const std::string&) {
    return Judge({{"node1", text}}, ProfileWith(ClusterExpectation()));
  });
}

TEST(CheckpointParse, TruncatedOutputGivesErrorsOrFailuresNeverPasses) {
  const std::string healthy = HealthyCluster()["node2"];
  const std::string cut = healthy.substr(0, healthy.find("verify mode=atomic index=3"));
  auto texts = HealthyCluster();
  texts["node2"] = cut;
  const auto verdicts = VerdictsByCheck(Judge(texts, ProfileWith(ClusterExpectation())));
  for (const char* check : {kCrashTortureLeavesValidCheckpoint, kNegativeControlDetected, kSingleWriter, kReadThroughput}) {
    EXPECT_NE(verdicts.at(check), Verdict::kPass) << check;
  }
}

// A fleet without checkpoint outputs: one finding per node, led by the node, which the reports
// group into one line with a hostlist instead of one message growing with the fleet.
TEST(CheckpointChecks, MissingOutputsAreOneFindingPerNodeThatGroupIntoOneLine) {
  ClusterRaw raw;
  for (const std::string node : {"gpu001", "gpu002", "gpu003"}) {
    raw.nodes.push_back(node);
    raw.node[node]["checkpoint"] = {ProbeStatus::kAbsent, "", "", node + ": the snapshot has no /s/nodes/" + node +
                                                                      "/checkpoint.txt"};
  }
  const std::vector<CheckResult> results = test_support::JudgeRegistered(kSuite, raw, ProfileWith(SmallExpectation()));
  ASSERT_EQ(results.size(), 10u);
  EXPECT_EQ(results[0].check, kTargetShared);
  for (const CheckResult& result : results) {
    EXPECT_EQ(result.verdict, Verdict::kError) << result.TestName();
    ASSERT_EQ(result.findings.size(), 3u) << result.TestName();
    EXPECT_TRUE(result.findings[1].message.starts_with("gpu002: ")) << result.findings[1].message;
  }
  std::vector<NodeFinding> findings;
  for (const Finding& finding : results[0].findings) findings.push_back({"", &finding});
  const std::vector<Cause> causes = GroupCauses(findings);
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(CauseLine(causes[0]), "gpu[001-003]: the snapshot has no /s/nodes/gpu[001-003]/checkpoint.txt");
}

}  // namespace
}  // namespace gpuconform::checkpoint
