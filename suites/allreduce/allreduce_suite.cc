// AllreduceBandwidth glue: gpuconform's own NCCL run, the MPI backend's live sweep and an
// operator's nccl-tests output, each parsed into one BandwidthTable and judged by the same floors. The nccl-tests
// judgements cite the NCCL_DEBUG=INFO log of the run when the snapshot has one.
#include <cstdlib>
#include <optional>

#include "harness/suite_registry.h"
#include "suites/allreduce/allreduce_checks.h"
#include "suites/allreduce/blame.h"
#include "probes/mpi_sweep/mpi_allreduce_probe.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
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

// cluster/all_reduce_perf.txt: nccl-tests output the operator already has. Live, it is the
// file named by RunOptions::nccl_tests_output (GPUCONFORM_NCCL_TESTS_OUTPUT), read when the
// probe runs: the spec is registered before the options exist.
ProbeSpec NcclTestsOutputProbe() {
  return BuiltinProbe("all_reduce_perf", ProbeScope::kCluster, "all_reduce_perf.txt", [](const LiveContext& context) {
    if (!context.options.nccl_tests_output.empty()) return ReadFileOutput(context.host, context.options.nccl_tests_output);
    return RawOutput{ProbeStatus::kToolMissing, "", context.host + ": nccl-tests output",
                     "no nccl-tests output given: set GPUCONFORM_NCCL_TESTS_OUTPUT=FILE (all_reduce_perf's output), "
                     "or put it in the snapshot as cluster/all_reduce_perf.txt"};
  });
}

// A judgement that does not apply to this profile is kept as a skip carrying its
// measurements, so the report still records what was measured.
CheckResult JudgedOrRecorded(CheckResult judged, bool applies, const std::string& not_applicable) {
  if (applies) return judged;
  CheckResult recorded = Skipped(kSuite, judged.check, "", not_applicable);
  recorded.measurements = std::move(judged.measurements);
  return recorded;
}

// A table that was not given is skipped (saying how to give it); one that failed is an error.
CheckResult NotMeasured(const RawOutput& out, const std::string& check) {
  const bool not_given = out.status == ProbeStatus::kToolMissing || out.status == ProbeStatus::kAbsent;
  return not_given ? Skipped(kSuite, check, "", out.detail)
                   : Errored(kSuite, check, "", "not-measured", out.detail);
}

// What the run's NCCL log says about the inter-node transport; nullopt without a usable log
// (NcclTransport reports why).
std::optional<nccl_log::InterNodeTransport> TransportFromLog(const SuiteContext& context) {
  const RawOutput out = context.raw.ClusterOutput(nccl_log::DebugLogProbe().id);
  if (!out.ok()) return std::nullopt;
  auto log = nccl_log::ParseNcclLog(out.text, out.origin);
  if (!log) return std::nullopt;
  return nccl_log::SummarizeInterNodeTransport(*log, context.profile);
}

// Judges one table with both checks; a missing or unreadable table makes both say why.
void JudgeTable(const RawOutput& out, const std::string& floors_check, const std::string& correct_check,
                const Profile& profile, bool floors_apply, const std::string& not_applicable,
                std::vector<CheckResult>& results, const nccl_log::InterNodeTransport* transport = nullptr) {
  if (!out.ok()) {
    for (const auto& check : {floors_check, correct_check}) results.push_back(NotMeasured(out, check));
    return;
  }
  auto table = ParseNcclTestsOutput(out.text, out.origin);
  if (!table) {
    results.push_back(Errored(kSuite, floors_check, "", "unparseable", table.error()));
    results.push_back(Errored(kSuite, correct_check, "", "unparseable", table.error()));
    return;
  }
  results.push_back(
      JudgedOrRecorded(CheckBusbwAtFloors(*table, profile, floors_check, transport), floors_apply, not_applicable));
  results.push_back(CheckResultsCorrect(*table, correct_check));
}

// The operator's nccl-tests output: floors and correctness, and efficiency against the
// declared fabric, each failure citing the run's NCCL log where there is one.
void JudgeNcclTests(const SuiteContext& context, std::vector<CheckResult>& results) {
  const RawOutput out = context.raw.ClusterOutput(NcclTestsOutputProbe().id);
  const auto transport = TransportFromLog(context);
  const nccl_log::InterNodeTransport* evidence = transport ? &*transport : nullptr;
  JudgeTable(out, kNcclTestsFloors, kNcclTestsCorrect, context.profile, true, "", results, evidence);
  if (!out.ok()) {
    results.push_back(NotMeasured(out, kNcclTestsEfficiency));
    return;
  }
  auto table = ParseNcclTestsOutput(out.text, out.origin);
  if (!table) {
    results.push_back(Errored(kSuite, kNcclTestsEfficiency, "", "unparseable", table.error()));
    return;
  }
  results.push_back(CheckEfficiencyAgainstFabric(*table, context.profile, kNcclTestsEfficiency, evidence));
}

// gpuconform's own NCCL run (nccl_run_probe.h): judged under a profile that expects GPUs,
// where NCCL missing is an error; under one that expects none, skipped saying why.
void JudgeOwnNcclRun(const SuiteContext& context, std::vector<CheckResult>& results) {
  const RawOutput out = context.raw.ClusterOutput(nccl_run::NcclAllreduceProbe().id);
  const char* checks[] = {kNcclFloors, kNcclCorrect, kNcclEfficiency};
  if (!context.profile.ExpectsGpus()) {
    const std::string why = "profile " + context.profile.name + " expects no GPUs" +
                            (out.ok() ? std::string() : " (" + out.detail + ")");
    for (const char* check : checks) results.push_back(Skipped(kSuite, check, "", why));
    return;
  }
  if (!out.ok()) {
    const bool not_there = out.status == ProbeStatus::kAbsent || out.status == ProbeStatus::kToolMissing;
    const ReasonCode kind = not_there ? ProbeStatusReason(out.status) : ReasonCode("not-measured");
    for (const char* check : checks) results.push_back(Errored(kSuite, check, "", kind, out.detail));
    return;
  }
  auto table = ParseNcclTestsOutput(out.text, out.origin);
  if (!table) {
    for (const char* check : checks) results.push_back(Errored(kSuite, check, "", "unparseable", table.error()));
    return;
  }
  const auto transport = TransportFromLog(context);
  const nccl_log::InterNodeTransport* evidence = transport ? &*transport : nullptr;
  results.push_back(CheckBusbwAtFloors(*table, context.profile, kNcclFloors, evidence));
  results.push_back(CheckResultsCorrect(*table, kNcclCorrect));
  results.push_back(CheckEfficiencyAgainstFabric(*table, context.profile, kNcclEfficiency, evidence));
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  JudgeOwnNcclRun(context, results);
  if (!context.world_problem.empty()) {
    // The ranks stalled (in MPI_Init or inside the measurement): that is the MPI verdict.
    for (const char* check : {kMpiFloors, kMpiCorrect, kMpiBlame, kMpiEfficiency}) {
      results.push_back(Errored(kSuite, check, "", "world-stalled", context.world_problem));
    }
    JudgeNcclTests(context, results);
    return results;
  }
  // The profile's floors are NCCL figures on GPU clusters; there the MPI host path is
  // recorded, not judged against them.
  const RawOutput mpi = context.raw.ClusterOutput(MpiAllreduceProbe().id);
  JudgeTable(mpi, kMpiFloors, kMpiCorrect, context.profile, !context.profile.ExpectsGpus(),
             "profile " + context.profile.name + " states NCCL floors for GPUs; the MPI host path is recorded only",
             results);
  if (mpi.ok()) {
    results.push_back(CheckNoSlowNode(ParsePairResults(mpi.text), ParseExcludedLines(mpi.text), kMpiBlame));
    auto table = ParseNcclTestsOutput(mpi.text, mpi.origin);
    if (!table) {
      results.push_back(Errored(kSuite, kMpiEfficiency, "", "unparseable", table.error()));
    } else {
      results.push_back(JudgedOrRecorded(CheckEfficiencyAgainstFabric(*table, context.profile, kMpiEfficiency),
                                         !context.profile.ExpectsGpus(),
                                         "the fabric bound is for NCCL on GPUs; the MPI host path is recorded only"));
    }
  } else if (mpi.status == ProbeStatus::kToolMissing || mpi.status == ProbeStatus::kAbsent) {
    results.push_back(Skipped(kSuite, kMpiBlame, "", "no pairwise measurement: " + mpi.detail));
    results.push_back(Skipped(kSuite, kMpiEfficiency, "", "no measurement: " + mpi.detail));
  } else if (!ParseExcludedLines(mpi.text).empty() || ParsePairResults(mpi.text).size() >= 3) {
    const auto pairs = ParsePairResults(mpi.text);
    const auto excluded = ParseExcludedLines(mpi.text);
    // The sweep did not complete, but the gate or the blame pass that followed it named nodes:
    // those are the verdict, and the sweep's own failure stays on the other checks.
    CheckResult blame = CheckNoSlowNode(pairs, excluded, kMpiBlame);
    if (blame.verdict != Verdict::kFail) blame = Errored(kSuite, kMpiBlame, "", "not-measured", mpi.detail);
    results.push_back(std::move(blame));
    results.push_back(Errored(kSuite, kMpiEfficiency, "", "not-measured", mpi.detail));
  } else {
    results.push_back(Errored(kSuite, kMpiBlame, "", "not-measured", mpi.detail));
    results.push_back(Errored(kSuite, kMpiEfficiency, "", "not-measured", mpi.detail));
  }
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
        {kMpiBlame, "no node's pairs run at under half the fastest pair's busbw (the slow node is named)", false},
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
