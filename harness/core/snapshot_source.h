// SnapshotSource: answers probes from a snapshot directory (layout v1):
//   SNAPSHOT/manifest.yaml (optional), SNAPSHOT/nodes/<host>/<file>, SNAPSHOT/cluster/<file>.
// Contract: OpenSnapshot validates the layout once (exit-2 material: the message names the
// directory or manifest file and line); after that, Fetch never fails hard — an absent file
// is kAbsent naming the path, and a `<file>.error` written by capture restores why a live
// probe failed (tool missing, timeout) so a replay reports the original cause.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "harness/core/probe.h"
#include "harness/core/snapshot_manifest.h"
#include "harness/util/result.h"

namespace gpuconform {

class SnapshotSource : public ProbeSource {
 public:
  SnapshotSource(std::string dir, std::vector<std::string> nodes, SnapshotManifest manifest);
  std::vector<std::string> Nodes() const override { return nodes_; }
  RawOutput Fetch(const ProbeSpec& spec, const std::string& node) override;
  const SnapshotManifest& manifest() const { return manifest_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::string> nodes_;
  SnapshotManifest manifest_;
};

Result<std::unique_ptr<SnapshotSource>> OpenSnapshot(const std::string& dir);

// Relative path of a probe's file inside a snapshot: "nodes/<node>/<file>" or "cluster/<file>".
std::string SnapshotPath(const ProbeSpec& spec, const std::string& node);

}  // namespace gpuconform
