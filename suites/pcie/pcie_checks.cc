#include "suites/pcie/pcie_checks.h"

#include <set>

#include "facts/ib_port_facts.h"
#include "harness/gpu_applicability.h"

namespace gpuconform::pcie {

namespace {

// An idle GPU may drop its link to a lower generation to save power (the width stays), so a
// low generation in a power-saving performance state gets that hint next to the fix.
std::string IdleHint(const GpuRecord& gpu) {
  if (gpu.performance_state.empty() || gpu.performance_state == "P0") return "";
  return " (the GPU was in " + gpu.performance_state +
         ": an idle GPU may lower its link generation to save power; if it stays low under load, it is a fault)";
}

}  // namespace

std::optional<std::string> GpuLinksSkipReason(const Profile& profile) {
  return GpuSkipReason(profile, "there is nothing to check");
}

std::optional<std::string> NicLinksSkipReason(const Profile& profile) {
  if (!profile.infiniband) return "profile " + profile.name + " has no infiniband section, so it expects no rail NICs";
  if (!profile.infiniband->present) {
    return "profile " + profile.name +
           " has no InfiniBand (infiniband.present: false), so there is no rail NIC to check";
  }
  return std::nullopt;
}

CheckResult CheckLinksAtMaxGenAndWidth(const std::string& node, const GpuInventory& inventory, const Profile&) {
  if (inventory.gpus.empty()) {
    return Errored("no-gpus",
                   node + ": neither NVML nor nvidia-smi -q -x lists a GPU, so no PCIe link could be judged");
  }
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  for (const auto& gpu : inventory.gpus) {
    const PcieLink& link = gpu.pcie;
    const std::string entity = node + "/gpu" + std::to_string(gpu.index);
    if (!link.max_gen || !link.current_gen || !link.max_width || !link.current_width) {
      unreported.push_back(GpuDisplayName(gpu));
      continue;
    }
    if (*link.current_width < *link.max_width) {
      findings.push_back({"pcie-width", entity,
                          node + ": " + GpuDisplayName(gpu) + " PCIe link is x" + std::to_string(*link.current_width) +
                              ", expected x" + std::to_string(*link.max_width) +
                              " (its maximum): the link trained down; reseat the GPU or its riser/cable, and look "
                              "for AER errors in `dmesg` and LnkSta in `lspci -vv -s " + gpu.bus_id + "`"});
    }
    if (*link.current_gen < *link.max_gen) {
      findings.push_back({"pcie-gen", entity,
                          node + ": " + GpuDisplayName(gpu) + " PCIe link is Gen" + std::to_string(*link.current_gen) +
                              ", expected Gen" + std::to_string(*link.max_gen) +
                              " (its maximum): signal integrity or a BIOS/slot setting limits the speed; check "
                              "`lspci -vv -s " + gpu.bus_id + "` LnkSta and the slot's PCIe setting in the BIOS" +
                              IdleHint(gpu)});
    }
  }
  if (findings.empty() && !unreported.empty()) {
    std::string names;
    for (const auto& name : unreported) names += (names.empty() ? "" : ", ") + name;
    return Errored("not-reported",
                   node + ": the GPU listing (NVML or nvidia-smi -q -x) reports no PCIe generation/width for " + names +
                       " (N/A or missing <pci_gpu_link_info>), so the link could not be judged");
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckNicLinksAtMaxGenAndWidth(const std::string& node, const NicPcieReport& nics,
                                          const ib_tools::IbPortReport* ports, const Profile& profile) {
  if (nics.nics.empty()) {
    return Errored("no-nics",
                   node + ": sysfs lists no RDMA NIC (" + nics.sysfs_root +
                       "/class/infiniband is empty or absent), so no NIC PCIe link could be judged; RailNicsPresent "
                       "says which rails are missing");
  }
  std::set<std::string> rails;
  if (ports) {
    for (const auto* port : facts::RailPorts(*ports, *profile.infiniband)) rails.insert(port->ca);
  }
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  int judged = 0;
  for (const auto& nic : nics.nics) {
    if (!rails.empty() && !rails.count(nic.name)) continue;
    ++judged;
    const std::string entity = node + "/" + nic.name;
    if (!nic.current_gen || !nic.max_gen || !nic.current_width || !nic.max_width) {
      unreported.push_back(nic.DisplayName());
      continue;
    }
    const std::string lspci = nic.bus_id.empty() ? "lspci -vv" : "lspci -vv -s " + nic.bus_id;
    if (*nic.current_width < *nic.max_width) {
      findings.push_back({"pcie-width", entity,
                          node + ": rail NIC " + nic.DisplayName() + " PCIe link is x" + std::to_string(*nic.current_width) +
                              ", expected x" + std::to_string(*nic.max_width) +
                              " (its maximum): the link trained down and caps the NIC below its line rate; reseat "
                              "the HCA or its riser/cable, and look for AER errors in `dmesg` and LnkSta in `" + lspci + "`"});
    }
    if (*nic.current_gen < *nic.max_gen) {
      findings.push_back({"pcie-gen", entity,
                          node + ": rail NIC " + nic.DisplayName() + " PCIe link is Gen" + std::to_string(*nic.current_gen) +
                              " (" + nic.current_speed + "), expected Gen" + std::to_string(*nic.max_gen) + " (" +
                              nic.max_speed + ", its maximum): signal integrity or a BIOS/slot setting limits the "
                              "speed; check LnkSta in `" + lspci + "` and the slot's PCIe setting in the BIOS"});
    }
  }
  if (judged == 0) {
    return Errored("no-rails",
                   node + ": none of the rail NICs of the port listing appears in sysfs, so no NIC PCIe link could "
                          "be judged");
  }
  if (findings.empty() && !unreported.empty()) {
    std::string names;
    for (const auto& name : unreported) names += (names.empty() ? "" : ", ") + name;
    return Errored("not-reported",
                   node + ": sysfs reports no PCIe generation/width for " + names +
                       " (unreadable or \"Unknown\" link attributes), so the link could not be judged");
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".rail_nics_judged", std::to_string(judged), "", "", ""});
  return result;
}

}  // namespace gpuconform::pcie
