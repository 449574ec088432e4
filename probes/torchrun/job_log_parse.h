// The parser of a training job's own output (snapshot file cluster/job.log: what `srun torchrun
// ...` printed, both streams, with or without srun -l task prefixes) into a diagnosis of its
// launch: the launch failures it shows, each named by a reason code with the node, the quoted
// line and the fix; whether the launch visibly completed; and the benign lines it tolerated.
// Pure. It recognises failure classes, not one log: the rendezvous port in use, the rendezvous
// endpoint unreachable or unresolvable, NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME naming an
// interface the node lacks, node_rank taken from SLURM_PROCID, the standalone deepspeed
// launcher under srun, and torchrun itself crashing. What follows from a cause (NCCL errors,
// ChildFailedError, the srun exit lines) is not a second cause. Lines it does not recognise
// are ignored, so any byte string is harmless: the result is an error only for an empty or
// binary input, and otherwise a diagnosis that may show neither failure nor completion.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::torchrun {

// The reason codes the diagnosis uses (harness/core/reason_catalogue.h).
inline constexpr char kPortInUse[] = "rendezvous-port-in-use";
inline constexpr char kRendezvousUnreachable[] = "rendezvous-unreachable";
inline constexpr char kMasterAddrUnresolvable[] = "master-addr-unresolvable";
inline constexpr char kSocketIfnameMissing[] = "socket-ifname-not-on-node";
inline constexpr char kNodeRankFromProcid[] = "node-rank-from-procid";
inline constexpr char kDeepspeedUnderSrun[] = "deepspeed-launcher-under-srun";
inline constexpr char kTorchrunCrashed[] = "torchrun-crashed";

struct LaunchFailure {
  std::string code;      // a reason code from the catalogue (the constants above)
  std::string node;      // the host the failure happened on, "" when the log does not say
  std::string detail;    // what happened, e.g. "the rendezvous port 29601 is already in use on HOST-10-140-60-1
                         // (7 of 8 launchers failed to listen)"
  std::string fix;       // what to change, specific to what the log shows
  std::string evidence;  // the log line quoted (trimmed, at most ~200 chars)
  int line = 0;          // 1-based line of the evidence
};

struct JobLogDiagnosis {
  std::vector<LaunchFailure> failures;  // root causes, first seen first; a consequence is not a second cause
  bool launch_completed = false;        // the launch visibly finished (a torchrun agent SUCCEEDED, none failed)
  int agents_succeeded = 0;
  std::vector<std::string> notes;  // benign lines recognised and tolerated ("line 2: ..."), for messages
  // The last line that looks like an error (an exception, "error:", "failed"), for the message of
  // a diagnosis that shows neither a recognised failure nor completion; line 0 when none.
  std::string last_error;
  int last_error_line = 0;
};

// `origin` names the log in errors ("cluster/job.log").
Result<JobLogDiagnosis> ParseJobLog(const std::string& text, const std::string& origin);

}  // namespace gpuconform::torchrun
