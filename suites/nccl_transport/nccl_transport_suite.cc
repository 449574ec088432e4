// NcclTransport suite glue: each check judged from the run's NCCL log
// (probes/nccl_log/nccl_log_facts.h, parsed once per run and shared with AllreduceBandwidth),
// skipped before the log is read where the profile makes it inapplicable; the nccl-debug.log
// probe and the registration.
#include "harness/core/suite_registry.h"
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

using LogJudgement = CheckResult (*)(const NcclLog&, const Profile&);

// A check of the run's log. A log that could not be read is the check's error: with the probe's
// status as its code and how to provide a log where none was obtained, else "unparseable"
// quoting the parser.
CheckJudge JudgeLog(LogJudgement check) {
  return [check](const SuiteContext& context, const std::string&) {
    const Result<NcclLog>& log = ReadNcclLog(context.raw);
    if (log) return WithUnjudgedPartOfLog(check(*log, context.profile), *log);
    const RawOutput out = context.raw.ClusterOutput(DebugLogProbe().id);
    if (out.ok()) return Errored("unparseable", log.error());
    return Errored(ProbeStatusReason(out.status), out.detail + "; " + kHowToProvide);
  };
}

// Skips `check` before the log is read where the profile makes it inapplicable.
CheckApplicability ApplicableUnder(const char* check) {
  return [check](const SuiteContext& context, const std::string&) { return NotApplicable(check, context.profile); };
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "NCCL_DEBUG=INFO log: NET/IB with GPUDirect RDMA between nodes, NVLink inside, fabric interface, no errors",
    .checks = {
        {.name = kInterNodeChannelsUseProfileNetwork,
         .requirement = "every inter-node channel uses nccl.network (NET/IB), none NET/Socket",
         .judge = JudgeLog(CheckInterNodeChannelsUseProfileNetwork),
         .not_applicable = ApplicableUnder(kInterNodeChannelsUseProfileNetwork)},
        {.name = kNetIbDevicesMatchRails,
         .requirement = "NET/IB opened infiniband.rail_nics_per_node devices of infiniband.link_layer",
         .judge = JudgeLog(CheckNetIbDevicesMatchRails),
         .not_applicable = ApplicableUnder(kNetIbDevicesMatchRails)},
        {.name = kGpuDirectRdmaOnInterNodeChannels,
         .requirement = "every inter-node channel uses GPUDirect RDMA where the profile asks",
         .judge = JudgeLog(CheckGpuDirectRdmaOnInterNodeChannels),
         .not_applicable = ApplicableUnder(kGpuDirectRdmaOnInterNodeChannels)},
        {.name = kIntraNodeChannelsOverNvlink,
         .requirement = "intra-node channels use P2P or NVLS over NVLink, not SHM",
         .judge = JudgeLog(CheckIntraNodeChannelsOverNvlink),
         .not_applicable = ApplicableUnder(kIntraNodeChannelsOverNvlink)},
        {.name = kSocketInterfaceIsFabric,
         .requirement = "NCCL's socket interface is nccl.socket_ifname, never a forbidden one",
         .judge = JudgeLog(CheckSocketInterfaceIsFabric),
         .not_applicable = ApplicableUnder(kSocketInterfaceIsFabric)},
        {.name = kEnvironmentAudit,
         .requirement = "no NCCL_* setting defeats the profile's fabric (NCCL_IB_DISABLE, NCCL_P2P_DISABLE, ...)",
         .judge = JudgeLog(CheckEnvironmentAudit),
         .not_applicable = ApplicableUnder(kEnvironmentAudit)},
        {.name = kNoNcclErrors,
         .requirement = "no NCCL WARN, ncclRemoteError, timeout or crash in the log",
         .judge = JudgeLog([](const NcclLog& log, const Profile&) { return CheckNoNcclErrors(log); }),
         .not_applicable = ApplicableUnder(kNoNcclErrors)},
    },
    .probes = {DebugLogProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nccl_transport
