#include "probes/kernel_log/kernel_log_probe.h"

#include <chrono>
#include <string>
#include <vector>

#include "harness/core/process_runner.h"
#include "harness/core/profile.h"
#include "probes/kernel_log/gpu_health_profile.h"

namespace gpuconform::kernel_log {

namespace {

constexpr std::chrono::milliseconds kTimeout{30000};

// ISO times in both tools, so that every event has a date and a zone.
const std::vector<std::vector<std::string>>& Commands() {
  static const std::vector<std::vector<std::string>> kCommands = {
      {"dmesg", "--time-format=iso"},
      {"journalctl", "-k", "-b", "--no-pager", "-o", "short-iso"},
  };
  return kCommands;
}

std::string Why(const CommandResult& run) {
  switch (run.outcome) {
    case CommandOutcome::kNotFound:
      return "not installed";
    case CommandOutcome::kTimedOut:
      return "timed out";
    case CommandOutcome::kSpawnFailed:
      return run.error;
    case CommandOutcome::kExited:
      break;
  }
  std::string err = run.stderr_text.substr(0, 200);
  while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
  return "exit status " + std::to_string(run.exit_code) + (err.empty() ? "" : ": " + err);
}

}  // namespace

const ProbeSpec& KernelLogProbe() {
  static const ProbeSpec kSpec = [] {
    ProbeSpec spec = BuiltinProbe("kernel-log", ProbeScope::kNode, "dmesg.txt", KernelLogOutput);
    // A replayed log of a long uptime is streamed (live, the node sends its output as text).
    spec.large_output = true;
    return spec;
  }();
  return kSpec;
}

RawOutput KernelLogOutput(const LiveContext& context) {
  std::vector<std::string> attempts;
  bool any_tool = false;
  for (const auto& argv : Commands()) {
    const CommandResult run = RunCommand(argv, kTimeout);
    if (run.Succeeded()) return {ProbeStatus::kOk, run.stdout_text, context.host + ": `" + CommandText(argv) + "`", ""};
    any_tool = any_tool || run.outcome != CommandOutcome::kNotFound;
    attempts.push_back("`" + CommandText(argv) + "`: " + Why(run));
  }
  const GpuHealthExpectation* health =
      context.profile != nullptr ? context.profile->Get<GpuHealthExpectation>() : nullptr;
  const std::string file = health != nullptr ? health->kernel_log_file : "";
  if (!file.empty()) {
    RawOutput out = ReadFileOutput(context.host, file);
    if (out.ok()) return out;
    attempts.push_back(file + ": " + (out.detail.empty() ? "unreadable" : out.detail));
    any_tool = true;
  } else {
    attempts.push_back("no gpu_health.kernel_log_file in the profile");
  }
  std::string detail = context.host + ": the kernel log could not be read (";
  for (std::size_t i = 0; i < attempts.size(); ++i) detail += (i == 0 ? "" : "; ") + attempts[i];
  detail += "); run as root or in the adm group, or name a log file in gpu_health.kernel_log_file";
  return {any_tool ? ProbeStatus::kFailed : ProbeStatus::kToolMissing, "", context.host + ": kernel log", detail};
}

}  // namespace gpuconform::kernel_log
