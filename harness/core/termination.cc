#include "harness/core/termination.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "harness/util/timestamp.h"

namespace gpuconform {

namespace {

// Written by the signal handler: lock-free atomics and a pipe only.
std::atomic<int> g_signal{0};
std::atomic<std::time_t> g_signal_time{0};
int g_wake_pipe[2] = {-1, -1};

// The process's termination state, read and written from the threads that run probes, the
// termination thread and the deadline's. Never destroyed: the termination thread may use it
// while the process exits.
struct State {
  std::mutex notice_mutex;
  std::optional<TerminationNotice> deadline_notice;  // RequestTermination's; a signal's is above
  std::optional<std::chrono::steady_clock::time_point> termination_time;  // ArmRunDeadline's
  std::mutex groups_mutex;
  std::set<pid_t> groups;
  std::mutex directories_mutex;
  std::set<std::string> directories;
  std::mutex handler_mutex;
  std::function<void(const TerminationNotice&)> handler;
};

State& TheState() {
  static State* state = new State();
  return *state;
}

void WatchForTermination();

// A registered child that leads its own process group is signalled with its group (a tool and
// what it started); one that shares ours (the checkpoint writer) alone. True when it was there.
bool SignalGroupOrProcess(pid_t id, int signal) {
  if (::kill(-id, signal) == 0) return true;
  return ::kill(id, signal) == 0;
}

void Wake() {
  if (g_wake_pipe[1] < 0) return;
  const char byte = 1;
  const ssize_t ignored = write(g_wake_pipe[1], &byte, 1);
  (void)ignored;
}

void OnSignal(int signal) {
  const int saved_errno = errno;
  int none = 0;
  if (g_signal.compare_exchange_strong(none, signal)) {
    g_signal_time.store(std::time(nullptr));
    Wake();
  }
  errno = saved_errno;
}

}  // namespace

std::string SignalName(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGKILL: return "SIGKILL";
    default: return "signal " + std::to_string(signal);
  }
}

std::string TerminationNotice::Describe() const { return kTerminatedMarker + cause + " at " + at_utc; }

int TerminationNotice::ExitStatus() const { return signal > 0 ? 128 + signal : 124; }

void InstallTerminationSignals() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (pipe2(g_wake_pipe, O_CLOEXEC) != 0) g_wake_pipe[0] = g_wake_pipe[1] = -1;
    struct sigaction action {};
    action.sa_handler = OnSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) ::sigaction(signal, &action, nullptr);
  });
}

void RequestTermination(const std::string& cause) {
  {
    std::lock_guard<std::mutex> lock(TheState().notice_mutex);
    if (g_signal.load() != 0 || TheState().deadline_notice) return;
    TheState().deadline_notice = TerminationNotice{0, cause, UtcIso8601()};
  }
  Wake();
}

std::optional<TerminationNotice> Termination() {
  if (const int signal = g_signal.load(); signal != 0) {
    const std::time_t at = g_signal_time.load();
    return TerminationNotice{signal, SignalName(signal),
                             UtcIso8601(std::chrono::system_clock::from_time_t(at != 0 ? at : std::time(nullptr)))};
  }
  std::lock_guard<std::mutex> lock(TheState().notice_mutex);
  return TheState().deadline_notice;
}

bool TerminationRequested() { return Termination().has_value(); }

void OnTermination(std::function<void(const TerminationNotice&)> handler) {
  {
    std::lock_guard<std::mutex> lock(TheState().handler_mutex);
    TheState().handler = std::move(handler);
  }
  static std::once_flag started;
  std::call_once(started, [] { std::thread(WatchForTermination).detach(); });
}

namespace {

void WatchForTermination() {
  for (;;) {
    char byte = 0;
    const ssize_t got = g_wake_pipe[0] >= 0 ? read(g_wake_pipe[0], &byte, 1) : -1;
    if (got < 0 && errno == EINTR) continue;
    // No pipe: look every 100 ms instead.
    if (got < 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (auto notice = Termination()) {
      std::function<void(const TerminationNotice&)> handler;
      {
        std::lock_guard<std::mutex> lock(TheState().handler_mutex);
        handler = TheState().handler;
      }
      if (handler) handler(*notice);
      return;
    }
  }
}

}  // namespace

void RegisterChildGroup(pid_t group) {
  if (group <= 0) return;
  std::lock_guard<std::mutex> lock(TheState().groups_mutex);
  TheState().groups.insert(group);
}

void UnregisterChildGroup(pid_t group) {
  std::lock_guard<std::mutex> lock(TheState().groups_mutex);
  TheState().groups.erase(group);
}

void TerminateChildGroups() {
  std::lock_guard<std::mutex> lock(TheState().groups_mutex);
  for (const pid_t group : TheState().groups) SignalGroupOrProcess(group, SIGTERM);
}

void StopChildGroups(std::chrono::milliseconds grace) {
  std::set<pid_t> groups;
  {
    std::lock_guard<std::mutex> lock(TheState().groups_mutex);
    groups = TheState().groups;
  }
  if (groups.empty()) return;
  // SIGTERM first: srun passes it on to its step's tasks, so a measurement's remote workers end too.
  for (const pid_t group : groups) SignalGroupOrProcess(group, SIGTERM);
  const auto end = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < end) {
    bool any = false;
    for (const pid_t group : groups) any = any || SignalGroupOrProcess(group, 0);
    if (!any) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (const pid_t group : groups) SignalGroupOrProcess(group, SIGKILL);
}

void RegisterRunDirectory(const std::string& path) {
  std::lock_guard<std::mutex> lock(TheState().directories_mutex);
  TheState().directories.insert(path);
}

void UnregisterRunDirectory(const std::string& path) {
  std::lock_guard<std::mutex> lock(TheState().directories_mutex);
  TheState().directories.erase(path);
}

namespace {
std::atomic<bool> g_parked{false};
}  // namespace

void ParkIfEnding() {
  if (!TerminationRequested()) return;
  g_parked = true;
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

bool ProbesParked(std::chrono::milliseconds wait) {
  const auto end = std::chrono::steady_clock::now() + wait;
  while (!g_parked.load() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return g_parked.load();
}

void RemoveRunDirectories() {
  std::lock_guard<std::mutex> lock(TheState().directories_mutex);
  for (const auto& path : TheState().directories) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TheState().directories.clear();
}

std::optional<std::chrono::steady_clock::time_point> TerminationTime() {
  std::lock_guard<std::mutex> lock(TheState().notice_mutex);
  return TheState().termination_time;
}

void ArmRunDeadline(std::chrono::seconds left, std::chrono::seconds reserve, const std::string& cause) {
  const auto wait = left > reserve ? left - reserve : std::chrono::seconds(0);
  {
    std::lock_guard<std::mutex> lock(TheState().notice_mutex);
    TheState().termination_time = std::chrono::steady_clock::now() + wait;
  }
  std::thread([wait, cause] {
    std::this_thread::sleep_for(wait);
    RequestTermination(cause);
  }).detach();
}

}  // namespace gpuconform
