#include "harness/core/gpu_applicability.h"
#include "suites/nvswitch/nvswitch_checks.h"

#include <fmt/format.h>

#include <map>

namespace gpuconform::nvswitch {

namespace {

// What a non-NVLink cell of `nvidia-smi topo -m` means, in the words of its legend.
std::string PathMeaning(const std::string& cell) {
  static const std::map<std::string, std::string> kMeaning = {
      {"SYS", "PCIe plus the CPU interconnect between NUMA nodes"},
      {"SOC", "PCIe plus the CPU interconnect between NUMA nodes"},
      {"NODE", "PCIe plus the interconnect between host bridges of a NUMA node"},
      {"PHB", "PCIe through a host bridge (the CPU)"},
      {"PXB", "PCIe through several PCIe bridges"},
      {"PIX", "PCIe through a single PCIe bridge"},
  };
  const auto it = kMeaning.find(cell);
  return it == kMeaning.end() ? "an unknown path" : it->second;
}

// What NVML's remote device type of a link means, for messages.
std::string RemoteMeaning(const std::string& remote) {
  if (remote == "gpu") return "another GPU directly";
  if (remote == "ibmnpu") return "an IBM NPU (a POWER CPU)";
  return "a device NVML cannot name";
}

}  // namespace

std::optional<std::string> GpuCountSkipReason(const Profile& profile) {
  return GpuSkipReason(profile, "there is nothing to check");
}

std::optional<std::string> LinkChecksSkipReason(const Profile& profile) {
  if (auto reason = GpuCountSkipReason(profile)) return reason;
  if (!profile.nvlink) {
    return "profile " + profile.name + " has no nvlink section, so it does not say how GPUs are linked";
  }
  return std::nullopt;
}

std::optional<Finding> GpuCountContradiction(const std::string& node, const std::string& source, int count,
                                             const Profile& profile) {
  if (!profile.gpu || profile.gpu->count_per_node <= 0 || count == profile.gpu->count_per_node) return std::nullopt;
  const int expected = profile.gpu->count_per_node;
  const std::string cause = count < expected
                                ? "a GPU fell off the bus or its driver failed to attach: look for Xid 79 / \"fallen off "
                                  "the bus\" in `dmesg`, reseat or replace the GPU"
                                : "the node has more GPUs than the profile says: wrong profile?";
  return Finding{"gpu-count", node,
                 node + ": " + std::to_string(count) + " GPUs " + source + ", expected " + std::to_string(expected) +
                     " (profile " + profile.name + "): " + cause};
}

namespace {

// The other sources' counts that contradict the profile, leaving out those that agree with the
// inventory's own count (`inventory_count`; none where the inventory is missing): those add
// nothing the inventory's own finding does not say.
std::vector<Finding> Contradictions(const std::string& node, std::optional<int> inventory_count,
                                    const Profile& profile, const std::vector<GpuCountEvidence>& other_counts) {
  std::vector<Finding> contradictions;
  for (const auto& evidence : other_counts) {
    if (inventory_count && evidence.count == *inventory_count) continue;
    if (auto finding = GpuCountContradiction(node, "in " + evidence.source, evidence.count, profile)) {
      contradictions.push_back(*finding);
    }
  }
  return contradictions;
}

}  // namespace

CheckResult CheckGpuCountWithoutInventory(const std::string& node, const std::string& unread, const Profile& profile,
                                          const std::vector<GpuCountEvidence>& other_counts) {
  std::vector<Finding> contradictions = Contradictions(node, std::nullopt, profile, other_counts);
  if (contradictions.empty()) return Errored("unavailable", unread);
  // Another source already contradicts the profile: that is a failure, whatever the
  // inventory's own problem (which the message keeps).
  contradictions.back().message += " (the GPU inventory itself: " + unread + ")";
  return Failed(std::move(contradictions));
}

CheckResult CheckGpuCountAndModel(const std::string& node, const nvidia_smi::GpuInventory& inventory,
                                  const Profile& profile, const std::vector<GpuCountEvidence>& other_counts) {
  const int count = static_cast<int>(inventory.gpus.size());
  std::vector<Finding> contradictions = Contradictions(node, count, profile, other_counts);
  const GpuExpectation& expected = *profile.gpu;
  std::vector<Finding> findings;
  if (auto finding = GpuCountContradiction(node, "visible to the driver", count, profile)) {
    findings.push_back(*finding);
  }
  if (!expected.model_contains.empty()) {
    for (const auto& gpu : inventory.gpus) {
      if (gpu.product_name.find(expected.model_contains) != std::string::npos) continue;
      findings.push_back({"gpu-model", node + "/gpu" + std::to_string(gpu.index),
                          node + ": " + nvidia_smi::GpuDisplayName(gpu) + " is '" + gpu.product_name +
                              "', expected a model containing '" + expected.model_contains + "' (profile " +
                              profile.name + "): wrong node type in this pool, or the wrong profile"});
    }
  }
  for (auto& contradiction : contradictions) findings.push_back(std::move(contradiction));
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".gpu_count", std::to_string(count), "",
                                 "== " + std::to_string(expected.count_per_node), expected.source});
  return result;
}

CheckResult CheckAllPairsNvlinkConnected(const std::string& node, const TopoMatrix& matrix, const Profile& profile) {
  const auto& gpus = matrix.gpus;
  // Fewer GPUs than the profile's count is a contradiction, not "no pairs to judge".
  if (auto finding = GpuCountContradiction(node, "in nvidia-smi topo -m", static_cast<int>(gpus.size()), profile);
      finding && gpus.size() < 2) {
    return Failed({*finding});
  }
  if (gpus.size() < 2) {
    return Skipped(node + " has " + std::to_string(gpus.size()) +
                       " GPU in nvidia-smi topo -m: there are no GPU pairs, so all-to-all NVLink does not apply "
                       "(GpuCountAndModel judges the count)");
  }
  const int k = profile.nvlink->links_per_gpu;
  const std::string expected = "NV" + std::to_string(k);
  // One finding per observed connection type, naming its pairs: a bad GPU shows up as the one
  // label common to all of them, and a node-wide fault stays one line instead of 28.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> pairs_by_cell;
  std::size_t pair_count = 0;
  for (std::size_t a = 0; a < gpus.size(); ++a) {
    for (std::size_t b = a + 1; b < gpus.size(); ++b) {
      ++pair_count;
      const std::string cell = matrix.Between(gpus[a], gpus[b]);
      if (cell != expected) pairs_by_cell[cell].emplace_back(gpus[a], gpus[b]);
    }
  }
  std::vector<Finding> findings;
  for (const auto& [cell, pairs] : pairs_by_cell) {
    std::string pair_list;
    std::map<std::string, std::size_t> per_gpu;
    for (const auto& [a, b] : pairs) {
      pair_list += (pair_list.empty() ? "" : ", ") + a + "-" + b;
      ++per_gpu[a];
      ++per_gpu[b];
    }
    std::string common;
    for (const auto& [gpu, count] : per_gpu) {
      if (pairs.size() > 1 && count == pairs.size()) common = " (all involve " + gpu + ")";
    }
    const std::string entity =
        pairs.size() == 1 ? node + "/" + pairs[0].first + "-" + pairs[0].second : node;
    const std::string head = fmt::format("{}: {} of {} GPU pairs{}", node, pairs.size(), pair_count, common);
    if (const auto links = NvlinkCount(cell)) {
      findings.push_back({"nvlink-count", entity,
                          fmt::format("{} connected by {} ({} NVLinks), expected {} ({} per GPU through NVSwitch, "
                                      "profile {}): {}; pairs: {}",
                                      head, cell, *links, expected, k, profile.name,
                                      *links < k ? "links are down or untrained; see `nvidia-smi nvlink -s` and the "
                                                   "fabric manager log"
                                                 : "the node has more links than the profile says: wrong profile?",
                                      pairs.size() == pair_count && pair_count > 1 ? std::string("all") : pair_list)});
    } else {
      findings.push_back({"pcie-path", entity,
                          fmt::format("{} connected over {} ({}), expected {} through NVSwitch (profile {}): peer "
                                      "traffic takes PCIe, an order of magnitude slower; check `systemctl status "
                                      "nvidia-fabricmanager` and `nvidia-smi nvlink -s`; pairs: {}",
                                      head, cell.empty() ? "nothing" : cell,
                                      cell.empty() ? "the matrix has no cell for these pairs" : PathMeaning(cell),
                                      expected, profile.name, pairs.size() == pair_count && pair_count > 1 ? std::string("all") : pair_list)});
    }
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckAllLinksActive(const std::string& node, const NvlinkStatus& status, const Profile& profile) {
  const int expected_links = profile.nvlink->links_per_gpu;
  const double floor_gb_per_s = profile.nvlink->link_bandwidth_gb_per_s;
  std::vector<Finding> findings;
  int active_links = 0;
  for (const auto& gpu : status.gpus) {
    const std::string gpu_name = "GPU " + std::to_string(gpu.index);
    const std::string gpu_entity = node + "/gpu" + std::to_string(gpu.index);
    if (gpu.links.empty()) {
      findings.push_back({"links-inactive", gpu_entity,
                          fmt::format("{}: {} ({}) has no active NVLink{}, expected {} active at >= {} GB/s: "
                                      "the GPU is cut off from NVSwitch; check `systemctl status "
                                      "nvidia-fabricmanager` and the GPU's fabric state in `nvidia-smi -q`",
                                      node, gpu_name, gpu.name,
                                      gpu.all_inactive_message.empty() ? "" : " (" + gpu.all_inactive_message + ")",
                                      expected_links, floor_gb_per_s)});
      continue;
    }
    // A GPU may list more NVLink ports than its topology uses: an H100 NVL pair bridged with
    // three bridges lists 18 and uses 12, the rest <inactive> by design. So the expectation is
    // the profile's count of links in use: inactive ports beyond it are not faults, and only
    // when fewer than that many are active are the inactive ones named.
    std::vector<Finding> inactive;
    int active_on_gpu = 0;
    for (const auto& link : gpu.links) {
      const std::string entity = gpu_entity + "/link" + std::to_string(link.index);
      if (!link.active) {
        inactive.push_back({"link-inactive", entity,
                            fmt::format("{}: {} link {} is inactive, expected active at >= {} GB/s: a dead link "
                                        "or NVSwitch port; the GPU loses 1/{} of its NVLink bandwidth (reset the "
                                        "GPU, then check the baseboard)",
                                        node, gpu_name, link.index, floor_gb_per_s, expected_links)});
        continue;
      }
      ++active_on_gpu;
      if (!link.remote.empty() && link.remote != "nvswitch") {
        findings.push_back({"link-not-to-nvswitch", entity,
                            fmt::format("{}: {} link {} leads to {}{}, expected an NVSwitch (NVML remote device "
                                        "type): the GPU is cabled or strapped point-to-point, so its peers beyond "
                                        "that GPU are not reached at full bandwidth; check the baseboard model and "
                                        "`nvidia-smi nvlink -R`",
                                        node, gpu_name, link.index, RemoteMeaning(link.remote),
                                        link.remote_bus_id.empty() ? "" : " (" + link.remote_bus_id + ")")});
      } else if (link.speed_reported && link.speed_gb_per_s < floor_gb_per_s) {
        findings.push_back({"link-slow", entity,
                            fmt::format("{}: {} link {} runs at {} GB/s, expected >= {} GB/s (profile {}): the "
                                        "link trained at a lower speed",
                                        node, gpu_name, link.index, link.speed_gb_per_s, floor_gb_per_s,
                                        profile.name)});
      } else {
        ++active_links;
      }
    }
    const int listed = static_cast<int>(gpu.links.size());
    const bool spare_ports_only = listed > expected_links && active_on_gpu == expected_links;
    if (!spare_ports_only) findings.insert(findings.end(), inactive.begin(), inactive.end());
    if (listed < expected_links || (listed > expected_links && active_on_gpu > expected_links)) {
      findings.push_back({"nvlink-count", gpu_entity,
                          fmt::format("{}: {} ({}) has {} NVLinks, expected {} (profile {}): {}", node, gpu_name,
                                      gpu.name, listed < expected_links ? listed : active_on_gpu, expected_links,
                                      profile.name,
                                      listed < expected_links
                                          ? "a GPU with fewer links (an export variant such as H800) or links "
                                            "hidden by the driver"
                                          : "wrong profile for this GPU?")});
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  if (result.verdict == Verdict::kPass && status.elided_at_line) {
    result = Errored("elided",
                     fmt::format("{}: the nvidia-smi nvlink -s output leaves GPUs out (\"...\" at line {}), so their "
                                 "links could not be judged; capture the full output",
                                 node, status.elided_at_line));
  }
  result.measurements.push_back({node + ".nvlinks_active", std::to_string(active_links), "",
                                 fmt::format(">= {} GB/s each", floor_gb_per_s), profile.nvlink->source});
  return result;
}

CheckResult CheckFabricRegistered(const std::string& node, const nvidia_smi::GpuInventory& inventory, const Profile&) {
  std::vector<Finding> findings;
  int reporting = 0;
  for (const auto& gpu : inventory.gpus) {
    // GPUs before Hopper, and drivers before r530, have no fabric state: "N/A" or absent.
    if (gpu.fabric_state.empty() || gpu.fabric_state == "N/A" || gpu.fabric_state == "Not Supported") continue;
    ++reporting;
    const std::string entity = node + "/gpu" + std::to_string(gpu.index);
    if (gpu.fabric_state != "Completed") {
      findings.push_back({"fabric-not-completed", entity,
                          fmt::format("{}: {} fabric state is '{}', expected 'Completed': the GPU has not joined the "
                                      "NVSwitch fabric, so CUDA and NCCL cannot use NVLink; start or restart "
                                      "nvidia-fabricmanager (`systemctl status nvidia-fabricmanager`, its log in "
                                      "/var/log/fabricmanager.log) and check that its version equals the driver's",
                                      node, nvidia_smi::GpuDisplayName(gpu), gpu.fabric_state)});
    } else if (gpu.fabric_status != "Success") {
      findings.push_back({"fabric-status", entity,
                          fmt::format("{}: {} fabric registration completed with status '{}', expected 'Success': "
                                      "the fabric manager rejected the GPU; see /var/log/fabricmanager.log, then "
                                      "reset the GPU or reboot the node",
                                      node, nvidia_smi::GpuDisplayName(gpu),
                                      gpu.fabric_status.empty() ? "(not reported)" : gpu.fabric_status)});
    }
  }
  if (reporting == 0) {
    return Skipped(node + ": no GPU reports an NVLink fabric state (GPUs before Hopper, or a driver before r530, "
                          "have none), so fabric registration cannot be judged here");
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".gpus_fabric_completed", std::to_string(reporting - static_cast<int>(result.findings.size())), "",
                                 "== " + std::to_string(reporting), ""});
  return result;
}

}  // namespace gpuconform::nvswitch
