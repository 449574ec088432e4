#include "harness/core/live_source.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/core/os_error.h"
#include "harness/core/process_runner.h"

namespace gpuconform {

std::string LocalHostname() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  std::string host(name);
  // Slurm node names are short names; a FQDN would never match scontrol's NodeName.
  return host.substr(0, host.find('.'));
}

LiveSource::LiveSource(std::string hostname, const Profile* profile, const RunOptions& options)
    : context_{std::move(hostname), profile, options} {}

RawOutput LiveSource::Fetch(const ProbeSpec& spec, const std::string& /*node*/) {
  const std::string& host = context_.host;
  switch (spec.method) {
    case ProbeMethod::kCommand: {
      if (!spec.command_from_profile) return RunProbeCommand(spec);
      const auto chosen = spec.command_from_profile(context_.profile);
      if (!chosen) {
        return {ProbeStatus::kAbsent, "", host + ": `" + CommandText(spec.argv) + "`",
                host + ": `" + CommandText(spec.argv) + "` was not run: the profile does not ask for it"};
      }
      ProbeSpec resolved = spec;
      resolved.argv = chosen->argv;
      resolved.timeout_ms = std::min(chosen->timeout_ms, spec.timeout_ms);
      return RunProbeCommand(resolved);
    }
    case ProbeMethod::kReadFile: return ReadProbeFile(spec);
    case ProbeMethod::kBuiltin: {
      if (!spec.builtin) {
        return {ProbeStatus::kToolMissing, "", host + ": " + spec.id,
                host + ": no live implementation of probe " + spec.id};
      }
      RawOutput out = spec.builtin(context_);
      if (out.origin.empty()) out.origin = host + ": " + spec.id;
      return out;
    }
    case ProbeMethod::kCollective:
      break;  // run by GatherLive, which holds the world
  }
  return {ProbeStatus::kFailed, "", host + ": " + spec.id,
          host + ": probe " + spec.id + " needs all ranks and runs only in a live gather"};
}

RawOutput LiveSource::RunProbeCommand(const ProbeSpec& spec) {
  const std::string& host = context_.host;
  const std::string command = CommandText(spec.argv);
  RawOutput out;
  out.origin = host + ": `" + command + "`";
  if (const auto hung = hung_tools_.find(spec.argv.front()); hung != hung_tools_.end()) {
    out.status = ProbeStatus::kTimedOut;
    out.detail = host + ": `" + command + "` was not started: " + hung->second;
    return out;
  }
  const CommandResult run = RunCommand(spec.argv, std::chrono::milliseconds(spec.timeout_ms));
  out.text = run.stdout_text;
  switch (run.outcome) {
    case CommandOutcome::kExited:
      if (run.exit_code == 0) {
        out.status = ProbeStatus::kOk;
      } else {
        out.status = ProbeStatus::kFailed;
        std::string err = run.stderr_text.substr(0, 400);
        while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
        out.detail = host + ": `" + command + "` exited with status " + std::to_string(run.exit_code) +
                     (err.empty() ? "" : ": " + err);
      }
      break;
    case CommandOutcome::kNotFound:
      out.status = ProbeStatus::kToolMissing;
      out.detail = host + ": `" + spec.argv[0] + "` is not installed (not found on PATH)";
      break;
    case CommandOutcome::kTimedOut: {
      out.status = ProbeStatus::kTimedOut;
      out.detail = host + ": `" + command + "` did not finish within " + std::to_string(spec.timeout_ms) +
                   " ms and was killed";
      std::error_code error;
      if (!spec.device_driver.empty() && std::filesystem::exists(spec.device_driver, error)) {
        out.detail += std::string(": it ") + std::string(kDeviceToolHungWords) + " (" + spec.device_driver +
                      " exists), the classic sign of a wedged GPU or HCA; drain the node, read dmesg for Xid or "
                      "driver errors, and reset the device or reboot";
      }
      hung_tools_[spec.argv.front()] = "`" + command + "` hung earlier in this run" + out.detail.substr(
          out.detail.find(" and was killed") + std::string(" and was killed").size());
      break;
    }
    case CommandOutcome::kSpawnFailed:
      out.status = ProbeStatus::kFailed;
      out.detail = host + ": " + run.error;
      break;
  }
  return out;
}

RawOutput LiveSource::ReadProbeFile(const ProbeSpec& spec) const { return ReadFileOutput(context_.host, spec.path); }

RawOutput ReadFileOutput(const std::string& host, const std::string& path) {
  RawOutput out;
  out.origin = host + ":" + path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = host + ": cannot read " + path;
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  out.text = text.str();
  out.status = ProbeStatus::kOk;
  return out;
}

RawOutput FileReferenceOutput(const std::string& host, const std::string& path) {
  RawOutput out;
  out.origin = host + ":" + path;
  if (!std::ifstream(path, std::ios::binary)) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = host + ": cannot read " + path;
    return out;
  }
  out.file = path;
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace gpuconform
