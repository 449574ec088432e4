#include "facts/ib_port_facts.h"

#include <algorithm>
#include <map>

#include "harness/core/fact_reading.h"
#include "probes/ibverbs/ibverbs_parse.h"
#include "probes/ibverbs/ibverbs_probe.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::facts {

using namespace gpuconform::ibverbs;
using namespace gpuconform::nvidia_smi;

namespace {

// Both walk every HCA through sysfs/verbs: seconds on a healthy node.
constexpr int kIbToolTimeoutMs = 30000;

const ProbeSpec& IbstatProbe() {
  static const ProbeSpec kSpec = TalksToDevices(
      CommandProbe("ibstat", ProbeScope::kNode, "ibstat.txt", {"ibstat"}, kIbToolTimeoutMs), kInfinibandDriverLoaded);
  return kSpec;
}
const ProbeSpec& IbvDevinfoProbe() {
  static const ProbeSpec kSpec = TalksToDevices(
      CommandProbe("ibv_devinfo", ProbeScope::kNode, "ibv_devinfo.txt", {"ibv_devinfo", "-v"}, kIbToolTimeoutMs),
      kInfinibandDriverLoaded);
  return kSpec;
}

bool Unavailable(const RawOutput& out) {
  return out.status == ProbeStatus::kAbsent || out.status == ProbeStatus::kToolMissing;
}

Result<IbPortReport> FromIbverbs(const RawOutput& out, const std::string& node) {
  auto report = ParseIbverbs(out.text, OriginOf(out, node, IbverbsProbe()));
  if (!report) return report;
  if (report->ports.empty()) {
    return Error{node + ": no RDMA device: libibverbs loads but finds no HCA" +
                 (report->tool_error.empty() ? "" : " it can open (" + report->tool_error + ")") +
                 " (no InfiniBand/RoCE adapter, its driver (mlx5_core, mlx5_ib) is not loaded, or /dev/infiniband "
                 "is not visible in this container); see `dmesg | grep mlx5` and `lspci | grep Mellanox`"};
  }
  return report;
}

// An ibstat that exited non-zero after listing ports (ibpanic on one device) is still read, and
// its failure travels with the ports so that a check cannot call the node clean.
Result<IbPortReport> ParsePorts(const ClusterRaw& raw, const std::string& node) {
  const RawOutput ibstat = raw.NodeOutput(node, IbstatProbe().id);
  if (Unavailable(ibstat)) {
    const RawOutput verbs = raw.NodeOutput(node, IbverbsProbe().id);
    if (verbs.ok()) return FromIbverbs(verbs, node);
  }
  const RawOutput devinfo = raw.NodeOutput(node, IbvDevinfoProbe().id);
  const bool use_devinfo = Unavailable(ibstat) && devinfo.ok();
  const RawOutput& out = use_devinfo ? devinfo : ibstat;
  const ProbeSpec& spec = use_devinfo ? IbvDevinfoProbe() : IbstatProbe();
  const std::string origin = OriginOf(out, node, spec);
  if (out.status == ProbeStatus::kFailed && !out.text.empty()) {
    auto report = ParseIbPorts(out.text, origin);
    if (report && !report->ports.empty()) {
      if (report.value().tool_error.empty()) report.value().tool_error = out.detail;
      return report;
    }
  }
  auto text = UsableText(out, node, spec.file,
                         "no InfiniBand diagnostics on the node (ibstat from infiniband-diags and "
                         "ibv_devinfo from rdma-core are not installed)");
  if (!text) return Error{text.error()};
  return ParseIbPorts(*text, origin);
}

}  // namespace

std::vector<ProbeSpec> PortProbes() { return {IbstatProbe(), IbverbsProbe(), IbvDevinfoProbe()}; }

const Result<IbPortReport>& ReadPorts(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<IbPortReport>>("ib-ports", node, [&] { return ParsePorts(raw, node); });
}

std::vector<const IbPort*> RailPorts(const IbPortReport& report, const InfinibandExpectation& expected) {
  std::vector<const IbPort*> rails;
  for (const auto& port : report.ports) {
    if (port.link_layer == expected.link_layer) rails.push_back(&port);
  }
  if (expected.link_layer != "Ethernet" || static_cast<int>(rails.size()) <= expected.rail_nics_per_node) return rails;
  std::map<std::string, int> per_type;
  for (const auto* port : rails) ++per_type[port->ca_type];
  const auto most = std::max_element(per_type.begin(), per_type.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most->first.empty()) return rails;
  std::vector<const IbPort*> same_model;
  for (const auto* port : rails) {
    if (port->ca_type == most->first) same_model.push_back(port);
  }
  return same_model;
}

}  // namespace gpuconform::facts
