// Munge suite glue: which facts (probes/munge/munge_facts.h) feed which check, the probes,
// and the registration. Every check is skipped first where the profile says it does not apply.
#include "harness/core/fact_reading.h"
#include "harness/core/suite_registry.h"
#include "probes/munge/munge_facts.h"
#include "probes/munge/munge_probes.h"
#include "suites/munge/munge_checks.h"

namespace gpuconform::munge {

namespace {

std::optional<std::string> SuiteNotApplicable(const SuiteContext& context, const std::string&) {
  return NotApplicable(context.profile);
}

// A per-node check of one fact; a fact that could not be read is the check's error.
template <typename Fact>
CheckJudge ReadThenJudgeNode(const Result<Fact>& (*read)(const ClusterRaw&, const std::string&),
                             CheckResult (*judge)(const std::string&, const Fact&)) {
  return [read, judge](const SuiteContext& context, const std::string& node) {
    const Result<Fact>& fact = read(context.raw, node);
    return fact ? judge(node, *fact) : Errored("unparseable", fact.error());
  };
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "MUNGE: credentials decode across nodes, one key everywhere and protected, munged up, clocks in TTL",
    .checks = {
        {.name = kCredentialsDecodeAcrossNodes,
         .requirement = "every node decodes every other node's MUNGE credential",
         .judge =
             [](const SuiteContext& context, const std::string&) {
               return CheckCredentialsDecodeAcrossNodes(facts::ReadEveryNode(context.raw, ReadDecodeReport));
             },
         .not_applicable = SuiteNotApplicable},
        {.name = kKeyIdenticalOnAllNodes,
         .requirement = "every node holds the same MUNGE key (compared by keyed digest)",
         .judge =
             [](const SuiteContext& context, const std::string&) {
               return CheckKeyIdenticalOnAllNodes(facts::ReadEveryNode(context.raw, ReadKeyDigest));
             },
         .not_applicable = SuiteNotApplicable},
        {.name = kKeyFileProtected,
         .requirement = "the MUNGE key is owned by munge or root and not accessible to group or others",
         .per_node = true,
         .judge = ReadThenJudgeNode(ReadKeyStat, CheckKeyFileProtected),
         .not_applicable = SuiteNotApplicable},
        {.name = kDaemonReachable,
         .requirement = "munged answers on the node: munge -n encodes and the node decodes its own credential",
         .per_node = true,
         .judge = ReadThenJudgeNode(ReadDecodeReport, CheckDaemonReachable),
         .not_applicable = SuiteNotApplicable},
        {.name = kClockSkewWithinTtl,
         .requirement = "node clocks differ by no more than the profile's munge.max_clock_skew_s",
         .judge =
             [](const SuiteContext& context, const std::string&) {
               return CheckClockSkewWithinTtl(facts::ReadEveryNode(context.raw, ReadClockReading), context.profile);
             },
         .not_applicable =
             [](const SuiteContext& context, const std::string&) { return ClockSkewNotApplicable(context.profile); }},
    },
    // Collectives run in this order on every rank, after the node probes (the stat); the
    // clock last, after the slow decodes.
    .probes = {KeyDigestProbe(), KeyStatProbe(), CrossDecodeProbe(), ClockProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::munge
