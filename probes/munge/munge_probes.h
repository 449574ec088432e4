// Live probes of the Munge suite: the only code in suites/munge that does I/O.
// Contract: the collective ones (gather.h) are called by every rank in the same order and
// make the same World calls on every rank whatever happens locally (a failure is a
// RawOutput, never an early return before a collective); the node owner's answer is kept,
// other ranks return an empty RawOutput. The stat probe is in-process (kBuiltin). The MUNGE key never leaves the node and is
// never written into any output: only HMAC-SHA256(key, a per-run nonce) is.
// External commands go through RunCommand with a deadline.
#pragma once

#include <string>
#include <string_view>

#include "harness/core/live_source.h"
#include "harness/core/probe.h"
#include "harness/world/gather.h"
#include "probes/munge/munge_parse.h"

namespace gpuconform::munge {

inline constexpr int kMungeCommandTimeoutMs = 5000;

// The Munge suite's probe specs, one per file (munge_facts.h reads their outputs).
const ProbeSpec& KeyDigestProbe();   // munge-key.digest (collective)
const ProbeSpec& KeyStatProbe();     // munge-key-stat.txt (node, in-process)
const ProbeSpec& CrossDecodeProbe();  // munge-decode.txt (collective)
const ProbeSpec& ClockProbe();       // clock.txt (collective)

// munge-key.digest: rank 0's random nonce, shared with every rank; each node owner outputs
// "nonce <hex>\nhmac-sha256 <hex>\n" for its key file.
RawOutput ProbeKeyDigest(const CollectiveContext& context);

// munge-key-stat.txt: stat(2) of the key file (path, owner, group, mode, size_bytes).
RawOutput ProbeKeyStat(const LiveContext& context);

// munge-decode.txt: munge -n on each node, credentials exchanged with AllGather, and each
// node owner's unmunge of every node's credential (its own included).
RawOutput ProbeCrossDecode(const CollectiveContext& context);

// clock.txt: "epoch_ns <n>", read by every rank right after a barrier.
RawOutput ProbeClock(const CollectiveContext& context);

// Socket and key paths of this node, from the options' munge_socket and munge_key
// (GPUCONFORM_MUNGE_SOCKET, GPUCONFORM_MUNGE_KEY), and AuthInfo in the slurm.conf at
// slurm_conf ($SLURM_CONF, else /etc/slurm/slurm.conf).
MungePaths CurrentMungePaths(const RunOptions& options);

// Lowercase hex of HMAC-SHA256(key, message). Pure; here because only the digest probe needs it.
std::string HmacSha256Hex(std::string_view key, std::string_view message);

}  // namespace gpuconform::munge
