// LiveSource: answers probes on the node this process runs on.
// Contract: commands run through RunCommand with the probe's deadline; a missing tool,
// a timeout or a non-zero exit becomes a RawOutput status naming the command and node.
#pragma once

#include <string>

#include "harness/probe.h"
#include "harness/profile.h"

namespace gpuconform {

// What an in-process (kBuiltin) probe may know about the run.
struct LiveContext {
  std::string host;
  const Profile* profile = nullptr;  // the profile being judged against; may be null (capture)
};

class LiveSource : public ProbeSource {
 public:
  LiveSource(std::string hostname, const Profile* profile);
  std::vector<std::string> Nodes() const override { return {context_.host}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override;

 private:
  RawOutput RunProbeCommand(const ProbeSpec& spec) const;
  RawOutput ReadProbeFile(const ProbeSpec& spec) const;

  LiveContext context_;
};

// This machine's short host name (what Slurm calls the node).
std::string LocalHostname();

}  // namespace gpuconform
