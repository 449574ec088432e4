#include "harness/core/probe.h"

namespace gpuconform {

const char* ProbeStatusName(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kOk: return "ok";
    case ProbeStatus::kAbsent: return "absent";
    case ProbeStatus::kToolMissing: return "tool-missing";
    case ProbeStatus::kTimedOut: return "timed-out";
    case ProbeStatus::kFailed: return "failed";
  }
  return "unknown";
}

ReasonCode ProbeStatusReason(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kAbsent: return "file-absent";
    case ProbeStatus::kToolMissing: return "tool-missing";
    case ProbeStatus::kTimedOut: return "timed-out";
    case ProbeStatus::kFailed: return "probe-failed";
    case ProbeStatus::kOk: break;
  }
  return "unavailable";
}

namespace {

ProbeSpec Spec(std::string id, ProbeScope scope, ProbeMethod method, std::string file) {
  ProbeSpec spec;
  spec.id = std::move(id);
  spec.scope = scope;
  spec.method = method;
  spec.file = std::move(file);
  return spec;
}

}  // namespace

ProbeSpec TalksToDevices(ProbeSpec spec, std::string driver_path) {
  spec.device_driver = std::move(driver_path);
  return spec;
}

ProbeSpec Active(ProbeSpec spec) {
  spec.active = true;
  return spec;
}

ProbeSpec CommandProbe(std::string id, ProbeScope scope, std::string file, std::vector<std::string> argv,
                       int timeout_ms) {
  ProbeSpec spec = Spec(std::move(id), scope, ProbeMethod::kCommand, std::move(file));
  spec.argv = std::move(argv);
  spec.timeout_ms = timeout_ms;
  return spec;
}

ProbeSpec ProfileCommandProbe(std::string id, ProbeScope scope, std::string file, ProbeCommand fallback,
                              std::function<std::optional<ProbeCommand>(const Profile*)> command) {
  ProbeSpec spec = CommandProbe(std::move(id), scope, std::move(file), std::move(fallback.argv), fallback.timeout_ms);
  spec.command_from_profile = std::move(command);
  return spec;
}

ProbeSpec FileProbe(std::string id, ProbeScope scope, std::string file, std::string path) {
  ProbeSpec spec = Spec(std::move(id), scope, ProbeMethod::kReadFile, std::move(file));
  spec.path = std::move(path);
  return spec;
}

ProbeSpec BuiltinProbe(std::string id, ProbeScope scope, std::string file,
                       std::function<RawOutput(const LiveContext&)> run) {
  ProbeSpec spec = Spec(std::move(id), scope, ProbeMethod::kBuiltin, std::move(file));
  spec.builtin = std::move(run);
  return spec;
}

ProbeSpec CollectiveProbe(std::string id, std::string file, std::function<RawOutput(const CollectiveContext&)> run) {
  ProbeSpec spec = Spec(std::move(id), ProbeScope::kNode, ProbeMethod::kCollective, std::move(file));
  spec.collective = std::move(run);
  return spec;
}

void AddProbeOnce(std::vector<ProbeSpec>& probes, const ProbeSpec& spec) {
  for (const auto& probe : probes) {
    if (probe.id == spec.id) return;
  }
  probes.push_back(spec);
}

std::vector<ProbeSpec> JoinProbes(std::initializer_list<std::vector<ProbeSpec>> groups) {
  std::vector<ProbeSpec> probes;
  for (const auto& group : groups) {
    for (const auto& probe : group) AddProbeOnce(probes, probe);
  }
  return probes;
}

}  // namespace gpuconform
