// NcclTransport checks: did NCCL move the data where the profile says it must? NCCL falls
// back silently (InfiniBand -> TCP sockets on eth0, NVLink P2P -> host shared memory,
// GPUDirect RDMA -> bounce buffers) and collectives just run an order of magnitude slower.
// Pure: the run's NCCL_DEBUG=INFO log, already read (probes/nccl_log/nccl_log_facts.h), +
// profile in, one cluster-wide judgement per check out. A check is called only where the
// profile makes it apply (NotApplicable), and every judgement of the log carries what of the log
// went unjudged (WithUnjudgedPartOfLog). Every finding names host, rank and channel and the
// likely fix. An excerpt is judged on what it contains; a fact it lacks is an error saying what
// is missing, never a pass.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nccl_log/nccl_log_parse.h"

namespace gpuconform::nccl_transport {

using namespace gpuconform::nccl_log;

inline constexpr char kSuite[] = "NcclTransport";

// Why the profile makes `check` (one of the names below) not apply, or nullopt when it applies.
std::optional<std::string> NotApplicable(const std::string& check, const Profile& profile);

// Every inter-node channel runs over nccl.network (NET/IB for "IB"), none over NET/Socket.
GPUCONFORM_CHECK_NAME(InterNodeChannelsUseProfileNetwork);
CheckResult CheckInterNodeChannelsUseProfileNetwork(const NcclLog& log, const Profile& profile);
// NET/IB opened infiniband.rail_nics_per_node devices per host, all of infiniband.link_layer.
GPUCONFORM_CHECK_NAME(NetIbDevicesMatchRails);
CheckResult CheckNetIbDevicesMatchRails(const NcclLog& log, const Profile& profile);
// Every inter-node channel is GDRDMA where nccl.gpudirect_rdma; mixed channels are named.
GPUCONFORM_CHECK_NAME(GpuDirectRdmaOnInterNodeChannels);
CheckResult CheckGpuDirectRdmaOnInterNodeChannels(const NcclLog& log, const Profile& profile);
// Intra-node channels use P2P or NVLS (NVLink), never SHM or NET, where the profile has NVLink.
GPUCONFORM_CHECK_NAME(IntraNodeChannelsOverNvlink);
CheckResult CheckIntraNodeChannelsOverNvlink(const NcclLog& log, const Profile& profile);
// The socket interface NCCL used is nccl.socket_ifname and never one of nccl.forbidden_ifnames.
GPUCONFORM_CHECK_NAME(SocketInterfaceIsFabric);
CheckResult CheckSocketInterfaceIsFabric(const NcclLog& log, const Profile& profile);
// NCCL_* settings that defeat the profile's fabric (NCCL_IB_DISABLE=1, NCCL_NET=Socket, ...).
GPUCONFORM_CHECK_NAME(EnvironmentAudit);
CheckResult CheckEnvironmentAudit(const NcclLog& log, const Profile& profile);
// No NCCL WARN line and no NCCL error (ncclRemoteError, timeouts, crashes) in the log.
GPUCONFORM_CHECK_NAME(NoNcclErrors);
CheckResult CheckNoNcclErrors(const NcclLog& log);

// `judgement` of the log, noting what of the log it could not judge: facts dropped beyond the
// parser's caps, and a last line cut off (no final newline).
CheckResult WithUnjudgedPartOfLog(CheckResult judgement, const NcclLog& log);

}  // namespace gpuconform::nccl_transport
