#include "suites/software/software_checks.h"

#include <algorithm>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"

namespace gpuconform::software {

namespace {


// The version most nodes run; ties go to the smaller string so the verdict is stable.
std::string MajorityVersion(const std::map<std::string, std::vector<std::string>>& nodes_by_version) {
  std::string best;
  std::size_t best_count = 0;
  for (const auto& [version, nodes] : nodes_by_version) {
    if (nodes.size() > best_count) {
      best = version;
      best_count = nodes.size();
    }
  }
  return best;
}

}  // namespace

bool JudgedByProfile(const Profile& profile, const std::string& key) {
  const SoftwareExpectation& software = profile.GetOrDefault<SoftwareExpectation>();
  const auto& list = software.identical_across_nodes;
  return std::find(list.begin(), list.end(), key) != list.end() || software.PinFor(key) != nullptr;
}

CheckResult CheckVersionsIdentical(const Component& component, const std::map<std::string, VersionReading>& readings,
                                   const Profile& profile) {
  std::vector<Measurement> measurements;
  std::map<std::string, std::vector<std::string>> nodes_by_version;
  std::vector<std::string> not_installed;
  std::vector<const std::pair<const std::string, VersionReading>*> unreadable;
  for (const auto& entry : readings) {
    const auto& [node, reading] = entry;
    measurements.push_back({node + "." + component.key, reading.version.value_or("unavailable"), "", "", ""});
    if (reading.version) {
      nodes_by_version[*reading.version].push_back(node);
    } else if (reading.not_installed) {
      not_installed.push_back(node);
    } else {
      unreadable.push_back(&entry);
    }
  }

  auto with_measurements = [&](CheckResult result) {
    result.measurements = measurements;
    return result;
  };

  if (component.needs_gpu) {
    if (auto reason = GpuSkipReason(profile, component.label + " is not expected on these nodes")) {
      return with_measurements(Skipped(*reason));
    }
  }
  if (!JudgedByProfile(profile, component.key)) {
    return with_measurements(Skipped("recorded only: profile " + profile.name + " does not list '" + component.key +
                                         "' in software.identical_across_nodes"));
  }
  if (readings.empty()) {
    return Errored("no-nodes", "no node reported a " + component.label + " version");
  }

  if (nodes_by_version.empty() && unreadable.empty()) {
    // Installed nowhere: not skew, but the profile requires the component.
    return with_measurements(Errored("not-installed",
                                     component.label + " is not installed on any node (" + Join(not_installed, ", ") +
                                         "): " + readings.begin()->second.problem));
  }

  std::vector<Finding> findings;
  // A pinned version is what every node must run, even when most nodes run another.
  const SoftwareExpectation& software = profile.GetOrDefault<SoftwareExpectation>();
  const PinnedVersion* pin = software.PinFor(component.key);
  const std::string expected = pin ? pin->version : MajorityVersion(nodes_by_version);
  const auto& majority_nodes = nodes_by_version[expected];
  std::string majority_text;
  if (pin) {
    majority_text = " (pinned in profile " + profile.name + ": " + software.source + ")";
  } else if (!expected.empty()) {
    majority_text = " like " + Join(majority_nodes, ", ") + " (" + std::to_string(majority_nodes.size()) + " of " +
                    std::to_string(readings.size()) + " nodes)";
  }
  for (const auto& [version, nodes] : nodes_by_version) {
    if (version == expected) continue;
    for (const auto& node : nodes) {
      findings.push_back({"version-skew", node,
                          node + ": " + component.label + " " + version + ", expected " + expected + majority_text +
                              ": " + component.fix});
    }
  }
  for (const auto& node : not_installed) {
    if (majority_nodes.empty()) break;
    findings.push_back({"missing-on-node", node,
                        node + ": " + component.label + " is not installed, while " + Join(majority_nodes, ", ") +
                            " run " + expected + ": " + component.fix + " (" + readings.at(node).problem + ")"});
  }
  if (!findings.empty()) return with_measurements(Failed(std::move(findings)));

  if (!unreadable.empty()) {
    const VersionReading& first = unreadable.front()->second;
    CheckResult result = Errored(first.reason, first.problem);
    for (std::size_t i = 1; i < unreadable.size(); ++i) {
      result.findings.push_back({unreadable[i]->second.reason, unreadable[i]->first, unreadable[i]->second.problem});
    }
    return with_measurements(std::move(result));
  }
  return with_measurements(Passed());
}

}  // namespace gpuconform::software
