// NcclTopology suite glue: which facts (probes/nccl_topo/nccl_topo_facts.h,
// probes/pci_devices/pci_devices_facts.h) feed which check, NCCL's topology probe with the
// NCCL_TOPO_FILE probe (probes/nccl_topo) and the PCI device probe (probes/pci_devices), and
// the suite's registration.
#include "harness/core/fact_reading.h"
#include "harness/core/suite_registry.h"
#include "probes/nccl_topo/nccl_topo_facts.h"
#include "probes/nccl_topo/nccl_topo_file_probe.h"
#include "probes/nccl_topo/nccl_topo_probe.h"
#include "probes/pci_devices/pci_devices_facts.h"
#include "probes/pci_devices/pci_devices_probe.h"
#include "suites/nccl_topology/nccl_topology_checks.h"
#include "suites/nccl_topology/topo_file_checks.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_topo;
using namespace gpuconform::pci_devices;

namespace {

// A check of the node's topology; a topology that could not be read is the check's error, with
// the probe's status as its code (unparseable where the file does not parse).
template <typename Check>
CheckJudge JudgeTopology(Check check) {
  return [check](const SuiteContext& context, const std::string& node) {
    const Result<Topology>& topology = ReadTopology(context.raw, node);
    if (!topology) return Errored(facts::UnreadCode(context.raw.NodeOutput(node, TopologyProbe().id)), topology.error());
    return check(context, node, *topology);
  };
}

CheckApplicability ApplicableUnder(const char* check) {
  return [check](const SuiteContext& context, const std::string&) { return NotApplicable(check, context.profile); };
}

// Skipped where NCCL_TOPO_FILE is not set (the file probe is absent), an error where the file or
// the node's PCI devices could not be read, else the comparison.
CheckResult JudgeTopoFile(const SuiteContext& context, const std::string& node) {
  const Result<Topology>& file = ReadTopoFile(context.raw, node);
  if (!file) {
    const RawOutput out = context.raw.NodeOutput(node, nccl_topo::NcclTopoFile().id);
    if (out.status == ProbeStatus::kAbsent) {
      return Skipped(node + ": NCCL_TOPO_FILE is not set, so NCCL detects the topology itself and there is no static "
                            "file to compare (" + out.detail + ")");
    }
    if (!out.ok()) return Errored(ProbeStatusReason(out.status), out.detail);
    return Errored("unparseable",
                   node + ": NCCL_TOPO_FILE is set but unusable: " + file.error() +
                       "; NCCL fails or ignores it: unset NCCL_TOPO_FILE or regenerate it with NCCL_TOPO_DUMP_FILE");
  }
  const Result<LivePciDevices>& live = ReadPciDevices(context.raw, node);
  if (!live) {
    const RawOutput out = context.raw.NodeOutput(node, pci_devices::PciDevices().id);
    if (out.ok()) return Errored("unparseable", live.error());
    return Errored(ProbeStatusReason(out.status),
                   node + ": NCCL_TOPO_FILE is set but the node's PCI devices are unknown, so the file cannot be "
                          "checked: " + out.detail);
  }
  return CheckTopoFileMatchesNode(node, *file, *live);
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "NCCL's topology (NCCL_TOPO_DUMP_FILE) matches the profile: GPUs, NVLinks, NICs, GPU-NIC affinity",
    .checks = {
        {.name = kGpuCount,
         .requirement = "NCCL sees gpu.count_per_node GPUs on every node",
         .per_node = true,
         .judge = JudgeTopology([](const SuiteContext& context, const std::string& node, const Topology& topology) {
           return CheckGpuCount(node, topology, context.profile);
         }),
         .not_applicable = ApplicableUnder(kGpuCount)},
        {.name = kNvlinkCountPerGpu,
         .requirement = "every GPU has nvlink.links_per_gpu NVLinks to NVSwitches",
         .per_node = true,
         .judge = JudgeTopology([](const SuiteContext& context, const std::string& node, const Topology& topology) {
           return CheckNvlinkCountPerGpu(node, topology, context.profile);
         }),
         .not_applicable = ApplicableUnder(kNvlinkCountPerGpu)},
        {.name = kNicCountSpeedGdr,
         .requirement = "NCCL sees infiniband.rail_nics_per_node NICs at the profile's rate, with GPUDirect RDMA",
         .per_node = true,
         .judge = JudgeTopology([](const SuiteContext& context, const std::string& node, const Topology& topology) {
           return CheckNicCountSpeedGdr(node, topology, context.profile);
         }),
         .not_applicable = ApplicableUnder(kNicCountSpeedGdr)},
        {.name = kGpuHasNicUnderPcieSwitch,
         .requirement = "every GPU has a NIC under its PCIe switch, on its NUMA node",
         .per_node = true,
         .judge = JudgeTopology([](const SuiteContext&, const std::string& node, const Topology& topology) {
           return CheckGpuHasNicUnderPcieSwitch(node, topology);
         }),
         .not_applicable = ApplicableUnder(kGpuHasNicUnderPcieSwitch)},
        {.name = kTopoFileMatchesNode,
         .requirement =
             "every PCI device of the NCCL_TOPO_FILE the environment sets exists on the node with the same class",
         .per_node = true,
         .judge = JudgeTopoFile},
    },
    .probes = {TopologyProbe(), nccl_topo::NcclTopoFile(), pci_devices::PciDevices()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nccl_topology
