#include "suites/pcie/pcie_checks.h"

#include "suites/nvswitch/nvswitch_checks.h"

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

CheckResult CheckLinksAtMaxGenAndWidth(const std::string& node, const Result<GpuInventory>& inventory,
                                       const Profile& profile) {
  if (auto skip = nvswitch::SkipWithoutGpus(kSuite, kLinksAtMaxGenAndWidth, node, profile)) return *skip;
  if (!inventory) return Errored(kSuite, kLinksAtMaxGenAndWidth, node, "unavailable", inventory.error());
  if (inventory->gpus.empty()) {
    return Errored(kSuite, kLinksAtMaxGenAndWidth, node, "no-gpus",
                   node + ": nvidia-smi -q -x lists no GPU, so no PCIe link could be judged");
  }
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  for (const auto& gpu : inventory->gpus) {
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
    return Errored(kSuite, kLinksAtMaxGenAndWidth, node, "not-reported",
                   node + ": nvidia-smi -q -x reports no PCIe generation/width for " + names +
                       " (N/A or missing <pci_gpu_link_info>), so the link could not be judged");
  }
  return FromFindings(kSuite, kLinksAtMaxGenAndWidth, node, std::move(findings));
}

}  // namespace gpuconform::pcie
