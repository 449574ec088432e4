#include "probes/slurm/srun_step.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <boost/process.hpp>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <filesystem>
#include <optional>
#include <thread>

#include "harness/core/process_runner.h"
#include "harness/util/text_util.h"
#include "probes/slurm/srun_parse.h"

namespace gpuconform::slurm {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

namespace {

// After the first task ends at start, how long to keep reading before ending the step: other
// nodes failing the same way, and the lines the task printed on its way out, arrive in it.
constexpr std::chrono::milliseconds kStartFailureGrace(1000);

// How the step is ended, from the moment launch decides to: srun's own Ctrl-C protocol, then
// its kill of the tasks, then srun itself.
struct Signal {
  std::chrono::milliseconds after;
  int signal;
};
constexpr Signal kEndStep[] = {{std::chrono::milliseconds(0), SIGINT},      // srun prints the tasks' state
                               {std::chrono::milliseconds(200), SIGINT},    // within 1 s: srun ends the step
                               {std::chrono::milliseconds(3000), SIGINT},   // srun sends the tasks SIGKILL
                               {std::chrono::milliseconds(20000), SIGKILL}};  // srun did not end

// Splits what the pipe hands over into lines, each echoed, kept and watched.
class StderrLines {
 public:
  StderrLines(StepOutcome& outcome, StartFailureWatch* watch) : outcome_(outcome), watch_(watch) {}
  void Add(std::string_view chunk) {
    pending_.append(chunk);
    for (std::size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      Line(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
  }
  void Finish() {
    if (!pending_.empty()) Line(pending_);
    pending_.clear();
  }
  void StopWatching() { watch_ = nullptr; }

 private:
  void Line(const std::string& line) {
    std::cerr << line << std::endl;
    outcome_.srun_stderr += line + "\n";
    if (watch_ != nullptr) watch_->Feed(line);
  }
  StepOutcome& outcome_;
  StartFailureWatch* watch_;
  std::string pending_;
};

// The step RunStep runs now, for EndRunningStep on the termination thread.
std::atomic<pid_t> g_running_pid{0};
std::atomic<bool> g_running_is_srun{false};

}  // namespace

bool EndRunningStep(std::chrono::milliseconds wait) {
  const pid_t pid = g_running_pid.load();
  if (pid <= 0) return true;
  if (g_running_is_srun.load()) {
    ::kill(pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(pid, SIGINT);
  } else {
    ::kill(pid, SIGTERM);
  }
  const auto end = Clock::now() + wait;
  while (g_running_pid.load() == pid && Clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return g_running_pid.load() != pid;
}

StepOutcome RunStep(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& environment, bool end_on_start_failure) {
  StepOutcome outcome;
  SurviveBrokenPipes();
  const auto program = bp::search_path(argv.front());
  if (program.empty()) {
    outcome.start_error = argv.front() + " is not on PATH: run gpuconform launch where Slurm's client commands are";
    return outcome;
  }
  bp::pipe errors;
  std::error_code error;
  // The child inherits this process's environment with `environment` set on top.
  bp::environment child_environment = boost::this_process::environment();
  for (const auto& [name, value] : environment) child_environment[name] = value;
  bp::child child(program, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_err > errors,
                  child_environment, error);
  if (error) {
    outcome.start_error = "could not start " + CommandText(argv) + ": " + error.message();
    return outcome;
  }
  g_running_is_srun = std::filesystem::path(argv.front()).filename() == "srun";
  g_running_pid = child.id();
  StartFailureWatch watch;
  StderrLines lines(outcome, end_on_start_failure ? &watch : nullptr);
  std::optional<Clock::time_point> end_at;  // when launch ends the step
  std::size_t signals_sent = 0;
  const int fd = errors.native_source();
  char buffer[4096];
  for (;;) {
    int wait_ms = -1;
    if (end_at && signals_sent < std::size(kEndStep)) {
      const auto next = *end_at + kEndStep[signals_sent].after;
      wait_ms = static_cast<int>(
          std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count()));
    }
    pollfd waiting{fd, POLLIN, 0};
    const int ready = ::poll(&waiting, 1, wait_ms);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      const ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;  // srun and everything it started closed stderr
      lines.Add(std::string_view(buffer, static_cast<std::size_t>(got)));
    }
    if (end_on_start_failure && !end_at && !watch.world_formed() && !watch.ExitedAtStart().empty()) {
      end_at = Clock::now() + kStartFailureGrace;
    }
    while (end_at && signals_sent < std::size(kEndStep) && Clock::now() >= *end_at + kEndStep[signals_sent].after) {
      if (signals_sent == 0) {
        // What the watch saw up to now is the start failure; what the ended tasks print next is not.
        outcome.exited_at_start = watch.ExitedAtStart();
        lines.StopWatching();
        std::vector<std::string> nodes;
        for (const auto& node : outcome.exited_at_start) nodes.push_back(node.node);
        std::cerr << "gpuconform launch: the task on " << Join(nodes, ", ")
                  << " ended before the ranks met; ending this step\n";
      }
      ::kill(child.id(), kEndStep[signals_sent].signal);
      ++signals_sent;
    }
  }
  lines.Finish();
  // Every task ended before launch ended the step (one node, or all of them failing alike):
  // they are start failures all the same.
  if (end_on_start_failure && signals_sent == 0 && !watch.world_formed()) outcome.exited_at_start = watch.ExitedAtStart();
  child.wait(error);
  g_running_pid = 0;
  outcome.exit_code = error ? 2 : child.exit_code();
  return outcome;
}

}  // namespace gpuconform::slurm
