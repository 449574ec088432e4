#include "harness/core/process_runner.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <utility>

#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <exception>
#include <future>
#include <mutex>

#include "harness/core/run_options.h"
#include "harness/core/termination.h"

namespace gpuconform {

namespace bp = boost::process;

std::string CommandText(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& word : argv) {
    if (!line.empty()) line += ' ';
    line += word.find(' ') == std::string::npos ? word : "'" + word + "'";
  }
  return line;
}

void SurviveBrokenPipes() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action {};
    action.sa_handler = [](int) {};
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGPIPE, &action, nullptr);
  });
}

namespace {

bool IsExecutableFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> FindOnPath(const std::string& tool, std::string_view path_list) {
  if (tool.empty()) return std::nullopt;
  if (tool.find('/') != std::string::npos) {
    if (IsExecutableFile(tool)) return tool;
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= path_list.size()) {
    const std::size_t colon = path_list.find(':', start);
    const std::size_t end = colon == std::string_view::npos ? path_list.size() : colon;
    const std::string_view dir = path_list.substr(start, end - start);
    if (!dir.empty()) {
      std::string candidate = std::string(dir) + "/" + tool;
      if (IsExecutableFile(candidate)) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> FindOnPath(const std::string& tool) {
  return FindOnPath(tool, ExecutableSearchPath());
}

namespace {

std::string Truncated(std::string text) {
  if (text.size() > kMaxCapturedBytes) text.resize(kMaxCapturedBytes);
  return text;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::string& stdin_text) {
  SurviveBrokenPipes();
  CommandResult result;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (argv.empty()) {
    result.error = "empty command";
    return result;
  }
  // A run that is ending starts nothing new: its termination handler has stopped what ran.
  if (const auto notice = Termination()) {
    result.error = "not started: " + notice->Describe();
    return result;
  }
  const auto exe = FindOnPath(argv[0]);
  if (!exe) {
    result.outcome = CommandOutcome::kNotFound;
    result.error = argv[0] + ": command not found";
    return result;
  }
  try {
    boost::asio::io_context io;
    std::future<std::string> out;
    std::future<std::string> err;
    // A group, so that the deadline kills the tool's children too (e.g. srun's helpers).
    bp::group group;
    std::vector<std::string> args(argv.begin() + 1, argv.end());
    bp::async_pipe in_pipe(io);
    // With an io_context, Boost.Process reaps the child in its SIGCHLD handler, so the
    // exit status is only reliable through on_exit.
    bool exited = false;
    int exit_code = -1;
    bp::child child(boost::filesystem::path(*exe), bp::args(args), bp::std_out > out, bp::std_err > err,
                    bp::std_in < in_pipe, io, group,
                    bp::on_exit = [&](int code, const std::error_code&) {
                      exited = true;
                      exit_code = code;
                    });
    // Termination (termination.h) stops the group while the tool runs, so no tool outlives the run.
    const pid_t group_id = group.native_handle();
    RegisterChildGroup(group_id);
    struct Unregister {
      pid_t id;
      ~Unregister() { UnregisterChildGroup(id); }
    } unregister{group_id};
    // Feed stdin asynchronously, then close it so the tool sees EOF.
    boost::asio::async_write(in_pipe, boost::asio::buffer(stdin_text),
                             [&](const boost::system::error_code&, std::size_t) { in_pipe.close(); });
    io.run_for(timeout);
    if (!io.stopped() || !exited) {
      std::error_code ignored;
      group.terminate(ignored);
      child.wait(ignored);
      result.outcome = CommandOutcome::kTimedOut;
      // Collect what the tool printed before it was killed; the pipes are closed now
      // unless a grandchild escaped the group, so bound this drain too.
      io.restart();
      io.run_for(std::chrono::milliseconds(500));
    } else {
      result.outcome = CommandOutcome::kExited;
      result.exit_code = exit_code;
    }
    using namespace std::chrono_literals;
    if (out.wait_for(0s) == std::future_status::ready) result.stdout_text = Truncated(out.get());
    if (err.wait_for(0s) == std::future_status::ready) result.stderr_text = Truncated(err.get());
  } catch (const std::exception& e) {
    result.outcome = CommandOutcome::kSpawnFailed;
    result.error = std::string("could not run ") + CommandText(argv) + ": " + e.what();
  }
  result.elapsed_s = elapsed();
  return result;
}

}  // namespace gpuconform
