// InfiniBand suite glue: the probes, the choice of port listing per node, and the registration.
#include "harness/probe_catalog.h"
#include "harness/suite_registry.h"
#include "suites/infiniband/infiniband_checks.h"
#include "suites/infiniband/infiniband_parse.h"
#include "suites/nvswitch/nvswitch_parse.h"

namespace gpuconform::infiniband {

namespace {

// Both walk every HCA through sysfs/verbs: seconds on a healthy node.
constexpr int kIbToolTimeoutMs = 30000;

const ProbeSpec& IbstatProbe() {
  static const ProbeSpec kSpec = CommandProbe("ibstat", ProbeScope::kNode, "ibstat.txt", {"ibstat"}, kIbToolTimeoutMs);
  return kSpec;
}
const ProbeSpec& IbvDevinfoProbe() {
  static const ProbeSpec kSpec = CommandProbe("ibv_devinfo", ProbeScope::kNode, "ibv_devinfo.txt", {"ibv_devinfo", "-v"}, kIbToolTimeoutMs);
  return kSpec;
}

bool Unavailable(const RawOutput& out) {
  return out.status == ProbeStatus::kAbsent || out.status == ProbeStatus::kToolMissing;
}

// ibstat is the listing of record; ibv_devinfo -v stands in where ibstat is not there. An
// ibstat that exited non-zero after listing ports (ibpanic on one device) is still read, and
// its failure travels with the ports so that a check cannot call the node clean.
Result<IbPortReport> ReadPorts(const SuiteContext& context, const std::string& node) {
  const RawOutput ibstat = context.raw.NodeOutput(node, IbstatProbe().id);
  const RawOutput devinfo = context.raw.NodeOutput(node, IbvDevinfoProbe().id);
  const bool use_devinfo = Unavailable(ibstat) && devinfo.ok();
  const RawOutput& out = use_devinfo ? devinfo : ibstat;
  const ProbeSpec& spec = use_devinfo ? IbvDevinfoProbe() : IbstatProbe();
  const std::string origin = out.origin.empty() ? node + "/" + spec.file : out.origin;
  if (out.status == ProbeStatus::kFailed && !out.text.empty()) {
    auto report = ParseIbPorts(out.text, origin);
    if (report && !report->ports.empty()) {
      if (report.value().tool_error.empty()) report.value().tool_error = out.detail;
      return report;
    }
  }
  auto text = nvswitch::UsableText(out, node, spec.file,
                                   "no InfiniBand diagnostics on the node (ibstat from infiniband-diags and "
                                   "ibv_devinfo from rdma-core are not installed)");
  if (!text) return Error{text.error()};
  return ParseIbPorts(*text, origin);
}

Result<nvswitch::TopoMatrix> ReadTopology(const SuiteContext& context, const std::string& node) {
  const ProbeSpec spec = probes::NvidiaSmiTopoMatrix();
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  auto text = nvswitch::UsableText(out, node, spec.file,
                                   "no NVIDIA driver was found on the node (nvidia-smi not installed)");
  if (!text) return Error{text.error()};
  return nvswitch::ParseTopoMatrix(*text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& node : context.raw.nodes) {
    const auto ports = ReadPorts(context, node);
    results.push_back(CheckRailNicsPresent(node, ports, context.profile));
    results.push_back(CheckPortsActiveAtRate(node, ports, context.profile));
    results.push_back(CheckGpuHasLocalRailNic(node, ReadTopology(context, node), ports, context.profile));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "rail NICs present, every rail port Active/LinkUp at the profile's rate, a rail NIC beside each GPU";
  suite.checks = {
      {kRailNicsPresent, "the node has infiniband.rail_nics_per_node ports of the profile's link layer", true},
      {kPortsActiveAtRate, "every rail port is Active / LinkUp at infiniband.rate_gbit_per_s", true},
      {kGpuHasLocalRailNic, "every GPU has a rail NIC at PIX/PXB (where infiniband.gpu_local_nic_required)", true},
  };
  suite.probes = {IbstatProbe(), IbvDevinfoProbe(), probes::NvidiaSmiTopoMatrix()};
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::infiniband
