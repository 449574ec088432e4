// Munge suite glue: the probe specs, the parse of each node's files, and the registration.
#include <map>

#include "harness/suite_registry.h"
#include "suites/munge/munge_checks.h"
#include "probes/munge/munge_parse.h"
#include "probes/munge/munge_probes.h"

namespace gpuconform::munge {

namespace {


const ProbeSpec& KeyDigestProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("munge-key-digest", "munge-key.digest", ProbeKeyDigest);
  return kSpec;
}
const ProbeSpec& KeyStatProbe() {
  static const ProbeSpec kSpec =
      BuiltinProbe("munge-key-stat", ProbeScope::kNode, "munge-key-stat.txt", ProbeKeyStat);
  return kSpec;
}
const ProbeSpec& CrossDecodeProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("munge-cross-decode", "munge-decode.txt", ProbeCrossDecode);
  return kSpec;
}
const ProbeSpec& ClockProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("clock", "clock.txt", ProbeClock);
  return kSpec;
}

// A probe output turned into facts, or into the reason there are none (naming node and file).
template <typename T>
Result<T> Read(const SuiteContext& context, const std::string& node, const ProbeSpec& spec,
               Result<T> (*parse)(const std::string&, const std::string&)) {
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  if (out.status == ProbeStatus::kAbsent) return Error{node + ": no " + spec.file + " (" + out.detail + ")"};
  if (!out.ok()) return Error{out.detail.empty() ? node + ": " + spec.file + " could not be obtained" : out.detail};
  return parse(out.text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

template <typename T>
std::map<std::string, Result<T>> ReadAll(const SuiteContext& context, const ProbeSpec& spec,
                                         Result<T> (*parse)(const std::string&, const std::string&)) {
  std::map<std::string, Result<T>> readings;
  for (const auto& node : context.raw.nodes) readings.emplace(node, Read(context, node, spec, parse));
  return readings;
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  const auto decodes = ReadAll(context, CrossDecodeProbe(), ParseDecodeReport);
  std::vector<CheckResult> results;
  results.push_back(CheckCredentialsDecodeAcrossNodes(decodes, context.profile));
  results.push_back(CheckKeyIdenticalOnAllNodes(ReadAll(context, KeyDigestProbe(), ParseKeyDigest), context.profile));
  const auto stats = ReadAll(context, KeyStatProbe(), ParseKeyStat);
  for (const auto& node : context.raw.nodes) results.push_back(CheckKeyFileProtected(node, stats.at(node), context.profile));
  for (const auto& node : context.raw.nodes) {
    results.push_back(CheckDaemonReachable(node, decodes.at(node), context.profile));
  }
  results.push_back(CheckClockSkewWithinTtl(ReadAll(context, ClockProbe(), ParseClockReading), context.profile));
  return results;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "MUNGE: credentials decode across nodes, one key everywhere and protected, munged up, clocks in TTL",
    .checks = {
        {kCredentialsDecodeAcrossNodes, "every node decodes every other node's MUNGE credential", false},
        {kKeyIdenticalOnAllNodes, "every node holds the same MUNGE key (compared by keyed digest)", false},
        {kKeyFileProtected, "the MUNGE key is owned by munge or root and not accessible to group or others", true},
        {kDaemonReachable,
         "munged answers on the node: munge -n encodes and the node decodes its own credential", true},
        {kClockSkewWithinTtl, "node clocks differ by no more than the profile's munge.max_clock_skew_s", false},
    },
    // Collectives run in this order on every rank, after the node probes (the stat); the
    // clock last, after the slow decodes.
    .probes = {KeyDigestProbe(), KeyStatProbe(), CrossDecodeProbe(), ClockProbe()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::munge
