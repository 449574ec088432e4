// Munge suite checks. Slurm authenticates every message with a MUNGE credential, so a node
// whose key differs, whose munged is down, or whose clock is off by more than the
// credential TTL silently drops out of the cluster (never registers, or fails job launch).
// Pure: parsed probe outputs (or the reason there are none) + profile in, CheckResult out.
// A Result holding an error means the fact could not be obtained: its message, which names
// node and file, becomes an <error>. Every message names the node first and says the fix.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "harness/profile.h"
#include "harness/verdict.h"
#include "probes/munge/munge_parse.h"

namespace gpuconform::munge {

inline constexpr char kSuite[] = "Munge";

// Why the profile makes the Munge checks not apply, or nullopt when they apply.
std::optional<std::string> NotApplicable(const Profile& profile);

// Cluster case: every node decodes every other node's credential (the N×N matrix, one
// report per decoding node). Names the odd node(s) out and the likely cause.
inline constexpr char kCredentialsDecodeAcrossNodes[] = "CredentialsDecodeAcrossNodes";
CheckResult CheckCredentialsDecodeAcrossNodes(const std::map<std::string, Result<DecodeReport>>& reports,
                                              const Profile& profile);

// Cluster case: the keyed digests of the key (one shared nonce) are equal on every node.
// Messages show at most an 8-hex-digit prefix of a digest, never the key.
inline constexpr char kKeyIdenticalOnAllNodes[] = "KeyIdenticalOnAllNodes";
CheckResult CheckKeyIdenticalOnAllNodes(const std::map<std::string, Result<KeyDigest>>& digests,
                                        const Profile& profile);

// Per node: the key is not readable or writable by group or others, and belongs to munge or root.
inline constexpr char kKeyFileProtected[] = "KeyFileProtected";
CheckResult CheckKeyFileProtected(const std::string& node, const Result<KeyStat>& stat, const Profile& profile);

// Per node: munge -n encodes through the local munged and the node decodes its own credential.
inline constexpr char kDaemonReachable[] = "DaemonReachable";
CheckResult CheckDaemonReachable(const std::string& node, const Result<DecodeReport>& report, const Profile& profile);

// Cluster case: max − min of the nodes' CLOCK_REALTIME readings, taken together after a
// barrier, is within profile.munge->max_clock_skew_s.
inline constexpr char kClockSkewWithinTtl[] = "ClockSkewWithinTtl";
CheckResult CheckClockSkewWithinTtl(const std::map<std::string, Result<long long>>& epoch_ns, const Profile& profile);

}  // namespace gpuconform::munge
