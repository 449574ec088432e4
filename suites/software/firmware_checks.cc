#include "suites/software/firmware_checks.h"

#include <algorithm>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"
#include "suites/software/software_checks.h"

namespace gpuconform::software {

using facts::DeviceFirmware;
using facts::FirmwareReading;

namespace {

struct Holder {
  std::string node;
  std::string device;
};
using HoldersByVersion = std::map<std::string, std::vector<Holder>>;


// "96.00.74.00.0D" where every device of the node agrees, else each version with its devices.
std::string NodeSummary(const FirmwareReading& reading) {
  if (!reading.read) return "unavailable";
  std::map<std::string, std::vector<std::string>> devices_by_version;
  for (const DeviceFirmware& device : reading.devices) {
    devices_by_version[device.version.empty() ? "not reported" : device.version].push_back(device.device);
  }
  if (devices_by_version.empty()) return "no devices";
  if (devices_by_version.size() == 1) return devices_by_version.begin()->first;
  std::vector<std::string> parts;
  for (const auto& [version, devices] : devices_by_version) parts.push_back(version + " (" + Join(devices, ", ") + ")");
  return Join(parts, "; ");
}

std::string Count(std::size_t n, const std::string& what) { return std::to_string(n) + " " + what; }

// The most common version; nullopt on a tie for first place, where no version is the odd one.
std::optional<std::string> MajorityVersion(const HoldersByVersion& holders) {
  std::string best;
  std::size_t best_count = 0;
  bool tied = false;
  for (const auto& [version, devices] : holders) {
    if (devices.size() > best_count) {
      best = version;
      best_count = devices.size();
      tied = false;
    } else if (devices.size() == best_count) {
      tied = true;
    }
  }
  if (tied) return std::nullopt;
  return best;
}

std::vector<std::string> NodesOf(const std::vector<Holder>& holders) {
  std::vector<std::string> nodes;
  for (const Holder& holder : holders) {
    if (nodes.empty() || nodes.back() != holder.node) nodes.push_back(holder.node);
  }
  return nodes;
}

// One finding per node and odd version: "hgx-node-02: HCA firmware 28.35.2000 on mlx5_0, mlx5_3 (MT4129), expected ...".
void AddSkewFindings(const FirmwareComponent& component, const std::string& model, const std::string& version,
                     const std::vector<Holder>& holders, const std::string& expected_text,
                     std::vector<Finding>& findings) {
  std::map<std::string, std::vector<std::string>> devices_by_node;
  for (const Holder& holder : holders) devices_by_node[holder.node].push_back(holder.device);
  for (const auto& [node, devices] : devices_by_node) {
    findings.push_back({"firmware-skew", node,
                        node + ": " + component.label + " " + version + " on " + Join(devices, ", ") +
                            (model.empty() ? "" : " (" + model + ")") + ", expected " + expected_text + ": " +
                            component.fix});
  }
}

// An error whose findings keep the node each problem is about.
CheckResult ErroredNaming(const std::vector<Finding>& problems) {
  CheckResult result = Errored(problems.front().code, problems.front().message);
  result.findings.front().entity = problems.front().entity;
  for (std::size_t i = 1; i < problems.size(); ++i) result.findings.push_back(problems[i]);
  return result;
}

}  // namespace

CheckResult CheckFirmwareIdentical(const FirmwareComponent& component,
                                   const std::map<std::string, FirmwareReading>& readings, const Profile& profile) {
  std::vector<Measurement> measurements;
  for (const auto& [node, reading] : readings) {
    measurements.push_back({node + "." + component.key, NodeSummary(reading), "", "", ""});
  }
  auto with_measurements = [&](CheckResult result) {
    result.measurements = measurements;
    return result;
  };

  const std::string devices_word = component.on_gpus ? "GPUs" : "HCAs";
  if (component.on_gpus) {
    if (auto reason = GpuSkipReason(profile, component.label + " is not expected on these nodes")) {
      return with_measurements(Skipped(*reason));
    }
  } else if (!profile.infiniband || !profile.infiniband->present) {
    return with_measurements(
        Skipped("profile " + profile.name + " expects no InfiniBand or RoCE HCAs, so there is no HCA firmware to compare"));
  }
  if (!JudgedByProfile(profile, component.key)) {
    return with_measurements(Skipped("recorded only: profile " + profile.name + " does not list '" + component.key +
                                     "' in software.identical_across_nodes"));
  }
  if (readings.empty()) return Errored("no-nodes", "no node reported its " + devices_word);

  // model -> version -> the devices that run it, in node order.
  std::map<std::string, HoldersByVersion> by_model;
  std::vector<Finding> problems;  // nodes or devices that could not be judged
  std::size_t not_installed = 0;
  for (const auto& [node, reading] : readings) {
    if (!reading.read) {
      not_installed += reading.not_installed ? 1 : 0;
      problems.push_back({reading.reason, node, reading.problem});
      continue;
    }
    std::vector<std::string> unreported;
    for (const DeviceFirmware& device : reading.devices) {
      if (device.version.empty()) {
        unreported.push_back(device.device);
      } else {
        by_model[device.model][device.version].push_back({node, device.device});
      }
    }
    if (!unreported.empty()) {
      problems.push_back({"firmware-unreported", node,
                          node + ": no " + component.label + " version for " + Join(unreported, ", ") +
                              " (the tool printed N/A or the output was trimmed)"});
    }
  }
  if (by_model.empty()) {
    if (not_installed == readings.size()) {
      return with_measurements(Errored("not-installed", "no node can list its " + devices_word + ": " +
                                                            readings.begin()->second.problem));
    }
    if (problems.empty()) return with_measurements(Errored("firmware-unreported", "no node lists any " + devices_word));
    return with_measurements(ErroredNaming(problems));
  }

  const SoftwareExpectation& software = profile.GetOrDefault<SoftwareExpectation>();
  std::vector<Finding> findings;
  for (const auto& [model, holders] : by_model) {
    std::size_t total = 0;
    for (const auto& entry : holders) total += entry.second.size();
    const std::string model_devices = (model.empty() ? "" : model + " ") + devices_word;
    const PinnedVersion* pin = software.PinFor(component.key, model);
    if (pin) {
      const std::string expected_text = pin->version + " (pinned in profile " + profile.name + ": " +
                                        software.source + ")";
      for (const auto& [version, devices] : holders) {
        if (version != pin->version) AddSkewFindings(component, model, version, devices, expected_text, findings);
      }
      continue;
    }
    const std::optional<std::string> majority = MajorityVersion(holders);
    if (!majority) {
      // No version is the odd one: every group is named, and the fix is to choose one.
      std::vector<std::string> split;
      for (const auto& [version, devices] : holders) split.push_back(version + " on " + Count(devices.size(), "of them"));
      const std::string expected_text = "one version across the " + Count(total, model_devices) +
                                        ", but they split evenly (" + Join(split, ", ") +
                                        "); pin the intended version in the profile's software.pinned";
      for (const auto& [version, devices] : holders) {
        AddSkewFindings(component, model, version, devices, expected_text, findings);
      }
      continue;
    }
    const std::vector<Holder>& majority_holders = holders.at(*majority);
    const std::string expected_text = *majority + " like " + Count(majority_holders.size(), "of " + Count(total, model_devices)) +
                                      " (on " + Join(NodesOf(majority_holders), ", ") + ")";
    for (const auto& [version, devices] : holders) {
      if (version != *majority) AddSkewFindings(component, model, version, devices, expected_text, findings);
    }
  }
  if (!findings.empty()) {
    // What could not be judged travels with the failure rather than being dropped.
    findings.insert(findings.end(), problems.begin(), problems.end());
    return with_measurements(Failed(std::move(findings)));
  }
  if (!problems.empty()) return with_measurements(ErroredNaming(problems));
  return with_measurements(Passed());
}

}  // namespace gpuconform::software
