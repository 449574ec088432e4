// LiveSource: answers probes on the node this process runs on.
// Contract: commands run through RunCommand with the probe's deadline; a missing tool,
// a timeout or a non-zero exit becomes a RawOutput status naming the command and node. A
// tool that hung once is not started again by the same source: the probes that need it
// answer at once, saying so (a hung nvidia-smi would otherwise cost its deadline three times).
#pragma once

#include <map>
#include <string>

#include "harness/core/probe.h"
#include "harness/core/profile.h"
#include "harness/core/run_options.h"

namespace gpuconform {

// What an in-process (kBuiltin) probe may know about the run.
struct LiveContext {
  std::string host;
  const Profile* profile = nullptr;  // the profile being judged against; may be null (capture)
  const RunOptions& options = DefaultRunOptions();
};

class LiveSource : public ProbeSource {
 public:
  LiveSource(std::string hostname, const Profile* profile, const RunOptions& options);
  std::vector<std::string> Nodes() const override { return {context_.host}; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override;
  const LiveContext& context() const { return context_; }

 private:
  RawOutput RunProbeCommand(const ProbeSpec& spec);
  RawOutput ReadProbeFile(const ProbeSpec& spec) const;

  LiveContext context_;
  std::map<std::string, std::string> hung_tools_;  // argv[0] -> how it hung, this run
};

// A file's contents as a probe's output: kToolMissing, naming the node, where it cannot be read.
RawOutput ReadFileOutput(const std::string& host, const std::string& path);
// The same for a large output (ProbeSpec::large_output) that rank 0 judges: the output refers
// to the file (RawOutput::file), which its reader streams, where it can be opened.
RawOutput FileReferenceOutput(const std::string& host, const std::string& path);

// This machine's short host name (what Slurm calls the node).
std::string LocalHostname();

}  // namespace gpuconform
