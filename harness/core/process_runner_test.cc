#include "harness/core/process_runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

TEST(ProcessRunner, CapturesStdoutStderrAndExitCode) {
  const auto result = RunCommand({"sh", "-c", "echo out; echo err >&2; exit 7"}, 10s);
  EXPECT_EQ(result.outcome, CommandOutcome::kExited);
  EXPECT_EQ(result.exit_code, 7);
  EXPECT_EQ(result.stdout_text, "out\n");
  EXPECT_EQ(result.stderr_text, "err\n");
  EXPECT_FALSE(result.Succeeded());
}

TEST(ProcessRunner, CommandPastItsDeadlineIsKilledAndReportedAsTimeout) {
  const auto start = std::chrono::steady_clock::now();
  const auto result = RunCommand({"sh", "-c", "echo started; sleep 30"}, 500ms);
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.outcome, CommandOutcome::kTimedOut);
  EXPECT_LT(elapsed_s, 10.0) << "the deadline must bound the run";
  EXPECT_EQ(result.stdout_text, "started\n") << "output printed before the kill is kept";
}

TEST(ProcessRunner, DeadlineKillsTheWholeProcessGroup) {
  // The child forks a grandchild that would hold the pipe open for 30 s.
  const auto result = RunCommand({"sh", "-c", "sleep 30 & sleep 30"}, 300ms);
  EXPECT_EQ(result.outcome, CommandOutcome::kTimedOut);
  EXPECT_LT(result.elapsed_s, 10.0);
}

TEST(ProcessRunner, MissingToolIsNotFoundNotACrash) {
  const auto result = RunCommand({"gpuconform-no-such-tool", "-x"}, 1s);
  EXPECT_EQ(result.outcome, CommandOutcome::kNotFound);
  EXPECT_NE(result.error.find("gpuconform-no-such-tool"), std::string::npos);
}

// A directory with an executable `tool`, a `plain` file that is not executable and a directory
// `folder`: only the first is a tool.
std::string ToolDirectory(const test_support::TempDir& dir) {
  namespace fs = std::filesystem;
  std::ofstream(fs::path(dir.path()) / "tool") << "#!/bin/sh\n";
  fs::permissions(fs::path(dir.path()) / "tool", fs::perms::owner_all);
  std::ofstream(fs::path(dir.path()) / "plain") << "data\n";
  fs::create_directories(fs::path(dir.path()) / "folder");
  return dir.path();
}

TEST(FindOnPath, FindsAnExecutableInPathsOrderAndNothingElse) {
  const test_support::TempDir first, second;
  const std::string dir = ToolDirectory(second);
  EXPECT_EQ(FindOnPath("tool", first.path() + ":" + dir), dir + "/tool");
  EXPECT_EQ(FindOnPath("no-such-tool", dir), std::nullopt);
  EXPECT_EQ(FindOnPath("plain", dir), std::nullopt) << "not executable";
  EXPECT_EQ(FindOnPath("folder", dir), std::nullopt) << "a directory is no tool";
  EXPECT_EQ(FindOnPath("", dir), std::nullopt);
  test_support::ScopedEnvironment environment;
  environment.Set("PATH", dir);
  EXPECT_EQ(FindOnPath("tool"), dir + "/tool");
}

TEST(FindOnPath, ANameWithASlashIsAPathAndIsNotSearched) {
  const test_support::TempDir dir;
  const std::string path = ToolDirectory(dir);
  EXPECT_EQ(FindOnPath(path + "/tool", ""), path + "/tool");
  EXPECT_EQ(FindOnPath(path + "/plain", path), std::nullopt);
  // "bin/tool" is relative to the working directory, never to PATH's directories.
  std::filesystem::create_directories(path + "/bin");
  std::filesystem::copy_file(path + "/tool", path + "/bin/tool");
  EXPECT_EQ(FindOnPath("bin/tool", path), std::nullopt);
}

TEST(FindOnPath, EmptyEntriesAreSkippedNotTheWorkingDirectory) {
  const test_support::TempDir dir, other;
  const std::string path = ToolDirectory(dir);
  EXPECT_EQ(FindOnPath("tool", "::" + path + ":"), path + "/tool");
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(path);
  EXPECT_EQ(FindOnPath("tool", ":" + other.path() + ":"), std::nullopt);
  EXPECT_EQ(FindOnPath("tool", ""), std::nullopt);
  std::filesystem::current_path(was);
}

TEST(ProcessRunner, FeedsStdin) {
  const auto result = RunCommand({"cat"}, 5s, "credential-bytes");
  EXPECT_TRUE(result.Succeeded());
  EXPECT_EQ(result.stdout_text, "credential-bytes");
}

TEST(ProcessRunner, ToolThatExitsWithoutReadingItsStdinIsAnOrdinaryExitNotASigpipe) {
  // More than a pipe holds, to a tool that closes its stdin at once: the write must fail
  // with EPIPE; SIGPIPE would end this whole test binary.
  const auto result = RunCommand({"sh", "-c", "exec 0<&-; echo done; exit 4"}, 10s, std::string(4 << 20, 'x'));
  EXPECT_EQ(result.outcome, CommandOutcome::kExited);
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_EQ(result.stdout_text, "done\n");
}

TEST(ProcessRunner, LargeOutputOnBothStreamsDoesNotDeadlock) {
  const auto result = RunCommand({"sh", "-c", "head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2"}, 20s);
  EXPECT_TRUE(result.Succeeded());
  EXPECT_EQ(result.stdout_text.size(), 3000000u);
  EXPECT_EQ(result.stderr_text.size(), 3000000u);
}

TEST(ProcessRunner, CommandTextQuotesWordsWithSpaces) {
  EXPECT_EQ(CommandText({"sinfo", "-o", "%N %G"}), "sinfo -o '%N %G'");
}

}  // namespace
}  // namespace gpuconform

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness/util/tcp_probe.h"

namespace gpuconform {
namespace {

TEST(TcpProbe, ConnectsToAListenerAndReportsRefusal) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(listen(listener, 1), 0);
  socklen_t length = sizeof(address);
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);
  EXPECT_TRUE(TcpConnect("127.0.0.1", port, std::chrono::milliseconds(2000)).connected);
  close(listener);
  const auto refused = TcpConnect("127.0.0.1", port, std::chrono::milliseconds(2000));
  EXPECT_FALSE(refused.connected);
  EXPECT_NE(refused.error.find("refused"), std::string::npos) << refused.error;
}

}  // namespace
}  // namespace gpuconform
