// Termination: the notice a signal or the run's deadline leaves, the handler it wakes, and the
// child groups it stops. Each test that sends a signal or requests termination does it in a
// death test's child process: the notice is process-wide and the first one stands.
#include "harness/core/termination.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "harness/core/process_runner.h"

namespace gpuconform {
namespace {

TEST(Termination, SignalNamesAndExitStatusesAreAShellsOwn) {
  EXPECT_EQ(SignalName(SIGTERM), "SIGTERM");
  EXPECT_EQ(SignalName(SIGINT), "SIGINT");
  EXPECT_EQ(SignalName(SIGHUP), "SIGHUP");
  EXPECT_EQ(SignalName(SIGUSR1), "signal " + std::to_string(SIGUSR1));
  EXPECT_EQ((TerminationNotice{SIGTERM, "SIGTERM", "T"}.ExitStatus()), 143);
  EXPECT_EQ((TerminationNotice{SIGINT, "SIGINT", "T"}.ExitStatus()), 130);
  EXPECT_EQ((TerminationNotice{SIGHUP, "SIGHUP", "T"}.ExitStatus()), 129);
  EXPECT_EQ((TerminationNotice{0, "its own deadline", "T"}.ExitStatus()), 124);
  const std::string said = TerminationNotice{SIGTERM, "SIGTERM", "2026-12-07T09:00:05Z"}.Describe();
  EXPECT_EQ(said, "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z");
  EXPECT_NE(said.find(kTerminatedMarker), std::string::npos);
}

// The handler runs on its own thread with the signal's notice and ends the process with it.
void EndOnSignal(int signal) {
  InstallTerminationSignals();
  OnTermination([](const TerminationNotice& notice) {
    std::fprintf(stderr, "handled: %s\n", notice.Describe().c_str());
    std::_Exit(notice.ExitStatus());
  });
  ::raise(signal);
  std::this_thread::sleep_for(std::chrono::seconds(10));
  std::_Exit(99);  // not handled
}

TEST(TerminationDeathTest, SigtermWakesTheHandlerWhichEndsTheProcess) {
  EXPECT_EXIT(EndOnSignal(SIGTERM), ::testing::ExitedWithCode(143), "handled: the run was terminated by SIGTERM at ");
  EXPECT_EXIT(EndOnSignal(SIGINT), ::testing::ExitedWithCode(130), "handled: the run was terminated by SIGINT");
  EXPECT_EXIT(EndOnSignal(SIGHUP), ::testing::ExitedWithCode(129), "handled: the run was terminated by SIGHUP");
}

TEST(TerminationDeathTest, ASignalBeforeTheHandlerIsHandledOnceItIsSet) {
  auto late_handler = [] {
    InstallTerminationSignals();
    ::raise(SIGTERM);
    OnTermination([](const TerminationNotice& notice) { std::_Exit(notice.ExitStatus()); });
    std::this_thread::sleep_for(std::chrono::seconds(10));
    std::_Exit(99);
  };
  EXPECT_EXIT(late_handler(), ::testing::ExitedWithCode(143), "");
}

TEST(TerminationDeathTest, TheDeadlineRequestsTerminationWithItsCause) {
  auto deadline = [] {
    InstallTerminationSignals();
    OnTermination([](const TerminationNotice& notice) {
      std::fprintf(stderr, "%s\n", notice.Describe().c_str());
      std::_Exit(notice.ExitStatus());
    });
    // 2 s left with a reserve of 1 s: termination comes after about 1 s.
    ArmRunDeadline(std::chrono::seconds(2), std::chrono::seconds(1), "its own deadline (--deadline 2 s)");
    std::this_thread::sleep_for(std::chrono::seconds(10));
    std::_Exit(99);
  };
  EXPECT_EXIT(deadline(), ::testing::ExitedWithCode(124), "terminated by its own deadline \\(--deadline 2 s\\) at ");
}

TEST(TerminationDeathTest, AnEndingRunStartsNoCommand) {
  auto ending = [] {
    RequestTermination("SIGTERM");
    const CommandResult result = RunCommand({"true"}, std::chrono::seconds(5));
    std::fprintf(stderr, "%s\n", result.error.c_str());
    std::_Exit(result.Succeeded() ? 1 : 0);
  };
  EXPECT_EXIT(ending(), ::testing::ExitedWithCode(0), "not started: the run was terminated by SIGTERM");
}

TEST(Termination, StopsARegisteredChildGroupThatIgnoresSigterm) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setpgid(0, 0);
    ::signal(SIGTERM, SIG_IGN);  // only SIGKILL ends it
    for (;;) pause();
  }
  setpgid(child, child);
  RegisterChildGroup(child);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  StopChildGroups(std::chrono::milliseconds(300));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  UnregisterChildGroup(child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST(Termination, RemovesTheRunDirectoriesStillRegisteredAndNoOther) {
  const auto base = std::filesystem::temp_directory_path() / ("gpuconform-termination-" + std::to_string(getpid()));
  const auto left = base / "left-by-a-measurement";
  const auto removed_by_its_probe = base / "removed-by-its-probe";
  const auto never_registered = base / "the-users-own";
  for (const auto& dir : {left, removed_by_its_probe, never_registered}) std::filesystem::create_directories(dir / "sub");
  RegisterRunDirectory(left.string());
  RegisterRunDirectory(removed_by_its_probe.string());
  UnregisterRunDirectory(removed_by_its_probe.string());
  RemoveRunDirectories();
  EXPECT_FALSE(std::filesystem::exists(left));
  EXPECT_TRUE(std::filesystem::exists(removed_by_its_probe));
  EXPECT_TRUE(std::filesystem::exists(never_registered));
  std::filesystem::remove_all(base);
}

}  // namespace
}  // namespace gpuconform
