// AllreduceBandwidth glue: gpuconform's own NCCL run, the MPI backend's live sweep and an
// operator's nccl-tests output, each read once into one BandwidthTable
// (probes/nccl_tests/nccl_tests_facts.h) and judged by the same floors. The NCCL judgements
// cite the run's NCCL_DEBUG=INFO log when the snapshot has one (read once per run, shared with
// NcclTransport: probes/nccl_log/nccl_log_facts.h).
#include <optional>

#include "harness/suite_registry.h"
#include "suites/allreduce/allreduce_checks.h"
#include "suites/allreduce/blame.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/mpi_sweep/mpi_sweep_facts.h"
#include "probes/resource_limits/death_verdicts.h"
#include "probes/nccl_tests/nccl_tests_facts.h"
#include "probes/nccl_tests/nccl_tests_probe.h"
#include "probes/nccl_run/nccl_run_facts.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_log/nccl_debug_log_probe.h"
#include "probes/nccl_log/nccl_log_facts.h"

namespace gpuconform::allreduce {

using namespace gpuconform::mpi_sweep;
using namespace gpuconform::nccl_log;
using namespace gpuconform::nccl_run;
using namespace gpuconform::nccl_tests;

namespace {

constexpr char kMpiFloors[] = "MpiBusbwAtFloors";
constexpr char kMpiCorrect[] = "MpiResultsCorrect";
constexpr char kMpiBlame[] = "MpiNoSlowNode";
constexpr char kMpiEfficiency[] = "MpiEfficiencyAgainstFabric";
constexpr char kNcclFloors[] = "NcclBusbwAtFloors";
constexpr char kNcclCorrect[] = "NcclResultsCorrect";
constexpr char kNcclEfficiency[] = "NcclEfficiencyAgainstFabric";
constexpr char kNcclTestsFloors[] = "NcclTestsBusbwAtFloors";
constexpr char kNcclTestsCorrect[] = "NcclTestsResultsCorrect";
constexpr char kNcclTestsEfficiency[] = "NcclTestsEfficiencyAgainstFabric";

// The cluster-wide case of `check`.
CheckResult Cluster(const std::string& check, CheckResult judgement) { return Judged(check, "", std::move(judgement)); }

// A judgement that does not apply to this profile is kept as a skip carrying its
// measurements, so the report still records what was measured.
CheckResult JudgedOrRecorded(CheckResult judged, bool applies, const std::string& not_applicable) {
  if (applies) return judged;
  CheckResult recorded = Skipped(not_applicable);
  recorded.measurements = std::move(judged.measurements);
  return recorded;
}

// A table that was not given is skipped (saying how to give it); one that failed is an error.
CheckResult NotMeasured(const RawOutput& out) {
  const bool not_given = out.status == ProbeStatus::kToolMissing || out.status == ProbeStatus::kAbsent;
  return not_given ? Skipped(out.detail) : Errored("not-measured", out.detail);
}

// What the run's NCCL log says about the inter-node transport; nullopt without a usable log
// (NcclTransport reports why).
std::optional<nccl_log::InterNodeTransport> TransportFromLog(const SuiteContext& context) {
  const Result<NcclLog>& log = ReadNcclLog(context.raw);
  if (!log) return std::nullopt;
  return nccl_log::SummarizeInterNodeTransport(*log, context.profile);
}

// Judges one table with both checks; a missing or unreadable table makes both say why.
void JudgeTable(const SuiteContext& context, const std::string& probe_id, const std::string& floors_check,
                const std::string& correct_check, bool floors_apply, const std::string& not_applicable,
                std::vector<CheckResult>& results, const nccl_log::InterNodeTransport* transport = nullptr) {
  const RawOutput out = context.raw.ClusterOutput(probe_id);
  if (!out.ok()) {
    for (const auto& check : {floors_check, correct_check}) results.push_back(Cluster(check, NotMeasured(out)));
    return;
  }
  const Result<BandwidthTable>& table = ReadBandwidthTable(context.raw, probe_id);
  if (!table) {
    for (const auto& check : {floors_check, correct_check}) {
      results.push_back(Cluster(check, Errored("unparseable", table.error())));
    }
    return;
  }
  results.push_back(Cluster(floors_check, JudgedOrRecorded(CheckBusbwAtFloors(*table, context.profile, transport),
                                                           floors_apply, not_applicable)));
  results.push_back(Cluster(correct_check, CheckResultsCorrect(*table)));
}

// The operator's nccl-tests output: floors and correctness, and efficiency against the
// declared fabric, each failure citing the run's NCCL log where there is one.
void JudgeNcclTests(const SuiteContext& context, std::vector<CheckResult>& results) {
  const std::string probe_id = NcclTestsOutputProbe().id;
  const auto transport = TransportFromLog(context);
  const nccl_log::InterNodeTransport* evidence = transport ? &*transport : nullptr;
  JudgeTable(context, probe_id, kNcclTestsFloors, kNcclTestsCorrect, true, "", results, evidence);
  const RawOutput out = context.raw.ClusterOutput(probe_id);
  if (!out.ok()) {
    results.push_back(Cluster(kNcclTestsEfficiency, NotMeasured(out)));
    return;
  }
  const Result<BandwidthTable>& table = ReadBandwidthTable(context.raw, probe_id);
  results.push_back(Cluster(kNcclTestsEfficiency, table ? CheckEfficiencyAgainstFabric(*table, context.profile, evidence)
                                                        : Errored("unparseable", table.error())));
}

// gpuconform's own NCCL run (nccl_run_probe.h): judged under a profile that expects GPUs,
// where NCCL missing is an error; under one that expects none, skipped saying why.
void JudgeOwnNcclRun(const SuiteContext& context, std::vector<CheckResult>& results) {
  const std::string probe_id = nccl_run::NcclAllreduceProbe().id;
  const RawOutput out = context.raw.ClusterOutput(probe_id);
  const char* checks[] = {kNcclFloors, kNcclCorrect, kNcclEfficiency};
  if (!context.profile.ExpectsGpus()) {
    const std::string why = "profile " + context.profile.name + " expects no GPUs" +
                            (out.ok() ? std::string() : " (" + out.detail + ")");
    for (const char* check : checks) results.push_back(Cluster(check, Skipped(why)));
    return;
  }
  if (!out.ok()) {
    const bool not_there = out.status == ProbeStatus::kAbsent || out.status == ProbeStatus::kToolMissing;
    const ReasonCode kind = not_there ? ProbeStatusReason(out.status) : ReasonCode("not-measured");
    for (const char* check : checks) results.push_back(Cluster(check, Errored(kind, out.detail)));
    return;
  }
  const Result<BandwidthTable>& table = ReadBandwidthTable(context.raw, probe_id);
  if (!table) {
    for (const char* check : checks) results.push_back(Cluster(check, Errored("unparseable", table.error())));
    return;
  }
  const auto transport = TransportFromLog(context);
  const nccl_log::InterNodeTransport* evidence = transport ? &*transport : nullptr;
  results.push_back(Cluster(kNcclFloors, CheckBusbwAtFloors(*table, context.profile, evidence)));
  results.push_back(Cluster(kNcclCorrect, CheckResultsCorrect(*table)));
  results.push_back(Cluster(kNcclEfficiency, CheckEfficiencyAgainstFabric(*table, context.profile, evidence)));
}

// The MPI sweep's blame and efficiency: from its pairs and table where it completed; where it
// did not, the nodes its gate or blame pass named are still the blame verdict.
void JudgeMpiSweep(const SuiteContext& context, std::vector<CheckResult>& results) {
  const std::string probe_id = MpiAllreduceProbe().id;
  const RawOutput mpi = context.raw.ClusterOutput(probe_id);
  const auto& pairs = ReadPairResults(context.raw);
  const auto& excluded = ReadExcludedNodes(context.raw);
  const double slow_fraction =
      context.profile.fabric ? context.profile.fabric->slow_pair_fraction : mpi_sweep::kSlowPairFraction;
  if (mpi.ok()) {
    results.push_back(Cluster(kMpiBlame, CheckNoSlowNode(pairs, excluded, slow_fraction)));
    const Result<BandwidthTable>& table = ReadBandwidthTable(context.raw, probe_id);
    if (!table) {
      results.push_back(Cluster(kMpiEfficiency, Errored("unparseable", table.error())));
    } else {
      results.push_back(Cluster(kMpiEfficiency, JudgedOrRecorded(CheckEfficiencyAgainstFabric(*table, context.profile),
                                                                 !context.profile.ExpectsGpus(),
                                                                 "the fabric bound is for NCCL on GPUs; the MPI host "
                                                                 "path is recorded only")));
    }
  } else if (mpi.status == ProbeStatus::kToolMissing || mpi.status == ProbeStatus::kAbsent) {
    results.push_back(Cluster(kMpiBlame, Skipped("no pairwise measurement: " + mpi.detail)));
    results.push_back(Cluster(kMpiEfficiency, Skipped("no measurement: " + mpi.detail)));
  } else if (!excluded.empty() || pairs.size() >= 3) {
    // The sweep did not complete, but the gate or the blame pass that followed it named nodes:
    // those are the verdict, and the sweep's own failure stays on the other checks.
    CheckResult blame = CheckNoSlowNode(pairs, excluded, slow_fraction);
    if (blame.verdict != Verdict::kFail) blame = Errored("not-measured", mpi.detail);
    results.push_back(Cluster(kMpiBlame, std::move(blame)));
    results.push_back(Cluster(kMpiEfficiency, Errored("not-measured", mpi.detail)));
  } else {
    results.push_back(Cluster(kMpiBlame, Errored("not-measured", mpi.detail)));
    results.push_back(Cluster(kMpiEfficiency, Errored("not-measured", mpi.detail)));
  }
}

// A sweep worker that died of its node's /dev/shm, memory, locked memory or open files
// (probes/resource_limits, read from the sweep's table): MpiNoSlowNode, the case that names
// nodes, fails with the resource's code on that node, and the sweep's other cases that did not
// pass skip naming it, rather than "not-measured" or a slow pair that points elsewhere.
void ApplySweepDeaths(const SuiteContext& context, std::vector<CheckResult>& results) {
  std::vector<resource_limits::ClassifiedDeath> deaths = ReadSweepDeaths(context.raw);
  for (auto& death : deaths) death.own_check = kMpiBlame;
  resource_limits::ApplyDeaths(results, deaths, kSuite, [](const CheckResult& result, const auto&) {
    return result.check == kMpiFloors || result.check == kMpiCorrect || result.check == kMpiEfficiency;
  });
}

// A node's NCCL worker that died of its /dev/shm, memory, locked memory or open files
// (probes/resource_limits, read from the run's table): NcclBusbwAtFloors, the run's first case,
// fails with the resource's code naming the node, and the run's other cases that did not pass
// skip naming it, rather than "not-measured" or a bandwidth failure that points elsewhere.
void ApplyNcclRunDeaths(const SuiteContext& context, std::vector<CheckResult>& results) {
  if (!context.profile.ExpectsGpus()) return;  // the run's cases are skipped, saying why
  std::vector<resource_limits::ClassifiedDeath> deaths = ReadNcclRunDeaths(context.raw);
  for (auto& death : deaths) death.own_check = kNcclFloors;
  resource_limits::ApplyDeaths(results, deaths, kSuite, [](const CheckResult& result, const auto&) {
    return result.check == kNcclCorrect || result.check == kNcclEfficiency;
  });
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  JudgeOwnNcclRun(context, results);
  ApplyNcclRunDeaths(context, results);
  if (!context.world_problem.empty()) {
    // The ranks stalled (in MPI_Init or inside the measurement): that is the MPI verdict.
    for (const char* check : {kMpiFloors, kMpiCorrect, kMpiBlame, kMpiEfficiency}) {
      results.push_back(Cluster(check, Errored("world-stalled", context.world_problem)));
    }
    JudgeNcclTests(context, results);
    return results;
  }
  // The profile's floors are NCCL figures on GPU clusters; there the MPI host path is
  // recorded, not judged against them.
  JudgeTable(context, MpiAllreduceProbe().id, kMpiFloors, kMpiCorrect, !context.profile.ExpectsGpus(),
             "profile " + context.profile.name + " states NCCL floors for GPUs; the MPI host path is recorded only",
             results);
  JudgeMpiSweep(context, results);
  ApplySweepDeaths(context, results);
  JudgeNcclTests(context, results);
  return results;
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary =
        "allreduce busbw at the profile's named sizes meets its floors (NCCL and MPI backends, nccl-tests output)",
    .checks = {
        {kMpiFloors,
         "MPI_Allreduce busbw across the world is at or above the profile's floor at each named size", false},
        {kMpiCorrect, "every MPI_Allreduce result was correct", false},
        {kMpiBlame, "no node's pairs run at under fabric.slow_pair_fraction (default half) of the fastest pair's busbw (the slow node is named)", false},
        {kMpiEfficiency, "busbw is at least the profile's fraction of the declared per-node fabric bandwidth", false},
        {kNcclFloors, "gpuconform's NCCL allreduce busbw across all GPUs is at or above the profile's floor at each "
                      "named size", false},
        {kNcclCorrect, "every element of every NCCL allreduce result was correct", false},
        {kNcclEfficiency, "NCCL busbw is at least the profile's fraction of the declared per-node fabric bandwidth",
         false},
        {kNcclTestsFloors, "nccl-tests all_reduce_perf busbw is at or above the profile's floor at each named size",
         false},
        {kNcclTestsCorrect, "nccl-tests reported no wrong results (#wrong = 0)", false},
        {kNcclTestsEfficiency,
         "nccl-tests busbw is at least the profile's fraction of the declared per-node fabric bandwidth", false},
    },
    .probes = {nccl_run::NcclAllreduceProbe(), MpiAllreduceProbe(), NcclTestsOutputProbe(), nccl_log::DebugLogProbe()},
    .evaluate = Evaluate,
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::allreduce
