// The run's NCCL_DEBUG=INFO log, and facts derived from it that more than one suite reads:
// which channels crossed nodes, how the inter-node traffic ran, and the likely fix when it ran
// on the wrong network (NcclTransport judges it; AllreduceBandwidth cites it when a floor
// fails). Pure: the run's raw outputs, or a parsed log and the profile, in.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/profile.h"
#include "harness/util/result.h"
#include "probes/nccl_log/nccl_log_parse.h"

namespace gpuconform::nccl_log {

// The run's log (cluster/nccl-debug.log, DebugLogProbe), parsed once per run however many
// suites read it. An error is the probe's own detail where the log was not obtained (the
// probe's RawOutput says how), else the parser's error naming origin and line.
const Result<NcclLog>& ReadNcclLog(const ClusterRaw& raw);
// How many logs ReadNcclLog has parsed in this process (for tests: one per run's log).
int NcclLogParseCount();

std::string HostOr(const std::string& host);  // the host, or "(host not in the line)"
std::string LineText(const Source& source);    // "line 12"
bool IsInterNode(const NcclLog& log, const Channel& channel);
int PrintingRank(const Channel& channel);  // the rank that printed the channel line
// NET and CollNet channels between ranks on different hosts (or hosts the log does not say).
std::vector<const Channel*> InterNodeNetChannels(const NcclLog& log);
// Why NCCL ran on TCP sockets, and what to check.
std::string SocketFallbackCause(const NcclLog& log);
// The likely cause and fix when NCCL used `observed` instead of the `expected` network.
std::string NetworkFix(const NcclLog& log, const std::string& expected, const std::string& observed);

// What the log says about the network between nodes, for a diagnosis in another suite (an
// AllreduceBandwidth floor that failed): how the inter-node channels ran (or, without
// channel lines, the network NCCL said it used), one line of the log as evidence, and what
// to do. kUnknown when the log does not say.
struct InterNodeTransport {
  enum class Kind { kUnknown, kAsProfiled, kSocket, kOtherNetwork };
  Kind kind = Kind::kUnknown;
  std::string evidence;  // "NCCL log: NET/Socket on eth0 for channel 00/0 (rank 0, node1, line 12)"
  std::string fix;       // the likely cause and what to change
};
InterNodeTransport SummarizeInterNodeTransport(const NcclLog& log, const Profile& profile);

}  // namespace gpuconform::nccl_log
