#include "harness/live_source.h"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "harness/process_runner.h"

namespace gpuconform {

std::string LocalHostname() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  std::string host(name);
  // Slurm node names are short names; a FQDN would never match scontrol's NodeName.
  return host.substr(0, host.find('.'));
}

LiveSource::LiveSource(std::string hostname) : hostname_(std::move(hostname)) {}

void LiveSource::AddBuiltin(const std::string& probe_id, Builtin builtin) {
  builtins_[probe_id] = std::move(builtin);
}

RawOutput LiveSource::Fetch(const ProbeSpec& spec, const std::string& /*node*/) {
  switch (spec.method) {
    case ProbeMethod::kCommand: return RunProbeCommand(spec);
    case ProbeMethod::kReadFile: return ReadProbeFile(spec);
    case ProbeMethod::kBuiltin: {
      auto it = builtins_.find(spec.id);
      if (it == builtins_.end()) {
        return {ProbeStatus::kToolMissing, "", hostname_ + ": " + spec.id,
                hostname_ + ": no live implementation of probe " + spec.id};
      }
      RawOutput out = it->second();
      if (out.origin.empty()) out.origin = hostname_ + ": " + spec.id;
      return out;
    }
    case ProbeMethod::kCollective:
      break;  // run by GatherLive, which holds the world
  }
  return {ProbeStatus::kFailed, "", hostname_ + ": " + spec.id,
          hostname_ + ": probe " + spec.id + " needs all ranks and runs only in a live gather"};
}

RawOutput LiveSource::RunProbeCommand(const ProbeSpec& spec) const {
  const std::string command = CommandLine(spec.argv);
  RawOutput out;
  out.origin = hostname_ + ": `" + command + "`";
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
        out.detail = hostname_ + ": `" + command + "` exited with status " + std::to_string(run.exit_code) +
                     (err.empty() ? "" : ": " + err);
      }
      break;
    case CommandOutcome::kNotFound:
      out.status = ProbeStatus::kToolMissing;
      out.detail = hostname_ + ": `" + spec.argv[0] + "` is not installed (not found on PATH)";
      break;
    case CommandOutcome::kTimedOut:
      out.status = ProbeStatus::kTimedOut;
      out.detail = hostname_ + ": `" + command + "` did not finish within " + std::to_string(spec.timeout_ms) +
                   " ms and was killed";
      break;
    case CommandOutcome::kSpawnFailed:
      out.status = ProbeStatus::kFailed;
      out.detail = hostname_ + ": " + run.error;
      break;
  }
  return out;
}

RawOutput LiveSource::ReadProbeFile(const ProbeSpec& spec) const {
  RawOutput out;
  out.origin = hostname_ + ":" + spec.path;
  std::ifstream in(spec.path, std::ios::binary);
  if (!in) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = hostname_ + ": cannot read " + spec.path;
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  out.text = text.str();
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace gpuconform
