// A regression to test with, from the snapshot captured on the local cluster: a baseline whose
// busbw is 25% higher than the run's (so the run is 20% below it and still above the floor),
// and the local profile with the default 10% bandwidth tolerance instead of its own 50%.
// Test-only and header-only; shared by the baseline and the HTML report tests.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/test_support.h"

namespace gpuconform::test_support {

// Writes DIR/local-10pct.yaml and returns its path.
inline std::string TenPercentLocalProfile(const std::string& dir) {
  std::string yaml = ReadFile(std::string(GPUCONFORM_SOURCE_DIR) + "/topologies/local.yaml");
  const std::string key = "bandwidth_tolerance_fraction: 0.5";
  yaml.replace(yaml.find(key), key.size(), "bandwidth_tolerance_fraction: 0.1");
  std::ofstream(dir + "/local-10pct.yaml") << yaml;
  return dir + "/local-10pct.yaml";
}

// Writes DIR/good.json: the results document `measured` as the last good image's run, with
// every busbw 25% higher; returns its path.
inline std::string FasterBaseline(const std::string& measured, const std::string& dir) {
  nlohmann::json document = nlohmann::json::parse(ReadFile(measured));
  for (auto& result : document["results"]) {
    for (auto& metric : result["metrics"]) {
      if (metric["value"].is_number() && metric["name"].get<std::string>().find("busbw") != std::string::npos) {
        metric["value"] = metric["value"].get<double>() * 1.25;
      }
    }
  }
  document["run"]["run_id"] = "feedfacefeedfacefeedfacefeedface";
  document["run"]["tags"]["image"] = "last-good";
  std::ofstream(dir + "/good.json") << document.dump(2);
  return dir + "/good.json";
}

}  // namespace gpuconform::test_support
