// InfiniBand suite glue: the checks, judged per node from the port facts
// (facts/ib_port_facts.h) and the topology matrix (facts/gpu_facts.h), each read before the
// check and skipped before any read where the profile makes the check inapplicable; and the
// registration.
#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/gpudirect/gpudirect_facts.h"
#include "probes/gpudirect/gpudirect_probe.h"
#include "probes/ib_counters/ib_counters_facts.h"
#include "probes/ib_counters/ib_counters_probe.h"
#include "probes/nccl_log/nccl_log_facts.h"
#include "suites/infiniband/gpudirect_checks.h"
#include "suites/infiniband/infiniband_checks.h"

namespace gpuconform::infiniband {

using namespace gpuconform::facts;

namespace {

std::optional<std::string> WithoutInfiniband(const SuiteContext& context, const std::string&) {
  return InfinibandSkipReason(context.profile);
}

// RailNicsPresent: where the port listing could not be read, the count of NICs in the topology
// matrix still decides.
CheckResult JudgeRailNics(const SuiteContext& context, const std::string& node) {
  const auto& ports = ReadPorts(context.raw, node);
  if (ports) return CheckRailNicsPresent(node, *ports, context.profile);
  const auto& matrix = ReadTopoMatrix(context.raw, node);
  const std::optional<int> topo_nics =
      matrix ? std::optional<int>(static_cast<int>(matrix->nics.size())) : std::nullopt;
  return CheckRailNicsWithoutPortListing(node, ports.error(), context.profile, topo_nics);
}

const Result<IbPortReport>& Ports(const SuiteContext& context, const std::string& node) {
  return ReadPorts(context.raw, node);
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "rail NICs present, every rail port Active/LinkUp at the profile's rate, a rail NIC beside each GPU, "
               "port error counters within limits, GPUDirect RDMA available",
    .checks = {
        {.name = kRailNicsPresent,
         .requirement = "the node has infiniband.rail_nics_per_node ports of the profile's link layer",
         .per_node = true,
         .judge = JudgeRailNics,
         .not_applicable = WithoutInfiniband},
        {.name = kPortsActiveAtRate,
         .requirement = "every rail port is Active / LinkUp at infiniband.rate_gbit_per_s",
         .per_node = true,
         .judge = ReadThenJudge(Ports,
                                [](const IbPortReport& ports, const SuiteContext& c, const std::string& node) {
                                  return CheckPortsActiveAtRate(node, ports, c.profile);
                                }),
         .not_applicable = WithoutInfiniband},
        // The port listing only narrows the NICs to the rails: one that cannot be read is no error here.
        {.name = kGpuHasLocalRailNic,
         .requirement = "every GPU has a rail NIC at PIX/PXB (where infiniband.gpu_local_nic_required)",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) { return ReadTopoMatrix(c.raw, node); },
             [](const TopoMatrix& matrix, const SuiteContext& c, const std::string& node) {
               const auto& ports = ReadPorts(c.raw, node);
               return CheckGpuHasLocalRailNic(node, matrix, ports ? &*ports : nullptr, c.profile);
             }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return GpuLocalNicSkipReason(c.profile); }},
        {.name = kPortErrorCountersWithinLimits,
         .requirement = "every RDMA port's error counters are within their limits (signal, link downs, discards; "
                        "saturated counters named)",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) {
               return ib_counters::ReadIbCounters(c.raw, node);
             },
             [](const ib_counters::CounterReport& report, const SuiteContext& c, const std::string& node) {
               return CheckPortErrorCounters(node, report, c.profile.link_counters, c.counter_history.Of(node));
             }),
         .not_applicable = WithoutInfiniband},
        // The NCCL log is read where the run has one (NcclTransport or AllreduceBandwidth collects
        // it, or --nccl-log names it); this check never starts an NCCL run for it.
        {.name = kGpuDirectRdmaAvailable,
         .requirement = "GPUDirect RDMA can work: a peer-memory module (nvidia_peermem) is loaded or DMA-BUF is "
                        "usable, and the run's NCCL log (where there is one) did not disable it",
         .per_node = true,
         .judge = ReadThenJudge(
             [](const SuiteContext& c, const std::string& node) -> decltype(auto) {
               return gpudirect::ReadGpuDirect(c.raw, node);
             },
             [](const gpudirect::GpuDirectReport& report, const SuiteContext& c, const std::string& node) {
               const auto& log = nccl_log::ReadNcclLog(c.raw);
               return CheckGpuDirectRdmaAvailable(node, report, log ? &*log : nullptr, log ? "" : log.error());
             }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return GpuDirectSkipReason(c.profile); }},
    },
    .probes = JoinProbes({PortProbes(), {NvidiaSmiTopoMatrix(), ib_counters::IbCountersProbe(),
                                         gpudirect::GpuDirectProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::infiniband
