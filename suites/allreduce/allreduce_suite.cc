// AllreduceBandwidth glue: gpuconform's own NCCL run, the MPI backend's live sweep and an
// operator's nccl-tests output, each read once into one BandwidthTable
// (probes/nccl_tests/nccl_tests_facts.h) and judged by the same floors. Each check judges on
// its own from those cached facts: how its table could not be read, the resource-death rule of
// its run (probes/resource_limits/death_verdicts.h) and, for the MPI sweep, ranks that stalled.
// The NCCL judgements cite the run's NCCL_DEBUG=INFO log when the snapshot has one (read once
// per run, shared with NcclTransport: probes/nccl_log/nccl_log_facts.h; its summary is derived
// once per run for the four checks that cite it).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/suite_registry.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/mpi_sweep/mpi_sweep_facts.h"
#include "probes/nccl_log/nccl_debug_log_probe.h"
#include "probes/nccl_log/nccl_log_facts.h"
#include "probes/nccl_run/nccl_run_facts.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_tests/nccl_tests_facts.h"
#include "probes/nccl_tests/nccl_tests_probe.h"
#include "probes/resource_limits/death_verdicts.h"
#include "suites/allreduce/allreduce_checks.h"
#include "suites/allreduce/blame.h"
#include "suites/allreduce/isolation_checks.h"
#include "suites/allreduce/latency_checks.h"

namespace gpuconform::allreduce {

using namespace gpuconform::mpi_sweep;
using namespace gpuconform::nccl_log;
using namespace gpuconform::nccl_run;
using namespace gpuconform::nccl_tests;

namespace {

// A judgement that does not apply to this profile is kept as a skip carrying its
// measurements, so the report still records what was measured.
CheckResult JudgedOrRecorded(CheckResult judged, bool applies, const std::string& not_applicable) {
  if (applies) return judged;
  CheckResult recorded = Skipped(not_applicable);
  recorded.measurements = std::move(judged.measurements);
  return recorded;
}

bool NotGiven(const RawOutput& out) {
  return out.status == ProbeStatus::kToolMissing || out.status == ProbeStatus::kAbsent;
}

// A table that was not given is skipped (saying how to give it, after `skip_prefix`); one
// that failed is an error.
CheckResult NotMeasured(const RawOutput& out, const std::string& skip_prefix = "") {
  return NotGiven(out) ? Skipped(skip_prefix + out.detail) : Errored("not-measured", out.detail);
}

// What the run's NCCL log says about the inter-node transport, which four checks cite when
// they fail: summarised once per run. nullopt without a usable log (NcclTransport reports why).
const std::optional<InterNodeTransport>& TransportFromLog(const SuiteContext& context) {
  return context.raw.facts.Get<std::optional<InterNodeTransport>>(
      "allreduce/inter-node-transport", "", [&]() -> std::optional<InterNodeTransport> {
        const Result<NcclLog>& log = ReadNcclLog(context.raw);
        if (!log) return std::nullopt;
        return SummarizeInterNodeTransport(*log, context.profile);
      });
}

// The transport a failure cites; null without a usable log.
const InterNodeTransport* TransportEvidence(const SuiteContext& context) {
  const auto& transport = TransportFromLog(context);
  return transport ? &*transport : nullptr;
}

// How a check judges a table that was read.
using TableJudge = CheckResult (*)(const BandwidthTable& table, const SuiteContext& context);

// The table of `probe_id`, judged; where it could not be read, why: `not_obtained` for a probe
// that did not give it, "unparseable" for a table that does not parse.
template <typename NotObtained>
CheckResult JudgeTable(const SuiteContext& context, const std::string& probe_id, TableJudge judge,
                       NotObtained not_obtained) {
  const RawOutput out = context.raw.ClusterOutput(probe_id);
  if (!out.ok()) return not_obtained(out);
  const Result<BandwidthTable>& table = ReadBandwidthTable(context.raw, probe_id);
  if (!table) return Errored("unparseable", table.error());
  return judge(*table, context);
}

// The resource-death rule (death_verdicts.h) on one case of a run whose workers died as
// `deaths` say: the case `own_check` fails naming them; any other case of the run that did not
// pass skips naming them.
CheckResult AfterDeaths(CheckResult judgement, const std::string& check, const std::string& own_check,
                        std::vector<resource_limits::ClassifiedDeath> deaths) {
  if (deaths.empty()) return judgement;
  for (auto& death : deaths) death.own_check = own_check;
  std::vector<CheckResult> one{Stamped(std::move(judgement), "", check, "")};
  resource_limits::ApplyDeaths(one, deaths, kSuite, [](const CheckResult&, const auto&) { return true; });
  return std::move(one.front());
}

// Every table's correctness is judged alike.
CheckResult JudgeCorrect(const BandwidthTable& table, const SuiteContext&) { return CheckResultsCorrect(table); }

// --- The MPI backend's sweep ---

// A check of the MPI sweep. Where the ranks stalled (in MPI_Init or inside the measurement),
// that is its verdict. Otherwise a sweep worker that died of its node's /dev/shm, memory,
// locked memory or open files (probes/resource_limits, read from the sweep's table) fails
// MpiNoSlowNode, the case that names nodes, with the resource's code on that node, and the
// sweep's other cases that did not pass skip naming it, rather than "not-measured" or a slow
// pair that points elsewhere.
template <typename Judge>
CheckJudge MpiSweepCheck(const char* check, Judge judge) {
  return [check, judge](const SuiteContext& context, const std::string&) {
    if (!context.world_problem.empty()) return Errored("world-stalled", context.world_problem);
    return AfterDeaths(judge(context), check, kMpiNoSlowNode, ReadSweepDeaths(context.raw));
  };
}

// A check of the sweep's table; one not given is skipped saying so after `skip_prefix`.
CheckJudge MpiTableCheck(const char* check, TableJudge judge, std::string skip_prefix = "") {
  return MpiSweepCheck(check, [judge, skip_prefix](const SuiteContext& context) {
    return JudgeTable(context, MpiAllreduceProbe().id, judge,
                      [&](const RawOutput& out) { return NotMeasured(out, skip_prefix); });
  });
}

// The profile's floors are NCCL figures on GPU clusters; there the MPI host path is recorded,
// not judged against them.
CheckResult JudgeMpiFloors(const BandwidthTable& table, const SuiteContext& context) {
  return JudgedOrRecorded(CheckBusbwAtFloors(table, context.profile), !context.profile.ExpectsGpus(),
                          "profile " + context.profile.name +
                              " states NCCL floors for GPUs; the MPI host path is recorded only");
}

CheckResult JudgeMpiLatency(const BandwidthTable& table, const SuiteContext& context) {
  return JudgedOrRecorded(CheckSmallMessageLatency(table, context.profile), !context.profile.ExpectsGpus(),
                          "profile " + context.profile.name +
                              " states NCCL latency ceilings for GPUs; the MPI host path is recorded only");
}

CheckResult JudgeLatency(const BandwidthTable& table, const SuiteContext& context) {
  return CheckSmallMessageLatency(table, context.profile);
}

CheckResult JudgeMpiEfficiency(const BandwidthTable& table, const SuiteContext& context) {
  return JudgedOrRecorded(CheckEfficiencyAgainstFabric(table, context.profile), !context.profile.ExpectsGpus(),
                          "the fabric bound is for NCCL on GPUs; the MPI host path is recorded only");
}

// The sweep's blame, from its pairs where it completed. Where it did not, the nodes its gate or
// blame pass named are still the verdict, and the sweep's own failure stays on the other checks.
CheckResult JudgeMpiBlame(const SuiteContext& context) {
  const RawOutput mpi = context.raw.ClusterOutput(MpiAllreduceProbe().id);
  const auto& pairs = ReadPairResults(context.raw);
  const auto& excluded = ReadExcludedNodes(context.raw);
  const FabricExpectation* fabric = context.profile.Get<FabricExpectation>();
  const double slow_fraction = fabric != nullptr ? fabric->slow_pair_fraction : mpi_sweep::kSlowPairFraction;
  const auto& isolated = ReadIsolation(context.raw);
  const auto traced = isolated ? NodesTracedToLinks(isolated->findings) : std::map<std::string, std::string>{};
  if (mpi.ok()) return CheckNoSlowNode(pairs, excluded, slow_fraction, traced);
  if (!NotGiven(mpi) && (!excluded.empty() || pairs.size() >= 3)) {
    CheckResult blame = CheckNoSlowNode(pairs, excluded, slow_fraction, traced);
    if (blame.verdict == Verdict::kFail) return blame;
  }
  return NotMeasured(mpi, "no pairwise measurement: ");
}

// The isolation after the sweep, from its record. A snapshot taken before the isolation existed
// has no record: skipped, saying so.
CheckResult JudgeMpiIsolation(const SuiteContext& context) {
  const RawOutput out = context.raw.ClusterOutput(MpiIsolationProbe().id);
  if (NotGiven(out)) {
    return Skipped("no isolation record: " +
                   (out.detail.empty() ? std::string("the snapshot has no cluster/isolation.txt (taken before the "
                                                     "isolation existed, or without this suite's probes)")
                                       : out.detail));
  }
  const auto& isolated = ReadIsolation(context.raw);
  if (!isolated) return Errored("not-measured", isolated.error());
  return CheckFaultIsolation(isolated->record, isolated->findings);
}

// --- gpuconform's own NCCL run (nccl_run_probe.h) ---

// Judged under a profile that expects GPUs; under one that expects none, skipped saying why.
std::optional<std::string> NcclRunNotApplicable(const SuiteContext& context, const std::string&) {
  if (context.profile.ExpectsGpus()) return std::nullopt;
  const RawOutput out = context.raw.ClusterOutput(nccl_run::NcclAllreduceProbe().id);
  return "profile " + context.profile.name + " expects no GPUs" + (out.ok() ? std::string() : " (" + out.detail + ")");
}

// A check of the run's table, where NCCL missing is an error. A node's NCCL worker that died
// of its /dev/shm, memory, locked memory or open files (probes/resource_limits, read from the
// run's table) fails NcclBusbwAtFloors, the run's first case, with the resource's code naming
// the node, and the run's other cases that did not pass skip naming it, rather than
// "not-measured" or a bandwidth failure that points elsewhere.
CheckJudge NcclRunCheck(const char* check, TableJudge judge) {
  return [check, judge](const SuiteContext& context, const std::string&) {
    CheckResult judgement = JudgeTable(context, nccl_run::NcclAllreduceProbe().id, judge, [](const RawOutput& out) {
      return Errored(NotGiven(out) ? ProbeStatusReason(out.status) : ReasonCode("not-measured"), out.detail);
    });
    return AfterDeaths(std::move(judgement), check, kNcclBusbwAtFloors, ReadNcclRunDeaths(context.raw));
  };
}

// --- What gpuconform's own run and an operator's nccl-tests output share ---

// Floors and efficiency of an NCCL table cite the run's NCCL log where there is one.
CheckResult JudgeFloors(const BandwidthTable& table, const SuiteContext& context) {
  return CheckBusbwAtFloors(table, context.profile, TransportEvidence(context));
}

CheckResult JudgeEfficiency(const BandwidthTable& table, const SuiteContext& context) {
  return CheckEfficiencyAgainstFabric(table, context.profile, TransportEvidence(context));
}

// --- An operator's nccl-tests output ---

CheckJudge NcclTestsCheck(TableJudge judge) {
  return [judge](const SuiteContext& context, const std::string&) {
    return JudgeTable(context, NcclTestsOutputProbe().id, judge, [](const RawOutput& out) { return NotMeasured(out); });
  };
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary =
        "allreduce busbw at the profile's named sizes meets its floors (NCCL and MPI backends, nccl-tests output)",
    .checks = {
        {.name = kMpiBusbwAtFloors,
         .requirement = "MPI_Allreduce busbw across the world is at or above the profile's floor at each named size",
         .judge = MpiTableCheck(kMpiBusbwAtFloors, JudgeMpiFloors)},
        {.name = kMpiResultsCorrect,
         .requirement = "every MPI_Allreduce result was correct",
         .judge = MpiTableCheck(kMpiResultsCorrect, JudgeCorrect)},
        {.name = kMpiNoSlowNode,
         .requirement = "no node's pairs run at under fabric.slow_pair_fraction (default half) of the fastest pair's "
                        "busbw (the slow node is named)",
         .judge = MpiSweepCheck(kMpiNoSlowNode, JudgeMpiBlame)},
        {.name = kMpiFaultIsolation,
         .requirement = "a failing or below-floor MPI_Allreduce over the allocation is traced to the node, the pair or "
                        "the boundary between two groups that causes it (adaptive group testing, "
                        "cluster/isolation.txt); a healthy run passes its screen in one round",
         .judge = MpiSweepCheck(kMpiFaultIsolation, JudgeMpiIsolation)},
        {.name = kMpiEfficiencyAgainstFabric,
         .requirement = "busbw is at least the profile's fraction of the declared per-node fabric bandwidth",
         .judge = MpiTableCheck(kMpiEfficiencyAgainstFabric, JudgeMpiEfficiency, "no measurement: ")},
        {.name = kMpiSmallMessageLatency,
         .requirement = "one small MPI_Allreduce (8 B to 64 KiB) takes no longer than the profile's ceiling "
                        "(allreduce_latency) at each named size",
         .judge = MpiTableCheck(kMpiSmallMessageLatency, JudgeMpiLatency)},
        {.name = kNcclBusbwAtFloors,
         .requirement = "gpuconform's NCCL allreduce busbw across all GPUs is at or above the profile's floor at each "
                        "named size",
         .judge = NcclRunCheck(kNcclBusbwAtFloors, JudgeFloors),
         .not_applicable = NcclRunNotApplicable},
        {.name = kNcclResultsCorrect,
         .requirement = "every element of every NCCL allreduce result was correct",
         .judge = NcclRunCheck(kNcclResultsCorrect, JudgeCorrect),
         .not_applicable = NcclRunNotApplicable},
        {.name = kNcclEfficiencyAgainstFabric,
         .requirement = "NCCL busbw is at least the profile's fraction of the declared per-node fabric bandwidth",
         .judge = NcclRunCheck(kNcclEfficiencyAgainstFabric, JudgeEfficiency),
         .not_applicable = NcclRunNotApplicable},
        {.name = kNcclSmallMessageLatency,
         .requirement = "one small NCCL allreduce (8 B to 64 KiB) takes no longer than the profile's ceiling at each "
                        "named size",
         .judge = NcclRunCheck(kNcclSmallMessageLatency, JudgeLatency),
         .not_applicable = NcclRunNotApplicable},
        {.name = kNcclTestsBusbwAtFloors,
         .requirement = "nccl-tests all_reduce_perf busbw is at or above the profile's floor at each named size",
         .judge = NcclTestsCheck(JudgeFloors)},
        {.name = kNcclTestsResultsCorrect,
         .requirement = "nccl-tests reported no wrong results (#wrong = 0)",
         .judge = NcclTestsCheck(JudgeCorrect)},
        {.name = kNcclTestsEfficiencyAgainstFabric,
         .requirement = "nccl-tests busbw is at least the profile's fraction of the declared per-node fabric bandwidth",
         .judge = NcclTestsCheck(JudgeEfficiency)},
        {.name = kNcclTestsSmallMessageLatency,
         .requirement = "nccl-tests all_reduce_perf's time at 8 B to 64 KiB is within the profile's ceiling at each "
                        "named size",
         .judge = NcclTestsCheck(JudgeLatency)},
    },
    .probes = {nccl_run::NcclAllreduceProbe(), MpiAllreduceProbe(), MpiIsolationProbe(), NcclTestsOutputProbe(),
               nccl_log::DebugLogProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::allreduce
