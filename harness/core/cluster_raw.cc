#include "harness/core/cluster_raw.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>

#include "harness/core/snapshot_source.h"
#include "harness/util/atomic_file.h"

namespace gpuconform {

using nlohmann::json;

RawOutput ClusterRaw::NodeOutput(const std::string& node_name, const std::string& probe_id) const {
  auto n = node.find(node_name);
  if (n != node.end()) {
    auto p = n->second.find(probe_id);
    if (p != n->second.end()) return p->second;
  }
  if (node_loader && !released.count(node_name) && std::binary_search(nodes.begin(), nodes.end(), node_name)) {
    if (loaded_node != node_name) {
      node.erase(loaded_node);
      loaded_node = node_name;
    }
    return node[node_name][probe_id] = node_loader(node_name, probe_id);
  }
  return {ProbeStatus::kAbsent, "", node_name + ": " + probe_id,
          node_name + ": no " + probe_id + " output was collected"};
}

RawOutput ClusterRaw::ClusterOutput(const std::string& probe_id) const {
  auto p = cluster.find(probe_id);
  if (p != cluster.end()) return p->second;
  return {ProbeStatus::kAbsent, "", "cluster: " + probe_id, "no cluster-wide " + probe_id + " output was collected"};
}

void ClusterRaw::ReleaseNode(const std::string& node_name) const {
  node.erase(node_name);
  facts.ClearNode(node_name);
  if (node_loader) released.insert(node_name);
}

namespace {

json OutputToJson(const RawOutput& out) {
  json j = {{"status", static_cast<int>(out.status)}, {"text", out.text}, {"origin", out.origin}, {"detail", out.detail}};
  // Only rank 0 takes large outputs, and it gathers its own part too: the path stays valid.
  if (!out.file.empty()) j["file"] = out.file;
  return j;
}

RawOutput OutputFromJson(const json& j) {
  RawOutput out;
  out.status = static_cast<ProbeStatus>(j.at("status").get<int>());
  out.text = j.at("text").get<std::string>();
  out.origin = j.at("origin").get<std::string>();
  out.detail = j.at("detail").get<std::string>();
  out.file = j.value("file", "");
  return out;
}

}  // namespace

std::string ClusterRaw::ToJson() const {
  json j;
  j["nodes"] = nodes;
  j["node"] = json::object();
  for (const auto& [name, outputs] : node) {
    for (const auto& [id, out] : outputs) j["node"][name][id] = OutputToJson(out);
  }
  j["cluster"] = json::object();
  for (const auto& [id, out] : cluster) j["cluster"][id] = OutputToJson(out);
  // Tool output is not guaranteed UTF-8; replace invalid bytes rather than fail the run.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<ClusterRaw> ClusterRaw::FromJson(const std::string& text) {
  try {
    const json j = json::parse(text);
    ClusterRaw raw;
    raw.nodes = j.at("nodes").get<std::vector<std::string>>();
    for (const auto& [name, outputs] : j.at("node").items()) {
      for (const auto& [id, out] : outputs.items()) raw.node[name][id] = OutputFromJson(out);
    }
    for (const auto& [id, out] : j.at("cluster").items()) raw.cluster[id] = OutputFromJson(out);
    return raw;
  } catch (const json::exception& e) {
    return Error{std::string("corrupt gathered probe data: ") + e.what()};
  }
}

void ClusterRaw::Merge(const ClusterRaw& other) {
  std::vector<ClusterRaw> parts;
  parts.push_back(other);
  MergeAll(std::move(parts));
}

void ClusterRaw::MergeAll(std::vector<ClusterRaw> parts) {
  facts.Clear();
  for (auto& part : parts) {
    nodes.insert(nodes.end(), std::make_move_iterator(part.nodes.begin()), std::make_move_iterator(part.nodes.end()));
    for (auto& [name, outputs] : part.node) {
      auto& mine = node[name];
      for (auto& [id, out] : outputs) mine[id] = std::move(out);
    }
    for (auto& [id, out] : part.cluster) cluster[id] = std::move(out);
    part = ClusterRaw{};  // each part's text is released once it is moved, not at the end
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

ClusterRaw FetchAll(ProbeSource& source, const std::vector<ProbeSpec>& probes) {
  ClusterRaw raw;
  raw.nodes = source.Nodes();
  for (const auto& spec : probes) {
    if (spec.scope == ProbeScope::kCluster) {
      raw.cluster[spec.id] = source.Fetch(spec, "");
    } else {
      for (const auto& n : raw.nodes) raw.node[n][spec.id] = source.Fetch(spec, n);
    }
  }
  return raw;
}

ClusterRaw ReplayLazily(std::shared_ptr<ProbeSource> source, const std::vector<ProbeSpec>& probes) {
  ClusterRaw raw;
  raw.nodes = source->Nodes();
  std::sort(raw.nodes.begin(), raw.nodes.end());
  auto node_probes = std::make_shared<std::map<std::string, ProbeSpec>>();
  for (const auto& spec : probes) {
    if (spec.scope == ProbeScope::kCluster) {
      raw.cluster[spec.id] = source->Fetch(spec, "");
    } else {
      node_probes->emplace(spec.id, spec);
    }
  }
  raw.node_loader = [source, node_probes](const std::string& node_name, const std::string& probe_id) {
    const auto spec = node_probes->find(probe_id);
    if (spec != node_probes->end()) return source->Fetch(spec->second, node_name);
    // Not a probe of this run: what FetchAll's lookup answers for it.
    return RawOutput{ProbeStatus::kAbsent, "", node_name + ": " + probe_id,
                     node_name + ": no " + probe_id + " output was collected"};
  };
  return raw;
}

namespace {

Result<int> WriteOne(const std::filesystem::path& root, const ProbeSpec& spec, const std::string& node,
                     const RawOutput& out) {
  const auto path = root / SnapshotPath(spec, node);
  if (out.status == ProbeStatus::kAbsent) return 0;
  if (out.ok()) {
    auto written = out.file.empty() ? WriteFileAtomically(path.string(), out.text)
                                    : CopyFileAtomically(out.file, path.string());
    if (!written) return Error{written.error()};
    return 1;
  }
  auto written = WriteFileAtomically(path.string() + ".error",
                                     std::string(ProbeStatusName(out.status)) + "\n" + out.detail + "\n");
  if (!written) return Error{written.error()};
  return 1;
}

}  // namespace

Result<int> WriteSnapshot(const ClusterRaw& raw, const std::vector<ProbeSpec>& probes, const std::string& dir,
                          const std::map<std::string, std::string>& manifest) {
  const std::filesystem::path root(dir);
  int files = 0;
  for (const auto& spec : probes) {
    if (spec.scope == ProbeScope::kCluster) {
      auto n = WriteOne(root, spec, "", raw.ClusterOutput(spec.id));
      if (!n) return n;
      files += *n;
      continue;
    }
    for (const auto& node : raw.nodes) {
      std::error_code ec;
      std::filesystem::create_directories(root / "nodes" / node, ec);
      auto n = WriteOne(root, spec, node, raw.NodeOutput(node, spec.id));
      if (!n) return n;
      files += *n;
    }
  }
  std::string manifest_text = "# gpuconform snapshot, layout v1\nlayout: 1\n";
  for (const auto& [key, value] : manifest) manifest_text += key + ": " + json(value).dump() + "\n";
  auto written = WriteFileAtomically((root / "manifest.yaml").string(), manifest_text);
  if (!written) return Error{written.error()};
  return files + 1;
}

}  // namespace gpuconform
