// LiveSource: answers probes on the node this process runs on.
// Contract: commands run through RunCommand with the probe's deadline; a missing tool,
// a timeout or a non-zero exit becomes a RawOutput status naming the command and node.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "harness/probe.h"

namespace gpuconform {

class LiveSource : public ProbeSource {
 public:
  using Builtin = std::function<RawOutput()>;

  explicit LiveSource(std::string hostname);
  std::vector<std::string> Nodes() const override { return {hostname_}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override;

  // In-process probes (kBuiltin), keyed by probe id; registered by the harness.
  void AddBuiltin(const std::string& probe_id, Builtin builtin);

 private:
  RawOutput RunProbeCommand(const ProbeSpec& spec) const;
  RawOutput ReadProbeFile(const ProbeSpec& spec) const;

  std::string hostname_;
  std::map<std::string, Builtin> builtins_;
};

// This machine's short host name (what Slurm calls the node).
std::string LocalHostname();

}  // namespace gpuconform
