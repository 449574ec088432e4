// NcclTopology suite glue: NCCL's topology (probes/nccl_topo), the NCCL_TOPO_FILE and PCI
// device probes (from the catalog), and the suite's registration.
#include <algorithm>

#include "probes/nccl_topo/nccl_topo_file_probe.h"
#include "probes/pci_devices/pci_devices_probe.h"
#include "harness/suite_registry.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "probes/nccl_topo/nccl_topo_probe.h"
#include "suites/nccl_topology/nccl_topology_checks.h"
#include "suites/nccl_topology/topo_file_checks.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;

namespace {

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& node : context.raw.nodes) {
    const RawOutput out = context.raw.NodeOutput(node, TopologyProbe().id);
    std::vector<CheckResult> judged;
    if (!out.ok()) {
      const std::string detail = out.status == ProbeStatus::kAbsent ? out.detail + "; " + kHowToProduce : out.detail;
      judged = TopologyUnavailable(node, ProbeStatusReason(out.status), detail, context.profile);
    } else if (auto topology = ParseTopologyXml(out.text, out.origin)) {
      judged = JudgeTopology(node, *topology, context.profile);
    } else {
      judged = TopologyUnavailable(node, "unparseable", topology.error(), context.profile);
    }
    results.insert(results.end(), judged.begin(), judged.end());
  }
  // Check by check, node by node: the report lists each check's nodes together.
  const auto& names = CheckNames();
  auto position = [&](const CheckResult& r) { return std::find(names.begin(), names.end(), r.check) - names.begin(); };
  std::stable_sort(results.begin(), results.end(),
                   [&](const CheckResult& a, const CheckResult& b) { return position(a) < position(b); });
  for (const auto& node : context.raw.nodes) {
    results.push_back(JudgeTopoFile(node, context.raw.NodeOutput(node, nccl_topo::NcclTopoFile().id),
                                    context.raw.NodeOutput(node, pci_devices::PciDevices().id)));
  }
  return results;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "NCCL's topology (NCCL_TOPO_DUMP_FILE) matches the profile: GPUs, NVLinks, NICs, GPU-NIC affinity",
    .checks = {
        {kGpuCount, "NCCL sees gpu.count_per_node GPUs on every node", true},
        {kNvlinkCountPerGpu, "every GPU has nvlink.links_per_gpu NVLinks to NVSwitches", true},
        {kNicCountSpeedGdr, "NCCL sees infiniband.rail_nics_per_node NICs at the profile's rate, with GPUDirect RDMA",
         true},
        {kGpuHasNicUnderPcieSwitch, "every GPU has a NIC under its PCIe switch, on its NUMA node", true},
        {kTopoFileMatchesNode,
         "every PCI device of the NCCL_TOPO_FILE the environment sets exists on the node with the same class", true},
    },
    .probes = {TopologyProbe(), nccl_topo::NcclTopoFile(), pci_devices::PciDevices()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nccl_topology
