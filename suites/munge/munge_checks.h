// Munge suite checks. Slurm authenticates every message with a MUNGE credential, so a node
// whose key differs, whose munged is down, or whose clock is off by more than the
// credential TTL silently drops out of the cluster (never registers, or fails job launch).
// Pure: facts already read (probes/munge/munge_facts.h) + profile in, a judgement out; the
// harness names the case. A per-node check sees only its node's fact (the suite's glue errs,
// code unparseable, where it could not be read); a cluster check gets every node's fact in
// NodeFacts, and its unread nodes (their messages name node and file) are errors of its own.
// The profile's skips (NotApplicable, ClockSkewNotApplicable) come first, before any read.
// Every message names the node first and says the fix.
#pragma once

#include <optional>
#include <string>

#include "harness/core/node_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/munge/munge_parse.h"
#include "suites/munge/munge_profile.h"

namespace gpuconform::munge {

inline constexpr char kSuite[] = "Munge";

// Why the profile makes the Munge checks not apply, or nullopt when they apply.
std::optional<std::string> NotApplicable(const Profile& profile);
// ClockSkewWithinTtl's: NotApplicable's, or the profile sets no munge.max_clock_skew_s.
std::optional<std::string> ClockSkewNotApplicable(const Profile& profile);

// Cluster case: every node decodes every other node's credential (the N×N matrix, one
// report per decoding node). Names the odd node(s) out and the likely cause.
GPUCONFORM_CHECK_NAME(CredentialsDecodeAcrossNodes);
CheckResult CheckCredentialsDecodeAcrossNodes(const NodeFacts<DecodeReport>& reports);

// Cluster case: the keyed digests of the key (one shared nonce) are equal on every node.
// Messages show at most an 8-hex-digit prefix of a digest, never the key.
GPUCONFORM_CHECK_NAME(KeyIdenticalOnAllNodes);
CheckResult CheckKeyIdenticalOnAllNodes(const NodeFacts<KeyDigest>& digests);

// Per node: the key is not readable or writable by group or others, and belongs to munge or root.
GPUCONFORM_CHECK_NAME(KeyFileProtected);
CheckResult CheckKeyFileProtected(const std::string& node, const KeyStat& stat);

// Per node: munge -n encodes through the local munged and the node decodes its own credential.
GPUCONFORM_CHECK_NAME(DaemonReachable);
CheckResult CheckDaemonReachable(const std::string& node, const DecodeReport& report);

// Cluster case: max − min of the nodes' CLOCK_REALTIME readings, taken together after a
// barrier, is within the profile's munge.max_clock_skew_s (which ClockSkewNotApplicable has found set).
GPUCONFORM_CHECK_NAME(ClockSkewWithinTtl);
CheckResult CheckClockSkewWithinTtl(const NodeFacts<long long>& epoch_ns, const Profile& profile);

}  // namespace gpuconform::munge
