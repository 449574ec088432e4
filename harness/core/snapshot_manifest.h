// A snapshot's manifest.yaml (layout v1): a flat YAML mapping of key: plain value (cluster,
// captured_at, gpuconform_version, ...). Contract: pure, text in; anything else (a list, a
// nested value, broken YAML) is an error naming origin:line, never an exception.
#pragma once

#include <map>
#include <string>

#include "harness/util/result.h"

namespace gpuconform {

struct SnapshotManifest {
  std::map<std::string, std::string> fields;  // cluster, captured_at, gpuconform_version, ...
};

// An empty text (or one holding only comments) is an empty manifest.
Result<SnapshotManifest> ParseSnapshotManifest(const std::string& yaml_text, const std::string& origin);

}  // namespace gpuconform
