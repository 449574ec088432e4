// NcclTransport suite glue: the run's NCCL log (probes/nccl_log/nccl_log_facts.h, parsed once
// per run and shared with AllreduceBandwidth), the nccl-debug.log probe and the registration.
#include "harness/suite_registry.h"
#include "probes/nccl_log/nccl_debug_log_probe.h"
#include "probes/nccl_log/nccl_log_facts.h"
#include "suites/nccl_transport/nccl_transport_checks.h"

namespace gpuconform::nccl_transport {

using namespace gpuconform::nccl_log;

namespace {

constexpr char kHowToProvide[] =
    "gpuconform's own NCCL run makes it where NCCL and GPUs exist; otherwise run an NCCL job (e.g. nccl-tests all_reduce_perf) across at least two nodes with NCCL_DEBUG=INFO "
    "NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV, save all ranks' output to one file and set GPUCONFORM_NCCL_LOG=<file>, or "
    "replay a snapshot holding cluster/nccl-debug.log";

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  const Result<NcclLog>& log = ReadNcclLog(context.raw);
  if (log) return JudgeLog(*log, context.profile);
  const RawOutput out = context.raw.ClusterOutput(DebugLogProbe().id);
  if (out.ok()) return LogUnavailable("unparseable", log.error(), context.profile);
  return LogUnavailable(ProbeStatusReason(out.status), out.detail + "; " + kHowToProvide, context.profile);
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "NCCL_DEBUG=INFO log: NET/IB with GPUDirect RDMA between nodes, NVLink inside, fabric interface, no errors",
    .checks = {
        {kInterNodeChannelsUseProfileNetwork,
         "every inter-node channel uses nccl.network (NET/IB), none NET/Socket", false},
        {kNetIbDevicesMatchRails,
         "NET/IB opened infiniband.rail_nics_per_node devices of infiniband.link_layer", false},
        {kGpuDirectRdmaOnInterNodeChannels,
         "every inter-node channel uses GPUDirect RDMA where the profile asks", false},
        {kIntraNodeChannelsOverNvlink, "intra-node channels use P2P or NVLS over NVLink, not SHM", false},
        {kSocketInterfaceIsFabric, "NCCL's socket interface is nccl.socket_ifname, never a forbidden one", false},
        {kEnvironmentAudit, "no NCCL_* setting defeats the profile's fabric (NCCL_IB_DISABLE, NCCL_P2P_DISABLE, ...)",
         false},
        {kNoNcclErrors, "no NCCL WARN, ncclRemoteError, timeout or crash in the log", false},
    },
    .probes = {DebugLogProbe()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nccl_transport
