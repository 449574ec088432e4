// End-to-end tests of the gpuconform binary on the project's snapshot fixtures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli.h"
#include "harness/core/process_runner.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

const std::string kSnapshots = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots";

CommandResult Gpuconform(std::vector<std::string> args) {
  args.insert(args.begin(), GPUCONFORM_BINARY);
  return RunCommand(args, 120s);
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gpuconform-cli-" + std::to_string(getpid()) + "-" + name))
      .string();
}

std::string ReadFile(const std::string& path) { return test_support::ReadFile(path); }

TEST(Cli, HelpTeachesUsageAndExitStatuses) {
  auto r = Gpuconform({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("srun --ntasks-per-node=1 gpuconform run"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Exit status"), std::string::npos);
}

TEST(Cli, EveryVerbHasHelp) {
  for (const std::string verb :
       {"run", "capture", "list", "profiles", "reasons", "explain", "version", "baseline", "diff"}) {
    auto r = Gpuconform({verb, "--help"});
    EXPECT_EQ(r.exit_code, 0) << verb;
    EXPECT_NE(r.stdout_text.find(verb), std::string::npos) << verb << ": " << r.stdout_text;
  }
  EXPECT_NE(Gpuconform({"run", "--help"}).stdout_text.find("--snapshot"), std::string::npos);
}

TEST(Cli, VersionFlagPrintsOneLineAsTheVersionVerb) {
  auto flag = Gpuconform({"--version"});
  EXPECT_EQ(flag.exit_code, 0) << flag.stderr_text;
  EXPECT_EQ(flag.stdout_text, Gpuconform({"version"}).stdout_text);
  EXPECT_EQ(flag.stdout_text.rfind("gpuconform ", 0), 0u) << flag.stdout_text;
  EXPECT_EQ(std::count(flag.stdout_text.begin(), flag.stdout_text.end(), '\n'), 1) << flag.stdout_text;
}

TEST(Cli, NoArgumentsPrintsAShortUsageNamingTheVerbsAndHelp) {
  auto r = Gpuconform({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LE(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 5) << r.stderr_text;
  for (const char* text : {"Usage: gpuconform VERB", "run, launch, capture", "health-check", "--help"}) {
    EXPECT_NE(r.stderr_text.find(text), std::string::npos) << text << " in " << r.stderr_text;
  }
  EXPECT_EQ(r.stderr_text.find("A subcommand is required"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("complete"), std::string::npos) << "the completion helper stays hidden";
}

TEST(Cli, CompleteListsVerbsOptionsProfilesAndReasonsForTheShell) {
  const std::string verbs = Gpuconform({"complete", "verbs"}).stdout_text;
  EXPECT_EQ(verbs.rfind("run\nlaunch\ncapture\n", 0), 0u) << verbs;
  EXPECT_EQ(verbs.find("complete"), std::string::npos) << verbs;
  const std::string run = Gpuconform({"complete", "options", "run"}).stdout_text;
  EXPECT_NE(run.find("--profile\tvalue\n"), std::string::npos) << run;
  EXPECT_NE(run.find("--quiet\tflag\n-q\tflag\n"), std::string::npos) << run;
  EXPECT_EQ(run.find("--launched"), std::string::npos) << "hidden options stay hidden: " << run;
  EXPECT_NE(Gpuconform({"complete", "profiles"}).stdout_text.find("h100-sxm-8\n"), std::string::npos);
  EXPECT_NE(Gpuconform({"complete", "reasons"}).stdout_text.find("link-inactive\n"), std::string::npos);
  EXPECT_EQ(Gpuconform({"complete", "options", "no-such-verb"}).exit_code, 2);
  EXPECT_EQ(Gpuconform({"complete", "frobnicate"}).exit_code, 2);
}

TEST(Cli, BadInvocationExitsTwo) {
  EXPECT_EQ(Gpuconform({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(Gpuconform({"run", "--no-such-flag"}).exit_code, 2);
  EXPECT_EQ(Gpuconform({"capture"}).exit_code, 2) << "--out is required";
  EXPECT_EQ(Gpuconform({"run", "--snapshot", "/nonexistent/dir"}).exit_code, 2);
}

TEST(Cli, HealthySnapshotConformsAndWritesJunit) {
  const std::string junit = TempPath("healthy.xml");
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-2node-healthy", "--profile", "h100-sxm-8",
                       "--junit", junit, "--filter", "Software.*"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("[  PASS  ] DriverVersionIdentical"), std::string::npos) << r.stdout_text;
  const std::string xml = ReadFile(junit);
  EXPECT_NE(xml.find("<testsuite name=\"Software\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("gpu-node-02.driver"), std::string::npos) << "versions are recorded as properties";
}

TEST(Cli, VersionSkewExitsOneAndNamesTheNode) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-3node-version-skew", "--profile", "h100-sxm-8",
                       "--filter", "Software.*"});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("gpu-node-02: NVIDIA driver 535.129.03, expected 550.54.15"), std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("gpu-node-02: NCCL 2.18.3, expected 2.20.5"), std::string::npos) << r.stdout_text;
}

TEST(Cli, GarbledOutputIsAnErrorNamingFileAndLineExitThree) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-1node-garbled-output", "--profile", "h100-sxm-8",
                       "--filter", "Software.*"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("slurmd-V.txt:1: expected 'slurm <version>'"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("nvidia-smi-q.xml:"), std::string::npos) << r.stdout_text;
}

TEST(Cli, InvalidSnapshotManifestExitsTwoNamingFileAndLine) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/invalid-manifest", "--profile", "h100-sxm-8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("invalid-manifest/manifest.yaml:3: invalid YAML"), std::string::npos) << r.stderr_text;
}

TEST(Cli, MalformedProfileExitsTwoNamingFileAndLine) {
  const std::string profile = TempPath("bad-profile.yaml");
  std::ofstream(profile) << "name: broken\ngpu:\n  count_per_node: eight\n  source: x\n";
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-2node-healthy", "--profile", profile});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find(profile + ":3"), std::string::npos) << r.stderr_text;
  auto unknown = Gpuconform({"run", "--profile", "no-such-profile"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.stderr_text.find("h100-sxm-8"), std::string::npos) << "lists the built-ins";
}

TEST(Cli, FilterSelectsChecksAndCountsOnlyThose) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-3node-version-skew", "--profile", "h100-sxm-8",
                       "--filter", "Software.KernelVersionIdentical"});
  EXPECT_EQ(r.exit_code, 0) << "only the kernel check runs, and kernels agree: " << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("1 checks"), std::string::npos) << r.stdout_text;
  auto negative = Gpuconform({"run", "--snapshot", kSnapshots + "/h100-3node-version-skew", "--profile",
                              "h100-sxm-8", "--filter", "Software.*-Software.DriverVersionIdentical:Software.NcclVersionIdentical:Software.CudaVersionIdentical"});
  EXPECT_EQ(negative.exit_code, 0) << negative.stdout_text;
}

TEST(Cli, ListAndProfilesDescribeTheSuiteAndProfiles) {
  auto list = Gpuconform({"list"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.stdout_text.find("Software.KernelVersionIdentical"), std::string::npos);
  auto profiles = Gpuconform({"profiles"});
  EXPECT_EQ(profiles.exit_code, 0);
  for (const char* name : {"a100-sxm-8", "h100-sxm-8", "h200-sxm-8", "local"}) {
    EXPECT_NE(profiles.stdout_text.find(name), std::string::npos) << name;
  }
  EXPECT_EQ(profiles.stdout_text.find("INVALID"), std::string::npos) << profiles.stdout_text;
}

TEST(Cli, CaptureThenReplayJudgesTheSameNode) {
  const std::string dir = TempPath("capture");
  std::filesystem::remove_all(dir);
  auto capture = Gpuconform({"capture", "--out", dir});
  ASSERT_EQ(capture.exit_code, 0) << capture.stdout_text << capture.stderr_text;
  EXPECT_TRUE(std::filesystem::exists(dir + "/manifest.yaml"));
  auto replay = Gpuconform({"run", "--snapshot", dir, "--profile", "local", "--filter", "Software.KernelVersionIdentical"});
  EXPECT_EQ(replay.exit_code, 0) << replay.stdout_text << replay.stderr_text;
  // A node without GPUs: nvidia-smi is missing, and the capture records why.
  bool found_error_file = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().filename() == "nvidia-smi-q.xml.error") found_error_file = true;
  }
  EXPECT_TRUE(found_error_file || std::filesystem::exists("/usr/bin/nvidia-smi"));
}

TEST(Cli, MissingDriverIsAnErrorUnderAGpuProfile) {
  // nvidia-smi may be installed (ci/install-deps does) without a driver: it then fails, saying so.
  if (std::filesystem::exists("/proc/driver/nvidia/version")) GTEST_SKIP() << "this machine has a loaded NVIDIA driver";
  auto r = Gpuconform({"run", "--profile", "h100-sxm-8", "--filter", "Software.DriverVersionIdentical"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("nvidia-smi"), std::string::npos) << r.stdout_text;
  auto local = Gpuconform({"run", "--profile", "local", "--filter", "Software.DriverVersionIdentical"});
  EXPECT_EQ(local.exit_code, 0) << local.stdout_text;
  EXPECT_NE(local.stdout_text.find("has no GPUs"), std::string::npos) << local.stdout_text;
}

TEST(Cli, MpirunWithThreeRanksGathersAndWritesOneReport) {
  const std::string junit = TempPath("mpi.xml");
  const std::string dir = TempPath("mpi-junit-dir");
  auto r = RunCommand({"env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                       "OMPI_MCA_btl=self,tcp", "mpirun", "--oversubscribe", "-np", "3", GPUCONFORM_BINARY, "run",
                       "--profile", "local", "--junit", junit, "--filter", "Software.*"},
                      180s);
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("3 ranks"), std::string::npos) << r.stderr_text;
  // Rank 0 alone prints the report and writes the file.
  std::size_t summaries = 0;
  for (std::size_t at = r.stdout_text.find("checks ("); at != std::string::npos;
       at = r.stdout_text.find("checks (", at + 1)) {
    ++summaries;
  }
  EXPECT_EQ(summaries, 1u) << r.stdout_text;
  EXPECT_NE(ReadFile(junit).find("<testsuite name=\"Software\""), std::string::npos);
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

// These two snapshots were recorded with `gpuconform capture` under srun on the project's
// local cluster: healthy, and with node2's gres.conf listing 4 of 8 GPUs (node2 drained, so
// only node1 and node3 ran a task).
TEST(CliRecordedCluster, HealthyLocalSnapshotConforms) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/local-3node-healthy", "--profile", "local"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("[  PASS  ] GresMatchesHardware                3/3 nodes conform"), std::string::npos)
      << r.stdout_text;
}

// Recorded with `gpuconform capture --checkpoint-dir $LC/shared/checkpoints` on the local
// cluster: once healthy (200 kills), once with --checkpoint-temp-dir /dev/shm (each node's tmpfs).
TEST(CliRecordedCluster, CheckpointSnapshotsReplayTheirVerdicts) {
  auto healthy = Gpuconform({"run", "--snapshot", kSnapshots + "/local-3node-healthy", "--profile", "local", "--filter",
                             "Checkpoint.*"});
  EXPECT_EQ(healthy.exit_code, 0) << healthy.stdout_text << healthy.stderr_text;
  EXPECT_NE(healthy.stdout_text.find("[  PASS  ] CrashTortureLeavesValidCheckpoint"), std::string::npos)
      << healthy.stdout_text;
  auto exdev = Gpuconform({"run", "--snapshot", kSnapshots + "/local-3node-checkpoint-exdev", "--profile", "local",
                           "--filter", "Checkpoint.*"});
  EXPECT_EQ(exdev.exit_code, 1) << exdev.stdout_text << exdev.stderr_text;
  EXPECT_NE(exdev.stdout_text.find("node[1-3]: rename from the temporary location /dev/shm (tmpfs) into the checkpoint "
                                   "directory (ext4) fails with EXDEV"),
            std::string::npos)
      << exdev.stdout_text;
}

TEST(CliRecordedCluster, GresMismatchSnapshotNamesNode2InEveryAffectedCheck) {
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/local-3node-gres-mismatch", "--profile", "local",
                       "--filter", "SlurmGres.*:SlurmNodes.*"});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("node2: slurmctld rejected the node's GRES registration"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("gres/gpu count reported lower than configured (4 < 8)"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("declares 4 GPUs, slurm.conf says Gres=gpu:8"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("[  PASS  ] GresMatchesProfile                 3/3 nodes conform"), std::string::npos)
      << r.stdout_text;
}

TEST(CliRecordedCluster, SummaryMarkdownNamesTheFailingNodeForTheJobPage) {
  const std::string summary = TempPath("summary.md");
  auto r = Gpuconform({"run", "--snapshot", kSnapshots + "/local-3node-gres-mismatch", "--profile", "local", "--filter",
                       "SlurmGres.*", "--summary-md", summary});
  EXPECT_EQ(r.exit_code, 1) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("Summary (Markdown): " + summary), std::string::npos) << r.stdout_text;
  const std::string text = ReadFile(summary);
  EXPECT_NE(text.find("## gpuconform: non-conformance found (exit 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("| node2 |"), std::string::npos) << text;
  std::filesystem::remove(summary);
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

TEST(Cli, BadDrainCapAndBudgetAreBadInvocations) {
  const auto cap = RunCommand({GPUCONFORM_BINARY, "run", "--max-drain", "5x"}, std::chrono::seconds(30));
  EXPECT_EQ(cap.exit_code, 2);
  EXPECT_NE(cap.stderr_text.find("give a node count (5) or a percentage"), std::string::npos) << cap.stderr_text;
  const auto budget = RunCommand({GPUCONFORM_BINARY, "health-check", "--budget", "0.5s"}, std::chrono::seconds(30));
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_NE(budget.stderr_text.find("a budget is whole seconds"), std::string::npos) << budget.stderr_text;
}

TEST(CommandLine, OptionsAfterTheDoubleDashAreRuns) {
  const auto parsed = ParseCommandLine({"launch", "-N3", "--", "--profile", "local", "--junit", "F"});
  ASSERT_TRUE(parsed.command) << parsed.message;
  EXPECT_EQ(parsed.command->verb, Verb::kLaunch);
  EXPECT_EQ(parsed.command->launch_nodes, 3);
  EXPECT_EQ(parsed.command->run_args, (std::vector<std::string>{"--profile", "local", "--junit", "F"}));
  const auto run = ParseCommandLine({"run", "--launched", "--launch-refused", "node1=srun: error: x"});
  ASSERT_TRUE(run.command) << run.message;
  EXPECT_TRUE(run.command->launched);
  EXPECT_EQ(run.command->launch_refused, (std::vector<std::string>{"node1=srun: error: x"}));
  EXPECT_EQ(ParseCommandLine({"launch", "-N", "zero"}).exit_status, 2);
}

TEST(CommandLine, LaunchAsksForTheProfilesGpusUnlessToldACountOrNone) {
  const auto gpus_of = [](std::vector<std::string> args) {
    const auto parsed = ParseCommandLine(args);
    EXPECT_TRUE(parsed.command) << parsed.message;
    return parsed.command ? LaunchRequestOf(*parsed.command).gpus_per_node : std::optional<int>(-1);
  };
  EXPECT_EQ(gpus_of({"launch", "-N3", "--", "--profile", "local"}), std::nullopt) << "unset: the profile decides";
  EXPECT_EQ(gpus_of({"launch", "-N3", "--gpus-per-node=4", "--"}), 4);
  EXPECT_EQ(gpus_of({"launch", "-N3", "--gpus-per-node", "none", "--"}), 0);
  EXPECT_EQ(gpus_of({"launch", "-N3", "--gpus-per-node=0", "--"}), 0);
  for (const char* bad : {"-1", "2.5", "all", ""}) {
    EXPECT_EQ(ParseCommandLine({"launch", "-N3", std::string("--gpus-per-node=") + bad, "--"}).exit_status, 2) << bad;
  }
  const auto help = ParseCommandLine({"launch", "--help"});
  EXPECT_NE(help.message.find("--gpus-per-node"), std::string::npos) << help.message;
  EXPECT_NE(help.message.find("ends before the ranks meet"), std::string::npos) << help.message;
}

}  // namespace
}  // namespace gpuconform
