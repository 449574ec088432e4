// A node's version of each piece of software the Software suite compares, read from its probe
// (versions_probes.h) through its parser (versions_parse.h) once per run. A probe that gave no
// output is a reading too: the tool or library not installed is a fact, any other status a
// problem with its reason code. Pure: raw outputs in.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "harness/core/reason_code.h"
#include "harness/util/result.h"

namespace gpuconform::versions {

// A node's version of one component, or why it could not be read.
struct VersionReading {
  std::optional<std::string> version;
  bool not_installed = false;  // the tool or library is absent (a fact, not an error)
  std::string problem;         // why there is no version, naming node and command or file
  ReasonCode reason{"unparseable"};  // the catalogue code of `problem`: the probe's status, or a parse failure

  bool operator==(const VersionReading&) const = default;
};

// Reads a version out of a probe's output: its text and origin in, the version or why not out.
using VersionOf = std::function<Result<std::string>(const std::string& text, const std::string& origin)>;

// The reading of `probe` on `node`, cached as `kind`: the probe's status where it gave no
// output, else what `version` makes of the output.
VersionReading ReadVersion(const ClusterRaw& raw, const std::string& node, const std::string& kind,
                           const ProbeSpec& probe, const VersionOf& version);

VersionReading ReadKernelRelease(const ClusterRaw& raw, const std::string& node);      // uname -r
VersionReading ReadSlurmdVersion(const ClusterRaw& raw, const std::string& node);      // slurmd -V
VersionReading ReadMungedVersion(const ClusterRaw& raw, const std::string& node);      // munged --version
VersionReading ReadMpiLibraryVersion(const ClusterRaw& raw, const std::string& node);  // MPI_Get_library_version
VersionReading ReadNcclVersion(const ClusterRaw& raw, const std::string& node);        // ncclGetVersion
VersionReading ReadGpuconformVersion(const ClusterRaw& raw, const std::string& node);  // this binary

}  // namespace gpuconform::versions
