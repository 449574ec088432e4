#include "probes/versions/versions_facts.h"

#include "harness/core/raw_text.h"
#include "probes/versions/versions_parse.h"
#include "probes/versions/versions_probes.h"

namespace gpuconform::versions {

namespace {

VersionReading Compute(const ClusterRaw& raw, const std::string& node, const ProbeSpec& probe,
                       const VersionOf& version_of) {
  const RawOutput out = raw.NodeOutput(node, probe.id);
  VersionReading reading;
  if (!out.ok()) {
    reading.not_installed = out.status == ProbeStatus::kToolMissing;
    // UsableText quotes the tool's own first line (nvidia-smi's "couldn't communicate with the
    // NVIDIA driver"), not only its exit status.
    const auto usable = UsableText(out, node, probe.file, "not installed on the node");
    reading.problem = usable ? out.detail : usable.error();
    reading.reason = ProbeStatusReason(out.status);
    return reading;
  }
  const Result<std::string> version = version_of(out.text, out.origin);
  if (version) {
    reading.version = *version;
  } else {
    reading.problem = version.error();
  }
  return reading;
}

// A probe read with one of versions_parse.h's parsers, cached under the probe's id.
VersionReading ReadParsed(const ClusterRaw& raw, const std::string& node, const ProbeSpec& probe,
                          Result<std::string> (*parse)(const std::string& text, const std::string& origin)) {
  return ReadVersion(raw, node, "version:" + probe.id, probe, parse);
}

}  // namespace

VersionReading ReadVersion(const ClusterRaw& raw, const std::string& node, const std::string& kind,
                           const ProbeSpec& probe, const VersionOf& version) {
  return raw.facts.Get<VersionReading>(kind, node, [&] { return Compute(raw, node, probe, version); });
}

VersionReading ReadKernelRelease(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, KernelRelease(), ParseKernelRelease);
}
VersionReading ReadSlurmdVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, SlurmdVersion(), ParseSlurmdVersion);
}
VersionReading ReadMungedVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, MungedVersion(), ParseMungedVersion);
}
VersionReading ReadMpiLibraryVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, MpiLibraryVersion(), ParseMpiLibraryVersion);
}
VersionReading ReadNcclVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, NcclVersion(), ParseDottedVersion);
}
VersionReading ReadGpuconformVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadParsed(raw, node, GpuconformVersion(), ParseGpuconformVersion);
}

}  // namespace gpuconform::versions
