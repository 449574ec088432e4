#include "harness/core/snapshot_manifest.h"

#include <yaml-cpp/yaml.h>

namespace gpuconform {

Result<SnapshotManifest> ParseSnapshotManifest(const std::string& yaml_text, const std::string& origin) {
  SnapshotManifest manifest;
  try {
    YAML::Node root = YAML::Load(yaml_text);
    if (root.IsNull()) return manifest;
    if (!root.IsMap()) {
      return Error{origin + ":" + std::to_string(root.Mark().line + 1) + ": manifest must be a mapping of key: value"};
    }
    for (const auto& item : root) {
      if (!item.second.IsScalar()) {
        return Error{origin + ":" + std::to_string(item.second.Mark().line + 1) + ": key '" +
                     item.first.as<std::string>() + "' must be a plain value"};
      }
      manifest.fields[item.first.as<std::string>()] = item.second.as<std::string>();
    }
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": invalid YAML: " + e.msg};
  }
  return manifest;
}

}  // namespace gpuconform
