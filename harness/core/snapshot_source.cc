#include "harness/core/snapshot_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace gpuconform {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> ReadWholeFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<SnapshotManifest> ReadManifest(const fs::path& path) {
  if (!fs::exists(path)) return SnapshotManifest{};
  auto text = ReadWholeFile(path);
  if (!text) return Error{path.string() + ": cannot read the manifest"};
  return ParseSnapshotManifest(*text, path.string());
}

}  // namespace

std::string SnapshotPath(const ProbeSpec& spec, const std::string& node) {
  return spec.scope == ProbeScope::kCluster ? "cluster/" + spec.file : "nodes/" + node + "/" + spec.file;
}

SnapshotSource::SnapshotSource(std::string dir, std::vector<std::string> nodes, SnapshotManifest manifest)
    : dir_(std::move(dir)), nodes_(std::move(nodes)), manifest_(std::move(manifest)) {}

RawOutput SnapshotSource::Fetch(const ProbeSpec& spec, const std::string& node) {
  const fs::path path = fs::path(dir_) / SnapshotPath(spec, node);
  RawOutput out;
  out.origin = path.string();
  if (spec.large_output) {
    // Its reader streams it (RawLines): here only whether it can be opened is known.
    if (std::ifstream(path, std::ios::binary)) {
      out.status = ProbeStatus::kOk;
      out.file = path.string();
      return out;
    }
  } else if (auto text = ReadWholeFile(path)) {
    out.status = ProbeStatus::kOk;
    out.text = std::move(*text);
    return out;
  }
  // capture writes "<file>.error" as "<status>\n<detail>" when the live probe failed.
  if (auto error = ReadWholeFile(path.string() + ".error")) {
    const auto newline = error->find('\n');
    const std::string status = error->substr(0, newline);
    out.detail = newline == std::string::npos ? "" : error->substr(newline + 1);
    while (!out.detail.empty() && out.detail.back() == '\n') out.detail.pop_back();
    out.status = status == "tool-missing" ? ProbeStatus::kToolMissing
                 : status == "timed-out"  ? ProbeStatus::kTimedOut
                                          : ProbeStatus::kFailed;
    out.detail += " (recorded in " + path.string() + ".error)";
    return out;
  }
  out.status = ProbeStatus::kAbsent;
  out.detail = "the snapshot has no " + path.string();
  return out;
}

Result<std::unique_ptr<SnapshotSource>> OpenSnapshot(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir + ": snapshot directory does not exist"};
  const fs::path nodes_dir = fs::path(dir) / "nodes";
  const fs::path cluster_dir = fs::path(dir) / "cluster";
  if (!fs::is_directory(nodes_dir, ec) && !fs::is_directory(cluster_dir, ec)) {
    return Error{dir + ": not a gpuconform snapshot (layout v1 needs nodes/<host>/ or cluster/)"};
  }
  auto manifest = ReadManifest(fs::path(dir) / "manifest.yaml");
  if (!manifest) return Error{manifest.error()};
  std::vector<std::string> nodes;
  if (fs::is_directory(nodes_dir, ec)) {
    for (const auto& entry : fs::directory_iterator(nodes_dir, ec)) {
      if (entry.is_directory()) nodes.push_back(entry.path().filename().string());
    }
  }
  std::sort(nodes.begin(), nodes.end());
  return std::make_unique<SnapshotSource>(dir, std::move(nodes), std::move(manifest).value());
}

}  // namespace gpuconform
