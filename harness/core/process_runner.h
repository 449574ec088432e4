// Runs one external command with a deadline. Every external command gpuconform runs goes
// through here, so that a hung tool becomes a reported timeout, never a hung run.
// Contract: never throws; the whole process group is killed when the deadline passes;
// stdout and stderr are captured in full (up to kMaxCapturedBytes each).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuconform {

enum class CommandOutcome {
  kExited,       // ran to completion; see exit_code
  kNotFound,     // argv[0] is not on PATH (or not executable)
  kTimedOut,     // killed at the deadline
  kSpawnFailed,  // fork/exec or pipe setup failed; see error
};

struct CommandResult {
  CommandOutcome outcome = CommandOutcome::kSpawnFailed;
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
  std::string error;  // spawn failure detail
  double elapsed_s = 0.0;

  bool Succeeded() const { return outcome == CommandOutcome::kExited && exit_code == 0; }
};

inline constexpr std::size_t kMaxCapturedBytes = 64 * 1024 * 1024;

CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                         const std::string& stdin_text = "");

// Makes a write to the pipe of a child that has exited fail with EPIPE instead of killing
// this process with SIGPIPE (the NCCL worker on a node without GPUs exits after saying so; a
// tool may exit without reading its stdin). It installs a no-op handler rather than SIG_IGN,
// because an ignored SIGPIPE is inherited across exec and would change how the tools we run
// behave in their own pipelines. Idempotent; RunCommand calls it, and so does every other
// writer to a child's pipe.
void SurviveBrokenPipes();

// Where `tool` runs from, as RunCommand finds it: a name with a '/' is a path and is not
// searched for; any other name is looked up in `path_list`'s directories, in order. Only an
// executable regular file counts. Empty entries are skipped: for execvp they mean the current
// directory, which no probe means to run a tool from. nullopt where nothing is found.
std::optional<std::string> FindOnPath(const std::string& tool, std::string_view path_list);
// The same in this process's PATH (unset: /usr/local/bin:/usr/bin:/bin, as a shell's default).
std::optional<std::string> FindOnPath(const std::string& tool);

// "nvidia-smi topo -m" — argv joined for messages, quoting words with spaces.
std::string CommandText(const std::vector<std::string>& argv);

}  // namespace gpuconform
