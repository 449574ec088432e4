// NcclTopology suite glue: the nccl-topo.xml probe, the NCCL_TOPO_FILE and PCI device
// probes (from the catalog), and the suite's registration.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/gather.h"
#include "harness/probe_catalog.h"
#include "harness/suite_registry.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "suites/nccl_topology/nccl_topology_checks.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "suites/nccl_topology/topo_file_checks.h"

namespace gpuconform::nccl_topology {

using namespace gpuconform::nccl_run;
using namespace gpuconform::nccl_topo;

namespace {

constexpr char kHowToProduce[] =
    "gpuconform's own NCCL run dumps it where NCCL and GPUs exist; otherwise run any NCCL job on the node with NCCL_TOPO_DUMP_FILE=<file> and run gpuconform with the same "
    "NCCL_TOPO_DUMP_FILE (or NCCL_TOPO_FILE for a static file NCCL is given), or replay a snapshot holding "
    "nodes/<host>/nccl-topo.xml";

// Live: the topology NCCL dumped in gpuconform's own NCCL run; where that did not run, the
// file the environment names. Each rank reads its own node's file; the harness keeps the
// lowest rank's answer per node.
RawOutput ReadTopology(const CollectiveContext& context) {
  const RawOutput& dumped = nccl_run::SharedNcclRun(context).topology;
  if (dumped.ok()) return dumped;
  RawOutput out;
  const std::pair<const char*, const std::string*> named[] = {
      {"NCCL_TOPO_DUMP_FILE", &context.options.nccl_topo_dump_file}, {"NCCL_TOPO_FILE", &context.options.nccl_topo_file}};
  for (const auto& [name, configured] : named) {
    const std::string& path = *configured;
    if (path.empty()) continue;
    out.origin = context.host + ":" + path + " (" + name + ")";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      out.status = ProbeStatus::kToolMissing;
      out.detail = context.host + ": " + name + "=" + path + " but the file cannot be read; " + kHowToProduce;
      return out;
    }
    std::ostringstream text;
    text << in.rdbuf();
    out.text = text.str();
    out.status = ProbeStatus::kOk;
    return out;
  }
  out = dumped;
  out.detail += "; neither NCCL_TOPO_DUMP_FILE nor NCCL_TOPO_FILE names an earlier dump; " + std::string(kHowToProduce);
  return out;
}

ProbeSpec TopologyProbe() {
  ProbeSpec spec;
  spec.id = "nccl-topo";
  spec.file = "nccl-topo.xml";
  spec.scope = ProbeScope::kNode;
  spec.method = ProbeMethod::kCollective;
  spec.collective = ReadTopology;
  return spec;
}

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
    results.push_back(JudgeTopoFile(node, context.raw.NodeOutput(node, probes::NcclTopoFile().id),
                                    context.raw.NodeOutput(node, probes::PciDevices().id)));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "NCCL's topology (NCCL_TOPO_DUMP_FILE) matches the profile: GPUs, NVLinks, NICs, GPU-NIC affinity";
  suite.checks = {
      {kGpuCount, "NCCL sees gpu.count_per_node GPUs on every node", true},
      {kNvlinkCountPerGpu, "every GPU has nvlink.links_per_gpu NVLinks to NVSwitches", true},
      {kNicCountSpeedGdr, "NCCL sees infiniband.rail_nics_per_node NICs at the profile's rate, with GPUDirect RDMA",
       true},
      {kGpuHasNicUnderPcieSwitch, "every GPU has a NIC under its PCIe switch, on its NUMA node", true},
      {kTopoFileMatchesNode,
       "every PCI device of the NCCL_TOPO_FILE the environment sets exists on the node with the same class", true},
  };
  suite.probes = {TopologyProbe(), probes::NcclTopoFile(), probes::PciDevices()};
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nccl_topology
