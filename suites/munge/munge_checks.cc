#include "suites/munge/munge_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "harness/util/text_util.h"

namespace gpuconform::munge {

namespace {

constexpr char kKeyFix[] = "copy /etc/munge/munge.key from a good node (0400 munge:munge) and restart munged";
constexpr char kClockFix[] = "run chrony or NTP on every node";
constexpr std::size_t kDigestPrefixHexDigits = 8;

// Every node of the run, read or not, in order.
template <typename T>
std::vector<std::string> AllNodes(const NodeFacts<T>& facts) {
  std::set<std::string> nodes;
  for (const auto& [node, fact] : facts.read) nodes.insert(node);
  for (const auto& [node, problem] : facts.unread) nodes.insert(node);
  return {nodes.begin(), nodes.end()};
}

template <typename T>
std::size_t NodeCount(const NodeFacts<T>& facts) {
  return facts.read.size() + facts.unread.size();
}

template <typename T>
std::vector<std::pair<std::string, std::string>> Problems(const NodeFacts<T>& readings) {
  return {readings.unread.begin(), readings.unread.end()};
}

// An <error> carrying every unreadable node's reason, the first as the headline.
CheckResult ErroredWithAll(ReasonCode code, const std::vector<std::pair<std::string, std::string>>& problems) {
  CheckResult result = Errored(code, problems.front().second);
  for (std::size_t i = 1; i < problems.size(); ++i) result.findings.push_back({code, problems[i].first, problems[i].second});
  return result;
}

CheckResult WithMeasurements(CheckResult result, std::vector<Measurement> measurements) {
  result.measurements = std::move(measurements);
  return result;
}

CheckResult OnlyOneNode(const std::string& node, const std::string& what) {
  return Skipped("only one node (" + node + ") in this run; " + what + " needs at least two");
}

// Groups of nodes that share something (a key), and the group that most nodes are in.
// No unique largest group means there is no majority to call right.
struct Grouping {
  std::vector<std::vector<std::string>> groups;  // each sorted; groups in order of first node
  std::optional<std::size_t> majority;
};

Grouping MajorityOf(std::vector<std::vector<std::string>> groups) {
  Grouping grouping;
  for (auto& group : groups) std::sort(group.begin(), group.end());
  std::sort(groups.begin(), groups.end());
  grouping.groups = std::move(groups);
  std::size_t largest = 0;
  for (const auto& group : grouping.groups) largest = std::max(largest, group.size());
  for (std::size_t i = 0; i < grouping.groups.size(); ++i) {
    if (grouping.groups[i].size() != largest) continue;
    if (grouping.majority) {
      grouping.majority.reset();
      break;
    }
    grouping.majority = i;
  }
  return grouping;
}

std::string MungeFixFor(MungeFailure failure, const std::string& decoder, const std::string& encoder) {
  switch (failure) {
    case MungeFailure::kInvalidCredential:
      return decoder + " and " + encoder + " hold different MUNGE keys; make /etc/munge/munge.key identical on every "
                                           "node (0400 munge:munge) and restart munged";
    case MungeFailure::kExpiredCredential:
      return encoder + "'s clock is behind " + decoder + "'s by more than the credential TTL; " + kClockFix;
    case MungeFailure::kRewoundCredential:
      return encoder + "'s clock is ahead of " + decoder + "'s by more than the credential TTL; " + kClockFix;
    case MungeFailure::kReplayedCredential:
      return decoder + "'s munged had already seen this credential: do two nodes share one munged socket? check "
                       "AuthInfo=socket= and each node's munged";
    case MungeFailure::kUnauthorizedCredential:
      return "the credential is restricted to another user or group; check munged's options on " + encoder;
    case MungeFailure::kMalformedCredential:
      return "the credential arrived damaged or the munge versions differ; compare Software.MungeVersionIdentical";
    case MungeFailure::kSocketUnreachable:
    case MungeFailure::kDaemonFailed:
      break;
  }
  return "see munged.log on " + decoder;
}

// ---- CredentialsDecodeAcrossNodes ----

enum class PairOutcome { kDecoded, kRejected, kUntested };

struct DecodePair {
  std::string decoder;
  std::string encoder;
  DecodeAttempt attempt;
  PairOutcome outcome = PairOutcome::kUntested;
  MungeFailure failure = MungeFailure::kMalformedCredential;
  bool explained = false;  // covered by a node-level finding
};

PairOutcome OutcomeOf(const DecodeAttempt& attempt, MungeFailure failure) {
  if (attempt.exit_code == 0) return PairOutcome::kDecoded;
  // No credential, unmunge missing or timed out, or the decoder's own munged unreachable:
  // nothing was learnt about the pair (Munge.DaemonReachable reports the daemon).
  if (attempt.exit_code < 0 || failure == MungeFailure::kSocketUnreachable || attempt.exit_code == 1 ||
      attempt.exit_code == 5) {
    return PairOutcome::kUntested;
  }
  return PairOutcome::kRejected;
}

std::vector<DecodePair> CrossPairs(const NodeFacts<DecodeReport>& reports) {
  std::vector<DecodePair> pairs;
  const std::vector<std::string> nodes = AllNodes(reports);
  for (const auto& [decoder, report] : reports.read) {
    std::set<std::string> decoded;
    for (const auto& attempt : report.attempts) {
      if (attempt.from_node == decoder || !decoded.insert(attempt.from_node).second) continue;
      DecodePair pair{decoder, attempt.from_node, attempt};
      pair.failure = ClassifyMungeStatus(attempt.exit_code, attempt.status);
      pair.outcome = OutcomeOf(attempt, pair.failure);
      pairs.push_back(std::move(pair));
    }
    // A node of the run whose credential this node never tried leaves a hole in the matrix.
    for (const auto& encoder : nodes) {
      if (encoder == decoder || decoded.count(encoder)) continue;
      pairs.push_back({decoder, encoder, {encoder, "not decoded", -1, "no 'from " + encoder + ":' line"}});
    }
  }
  return pairs;
}

class UnionFind {
 public:
  std::string Find(const std::string& node) {
    auto it = parent_.emplace(node, node).first;
    if (it->second == node) return node;
    const std::string root = Find(it->second);
    parent_[node] = root;
    return root;
  }
  void Join(const std::string& a, const std::string& b) { parent_[Find(a)] = Find(b); }
  std::vector<std::vector<std::string>> Groups() {
    std::map<std::string, std::vector<std::string>> by_root;
    std::vector<std::string> nodes;
    for (const auto& [node, unused] : parent_) nodes.push_back(node);
    for (const auto& node : nodes) by_root[Find(node)].push_back(node);
    std::vector<std::vector<std::string>> groups;
    for (auto& [root, members] : by_root) groups.push_back(std::move(members));
    return groups;
  }

 private:
  std::map<std::string, std::string> parent_;
};

// Nodes that decode each other's credentials share a key; a decode in either direction proves it.
Grouping KeyGroups(const std::vector<DecodePair>& pairs) {
  UnionFind groups;
  for (const auto& pair : pairs) {
    if (pair.outcome == PairOutcome::kUntested) continue;
    groups.Find(pair.decoder);
    groups.Find(pair.encoder);
    if (pair.outcome == PairOutcome::kDecoded) groups.Join(pair.decoder, pair.encoder);
  }
  return MajorityOf(groups.Groups());
}

std::string MostCommonStatus(const std::vector<const DecodePair*>& rejections) {
  std::map<std::string, int> counts;
  for (const auto* pair : rejections) ++counts[pair->attempt.status];
  return std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

std::string OddNodeCause(const std::string& node, MungeFailure failure) {
  switch (failure) {
    case MungeFailure::kInvalidCredential: return node + " holds a different MUNGE key; " + kKeyFix;
    case MungeFailure::kExpiredCredential:
    case MungeFailure::kRewoundCredential:
      return node + "'s clock differs from theirs by more than the credential TTL; " + kClockFix +
             " (see Munge.ClockSkewWithinTtl)";
    default: break;
  }
  return MungeFixFor(failure, node, node);
}

// One finding for a node outside the majority key group, from its rejections with the majority.
std::optional<Finding> OddNodeFinding(const std::string& node, const std::set<std::string>& majority,
                                      std::vector<DecodePair>& pairs) {
  std::vector<std::string> inbound;   // majority nodes whose credentials `node` rejects
  std::vector<std::string> outbound;  // majority nodes that reject `node`'s credentials
  std::vector<const DecodePair*> rejections;
  for (auto& pair : pairs) {
    if (pair.outcome != PairOutcome::kRejected) continue;
    if (pair.decoder == node && majority.count(pair.encoder)) {
      inbound.push_back(pair.encoder);
    } else if (pair.encoder == node && majority.count(pair.decoder)) {
      outbound.push_back(pair.decoder);
    } else {
      continue;
    }
    pair.explained = true;
    rejections.push_back(&pair);
  }
  if (rejections.empty()) return std::nullopt;
  std::sort(inbound.begin(), inbound.end());
  std::sort(outbound.begin(), outbound.end());
  const std::string status = MostCommonStatus(rejections);
  const MungeFailure failure = ClassifyMungeStatus(-1, status);
  std::string message = node + ": ";
  if (!inbound.empty()) {
    message += "credentials from " + Join(inbound, ", ") + " are rejected with '" + status + "'";
    if (!outbound.empty()) message += " and " + node + "'s are rejected by " + (outbound == inbound ? "them" : Join(outbound, ", "));
  } else {
    message += node + "'s credentials are rejected by " + Join(outbound, ", ") + " with '" + status + "'";
  }
  const ReasonCode code = failure == MungeFailure::kInvalidCredential ? ReasonCode("key-differs")
                          : (failure == MungeFailure::kExpiredCredential || failure == MungeFailure::kRewoundCredential)
                              ? ReasonCode("clock-skew")
                              : ReasonCode("credential-rejected");
  return Finding{code, node, message + ": " + OddNodeCause(node, failure)};
}

Finding PairFinding(const DecodePair& pair, bool no_majority) {
  std::string message = pair.decoder + ": rejects the credential from " + pair.encoder + " with '" + pair.attempt.status +
                        "' (unmunge exit " + std::to_string(pair.attempt.exit_code) + "): " +
                        MungeFixFor(pair.failure, pair.decoder, pair.encoder);
  if (no_majority && pair.failure == MungeFailure::kInvalidCredential) {
    message += " (no majority of nodes shares one key, so gpuconform cannot tell which key is right)";
  }
  return {"credential-rejected", pair.decoder, message};
}

std::vector<Measurement> DecodeMeasurements(const std::vector<DecodePair>& pairs) {
  std::size_t decoded = 0;
  std::size_t rejected = 0;
  for (const auto& pair : pairs) {
    decoded += pair.outcome == PairOutcome::kDecoded;
    rejected += pair.outcome == PairOutcome::kRejected;
  }
  return {{"decode_pairs", std::to_string(pairs.size()), "pairs", "", ""},
          {"decode_pairs_succeeded", std::to_string(decoded), "pairs", "= decode_pairs", ""},
          {"decode_pairs_rejected", std::to_string(rejected), "pairs", "0", ""},
          {"decode_pairs_untested", std::to_string(pairs.size() - decoded - rejected), "pairs", "0", ""}};
}

// Nodes none of whose pairs could be tested: named beside a failure, so that a reader sees
// why they are missing from it (and why a majority may be lacking).
std::vector<Finding> UntestedNodeNotes(const NodeFacts<DecodeReport>& reports, const std::vector<DecodePair>& pairs) {
  std::set<std::string> judged;
  for (const auto& pair : pairs) {
    if (pair.outcome == PairOutcome::kUntested) continue;
    judged.insert(pair.decoder);
    judged.insert(pair.encoder);
  }
  std::vector<Finding> notes;
  for (const auto& node : AllNodes(reports)) {
    if (judged.count(node)) continue;
    notes.push_back({"untested", node,
                     node + ": no credential to or from " + node + " could be tested, so " + node +
                         " is not judged here; see Munge.DaemonReachable/" + node});
  }
  return notes;
}

CheckResult UntestedPairsError(const std::vector<DecodePair>& pairs) {
  std::vector<std::pair<std::string, std::string>> problems;
  for (const auto& pair : pairs) {
    if (pair.outcome != PairOutcome::kUntested) continue;
    problems.emplace_back(pair.decoder, pair.decoder + ": the credential from " + pair.encoder +
                                            " was not tested: " + pair.attempt.status +
                                            (pair.attempt.message.empty() ? "" : " (" + pair.attempt.message + ")"));
  }
  const std::string headline = std::to_string(problems.size()) + " of " + std::to_string(pairs.size()) +
                               " node pairs could not be tested, so key agreement is unknown (see "
                               "Munge.DaemonReachable); first: " + problems.front().second;
  problems.front().second = headline;
  return ErroredWithAll("untested", problems);
}

// ---- KeyIdenticalOnAllNodes ----

std::string DigestPrefix(const std::string& hex) { return hex.substr(0, kDigestPrefixHexDigits); }

std::string NonceMismatchMessage(const std::map<std::string, std::vector<std::string>>& nodes_by_nonce) {
  std::vector<std::string> parts;
  for (const auto& [nonce, nodes] : nodes_by_nonce) parts.push_back(Join(nodes, ", ") + " used nonce " + DigestPrefix(nonce));
  return "the key digests were computed with different nonces (" + Join(parts, "; ") +
         "), so they cannot be compared: capture every node in one gpuconform run";
}

// ---- ClockSkewWithinTtl ----

std::string Seconds(double seconds) { return fmt::format("{:.3f}", seconds); }

}  // namespace

std::optional<std::string> NotApplicable(const Profile& profile) {
  const MungeExpectation* munge = profile.Get<MungeExpectation>();
  if (!munge) {
    return "profile " + profile.name + " has no munge section, so it does not say whether MUNGE is expected";
  }
  if (!munge->present) return "profile " + profile.name + " says this cluster has no MUNGE (munge.present: false)";
  return std::nullopt;
}

std::optional<std::string> ClockSkewNotApplicable(const Profile& profile) {
  if (auto reason = NotApplicable(profile)) return reason;
  if (profile.Get<MungeExpectation>()->max_clock_skew_s <= 0) {
    return "profile " + profile.name + " sets no munge.max_clock_skew_s, so there is no limit to judge against";
  }
  return std::nullopt;
}

CheckResult CheckCredentialsDecodeAcrossNodes(const NodeFacts<DecodeReport>& reports) {
  if (NodeCount(reports) == 0) return Errored("no-nodes", "no node reported a munge-decode.txt");
  if (NodeCount(reports) == 1 && reports.read.size() == 1) {
    return OnlyOneNode(reports.read.begin()->first, "decoding across nodes");
  }
  std::vector<DecodePair> pairs = CrossPairs(reports);
  const auto measurements = DecodeMeasurements(pairs);
  const Grouping groups = KeyGroups(pairs);

  std::vector<Finding> findings;
  if (groups.majority && groups.groups.size() > 1) {
    const auto& majority_nodes = groups.groups[*groups.majority];
    const std::set<std::string> majority(majority_nodes.begin(), majority_nodes.end());
    for (std::size_t i = 0; i < groups.groups.size(); ++i) {
      if (i == *groups.majority) continue;
      for (const auto& node : groups.groups[i]) {
        if (auto finding = OddNodeFinding(node, majority, pairs)) findings.push_back(std::move(*finding));
      }
    }
  }
  for (const auto& pair : pairs) {
    if (pair.outcome == PairOutcome::kRejected && !pair.explained) findings.push_back(PairFinding(pair, !groups.majority));
  }
  if (!findings.empty()) {
    for (auto& note : UntestedNodeNotes(reports, pairs)) findings.push_back(std::move(note));
    return WithMeasurements(Failed(std::move(findings)), measurements);
  }
  if (auto problems = Problems(reports); !problems.empty()) {
    return WithMeasurements(ErroredWithAll("unparseable", problems), measurements);
  }
  const bool any_untested = std::any_of(pairs.begin(), pairs.end(), [](const DecodePair& p) {
    return p.outcome == PairOutcome::kUntested;
  });
  if (any_untested) return WithMeasurements(UntestedPairsError(pairs), measurements);
  return WithMeasurements(Passed(), measurements);
}

CheckResult CheckKeyIdenticalOnAllNodes(const NodeFacts<KeyDigest>& digests) {
  if (NodeCount(digests) == 0) return Errored("no-nodes", "no node reported a munge-key.digest");
  const auto problems = Problems(digests);
  std::vector<Measurement> measurements;
  std::map<std::string, std::vector<std::string>> nodes_by_nonce;
  std::map<std::string, std::vector<std::string>> nodes_by_digest;
  for (const auto& [node, digest] : digests.read) {
    measurements.push_back({node + ".key_digest_prefix", DigestPrefix(digest.hmac_hex), "", "", ""});
    nodes_by_nonce[digest.nonce_hex].push_back(node);
    nodes_by_digest[digest.hmac_hex].push_back(node);
  }
  if (nodes_by_digest.empty()) return ErroredWithAll("unparseable", problems);
  if (nodes_by_nonce.size() > 1) {
    return WithMeasurements(Errored("nonce-mismatch", NonceMismatchMessage(nodes_by_nonce)), measurements);
  }
  if (NodeCount(digests) == 1) return OnlyOneNode(digests.read.begin()->first, "comparing keys");
  measurements.push_back({"distinct_keys", std::to_string(nodes_by_digest.size()), "keys", "1", ""});

  std::vector<std::vector<std::string>> groups;
  std::map<std::string, std::string> digest_of;
  for (const auto& [digest, nodes] : nodes_by_digest) {
    groups.push_back(nodes);
    for (const auto& node : nodes) digest_of[node] = digest;
  }
  const Grouping grouping = MajorityOf(groups);
  std::vector<Finding> findings;
  for (std::size_t i = 0; i < grouping.groups.size() && grouping.groups.size() > 1; ++i) {
    if (grouping.majority && i == *grouping.majority) continue;
    for (const auto& node : grouping.groups[i]) {
      std::vector<std::string> others;
      for (const auto& [other, digest] : digest_of) {
        if (digest != digest_of[node]) others.push_back(other);
      }
      const std::string reference = grouping.majority ? grouping.groups[*grouping.majority].front() : others.front();
      std::string message = node + ": MUNGE key differs from " +
                            (grouping.majority ? Join(grouping.groups[*grouping.majority], ", ") : Join(others, ", ")) +
                            " (keyed digest " + DigestPrefix(digest_of[node]) + " vs " +
                            DigestPrefix(digest_of[reference]) + ", same nonce): ";
      message += grouping.majority ? node + " holds a different MUNGE key; " + kKeyFix
                                   : "the nodes hold " + std::to_string(grouping.groups.size()) +
                                         " different keys and no majority, so gpuconform cannot tell which is right; "
                                         "copy one /etc/munge/munge.key to every node (0400 munge:munge) and restart "
                                         "munged";
      findings.push_back({"key-differs", node, message});
    }
  }
  if (!findings.empty()) {
    return WithMeasurements(Failed(std::move(findings)), measurements);
  }
  if (!problems.empty()) return WithMeasurements(ErroredWithAll("unparseable", problems), measurements);
  return WithMeasurements(Passed(), measurements);
}

CheckResult CheckKeyFileProtected(const std::string& node, const KeyStat& stat) {
  const std::string mode = fmt::format("{:04o}", stat.mode);
  std::vector<Measurement> measurements = {{node + ".key_mode", mode, "", "0600 or 0400", ""},
                                           {node + ".key_owner", stat.owner + ":" + stat.group, "", "munge or root", ""}};
  std::vector<Finding> findings;
  if ((stat.mode & 077) != 0) {
    findings.push_back({"key-permissions", node,
                        node + ": " + stat.path + " has mode " + mode +
                            " (group or others may read or write it), expected 0600 or 0400: whoever can read the "
                            "key can forge credentials for any user, root included; chmod 0400 " + stat.path});
  }
  if (stat.owner != "munge" && stat.owner != "root") {
    findings.push_back({"key-owner", node,
                        node + ": " + stat.path + " is owned by " + stat.owner + ":" + stat.group +
                            ", expected munge (or root): its owner can read or replace the key; chown munge:munge " +
                            stat.path});
  }
  return WithMeasurements(FromFindings(std::move(findings)), measurements);
}

namespace {

std::string EncodeFailureCause(const std::string& node, const DecodeReport& report) {
  const auto failure = FindMungeFailure(report.encode_failure);
  const std::string socket = report.socket_path.empty() ? "" : " (gpuconform used " + report.socket_path +
                                                                   "; if munged listens elsewhere, set "
                                                                   "GPUCONFORM_MUNGE_SOCKET or AuthInfo=socket=)";
  if (!failure || failure->kind == MungeFailure::kSocketUnreachable) {
    return "munged is not running on " + node + ", or listens on another socket; start munged" + socket;
  }
  if (failure->kind == MungeFailure::kDaemonFailed) {
    return "munged failed to start on " + node + "; read munged.log (or journalctl -u munge) for the reason, fix it "
                                                 "and start munged";
  }
  return "munged on " + node + " did not create a credential; read munged.log on " + node;
}

}  // namespace

CheckResult CheckDaemonReachable(const std::string& node, const DecodeReport& report) {
  std::vector<Measurement> measurements;
  if (!report.socket_path.empty()) measurements.push_back({node + ".munge_socket", report.socket_path, "", "", ""});
  if (!report.encode_ok) {
    const std::string quoted = report.encode_failure.empty() ? "no reason given" : report.encode_failure;
    return WithMeasurements(Failed({{"daemon-unreachable", node,
                                     node + ": munge -n failed: " + quoted + ": " + EncodeFailureCause(node, report)}}),
                            measurements);
  }
  const auto self = std::find_if(report.attempts.begin(), report.attempts.end(),
                                 [&](const DecodeAttempt& attempt) { return attempt.from_node == node; });
  if (self == report.attempts.end()) {
    return WithMeasurements(
        Errored("self-decode-not-run", node + ": munge-decode.txt has no decode of " + node + "'s own credential"),
        measurements);
  }
  const std::string said = self->message.empty() ? "" : " (" + self->message + ")";
  if (self->exit_code == 0) return WithMeasurements(Passed(), measurements);
  if (self->exit_code < 0) {
    return WithMeasurements(Errored("self-decode-not-run", node + ": munge -n worked but its credential was not decoded: " +
                                                               self->status + said),
                            measurements);
  }
  const MungeFailure failure = ClassifyMungeStatus(self->exit_code, self->status);
  const std::string cause = failure == MungeFailure::kSocketUnreachable
                                ? "munged on " + node + " stopped answering between encode and decode; restart munged"
                                : MungeFixFor(failure, node, node);
  return WithMeasurements(
      Failed({{"self-decode-failed", node,
               node + ": munged encoded a credential but could not decode it on the same node: '" + self->status +
                   "' (unmunge exit " + std::to_string(self->exit_code) + ")" + said + ": " + cause}}),
      measurements);
}

CheckResult CheckClockSkewWithinTtl(const NodeFacts<long long>& epoch_ns, const Profile& profile) {
  if (NodeCount(epoch_ns) == 0) return Errored("no-nodes", "no node reported a clock.txt");
  const auto problems = Problems(epoch_ns);
  if (NodeCount(epoch_ns) == 1 && problems.empty()) return OnlyOneNode(epoch_ns.read.begin()->first, "measuring clock skew");
  const std::vector<std::pair<std::string, long long>> readings(epoch_ns.read.begin(), epoch_ns.read.end());
  if (readings.size() < 2) return ErroredWithAll("unparseable", problems);

  const auto by_time = [](const auto& a, const auto& b) { return a.second < b.second; };
  const auto slowest = *std::min_element(readings.begin(), readings.end(), by_time);
  const auto fastest = *std::max_element(readings.begin(), readings.end(), by_time);
  const double skew_s = static_cast<double>(fastest.second - slowest.second) / 1e9;
  const MungeExpectation& munge = *profile.Get<MungeExpectation>();
  const int limit_s = munge.max_clock_skew_s;
  std::vector<Measurement> measurements = {
      {"clock_skew_s", Seconds(skew_s), "s", "<= " + std::to_string(limit_s), munge.source}};
  for (const auto& [node, ns] : readings) {
    measurements.push_back({node + ".clock_ahead_of_slowest_s", Seconds(static_cast<double>(ns - slowest.second) / 1e9),
                            "s", "", ""});
  }
  if (skew_s > limit_s) {
    return WithMeasurements(
        Failed({{"clock-skew", fastest.first,
                 fastest.first + " (fastest) and " + slowest.first + " (slowest): clocks differ by " + Seconds(skew_s) +
                     " s, limit " + std::to_string(limit_s) + " s (profile " + profile.name +
                     "): MUNGE rejects credentials from a node whose clock is off by more than the credential TTL "
                     "('Expired credential' or 'Rewound credential'); " + kClockFix}}),
        measurements);
  }
  if (!problems.empty()) return WithMeasurements(ErroredWithAll("unparseable", problems), measurements);
  return WithMeasurements(Passed(), measurements);
}

}  // namespace gpuconform::munge
