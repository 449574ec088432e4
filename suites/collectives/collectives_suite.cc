// Collectives glue: the MPI collectives probe's tables (cluster/mpi-collectives.txt), read once
// into one table per collective (probes/mpi_sweep/mpi_collectives_facts.h) and judged against
// the profile's `collectives:` floors, one check per collective, plus their correctness; the
// same for gpuconform's NCCL run (cluster/nccl-collectives.txt, `nccl_collectives:` floors), and
// its communicator init time (cluster/nccl-init.txt) against `nccl_init:`'s ceiling.
// A collective without a floor, or a profile without a ceiling, is skipped before anything is
// read; an MPI table not given (no file in the snapshot, one rank) is skipped saying so; an NCCL
// output not given is an error under a profile that expects GPUs (NCCL should run there) and a
// skip otherwise; a run that failed is an error quoting it.
#include <algorithm>
#include <optional>
#include <string>

#include "harness/core/suite_registry.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/mpi_sweep/collectives_profile.h"
#include "probes/mpi_sweep/mpi_collectives_facts.h"
#include "probes/mpi_sweep/mpi_collectives_probe.h"
#include "probes/nccl_run/nccl_run_facts.h"
#include "probes/nccl_run/nccl_run_probe.h"
#include "probes/nccl_run/nccl_run_profile.h"
#include "suites/collectives/collectives_checks.h"

namespace gpuconform::collectives {

using namespace gpuconform::mpi_sweep;

namespace {

// The tables, judged by `judge(tables, context)`; where they could not be read, why. A stalled
// world is the verdict of every collective check, as in AllreduceBandwidth.
template <typename Judge>
CheckJudge TablesCheck(Judge judge) {
  return [judge](const SuiteContext& context, const std::string&) {
    if (!context.world_problem.empty()) return Errored("world-stalled", context.world_problem);
    const RawOutput out = context.raw.ClusterOutput(MpiCollectivesProbe().id);
    if (out.status == ProbeStatus::kToolMissing || out.status == ProbeStatus::kAbsent) return Skipped(out.detail);
    if (!out.ok()) return Errored("not-measured", out.detail);
    const Result<CollectiveTables>& tables = ReadCollectiveTables(context.raw);
    if (!tables) return Errored("unparseable", tables.error());
    return judge(*tables, context);
  };
}

// `collective`'s busbw against its floors; skipped, before anything is read, where the profile
// sets it no floor (every GPU profile: no public source states a host-buffer MPI floor there).
CheckDefinition FloorCheck(const char* name, const allreduce_sweep::CollectiveDefinition& collective) {
  const std::string collective_name = collective.name;
  return {.name = name,
          .requirement = collective.mpi_call +
                         " busbw (host buffers, across the world) is at or above the profile's collectives floor at "
                         "each named size",
          .judge = TablesCheck([collective_name](const CollectiveTables& tables, const SuiteContext& context) {
            return CheckCollectiveBusbwAtFloors(collective_name, tables, context.profile);
          }),
          .not_applicable = [collective_name](const SuiteContext& context,
                                              const std::string&) -> std::optional<std::string> {
            if (!FloorsOf(context.profile.GetOrDefault<CollectiveFloors>(), collective_name).empty()) {
              return std::nullopt;
            }
            return "profile " + context.profile.name + " sets no " + collective_name +
                   " busbw floor (collectives section)";
          }};
}

// --- gpuconform's NCCL run (probes/nccl_run) ---

// One of the NCCL run's outputs that was not given: NCCL is expected where the profile expects
// GPUs, so its absence is an error there, and a skip elsewhere.
CheckResult NcclNotGiven(const RawOutput& out, const SuiteContext& context) {
  if (context.profile.ExpectsGpus()) return Errored(ProbeStatusReason(out.status), out.detail);
  return Skipped("profile " + context.profile.name + " expects no GPUs (" + out.detail + ")");
}

bool NotGiven(const RawOutput& out) {
  return out.status == ProbeStatus::kToolMissing || out.status == ProbeStatus::kAbsent;
}

// The NCCL run's tables, judged by `judge(results, context)`; where they could not be read, why.
template <typename Judge>
CheckJudge NcclTablesCheck(Judge judge) {
  return [judge](const SuiteContext& context, const std::string&) {
    if (!context.world_problem.empty()) return Errored("world-stalled", context.world_problem);
    const RawOutput out = context.raw.ClusterOutput(nccl_run::NcclCollectivesProbe().id);
    if (NotGiven(out)) return NcclNotGiven(out, context);
    if (!out.ok()) return Errored("not-measured", out.detail);
    const Result<nccl_run::NcclCollectiveResults>& results = nccl_run::ReadNcclCollectives(context.raw);
    if (!results) return Errored("unparseable", results.error());
    return judge(*results, context);
  };
}

std::vector<CollectiveFloor> NcclFloorsOf(const Profile& profile, const std::string& collective) {
  return FloorsOf(CollectiveFloors{profile.GetOrDefault<nccl_run::NcclCollectiveFloors>().floors}, collective);
}

// `collective`'s NCCL busbw against its `nccl_collectives:` floors; skipped, before anything is
// read, where the profile sets it none; an error quoting the worker where this NCCL lacks it.
CheckDefinition NcclFloorCheck(const char* name, const allreduce_sweep::CollectiveDefinition& collective) {
  const std::string collective_name = collective.name;
  return {.name = name,
          .requirement = "NCCL " + collective.name + " busbw (GPU buffers, every GPU of every node) is at or above "
                         "the profile's nccl_collectives floor at each named size",
          .judge = NcclTablesCheck([collective_name](const nccl_run::NcclCollectiveResults& results,
                                                     const SuiteContext& context) {
            const auto missing = results.not_measured.find(collective_name);
            if (missing != results.not_measured.end()) {
              return Errored("not-measured", "NCCL " + collective_name + " not measured: " + missing->second);
            }
            return CheckCollectiveBusbwAtFloors(collective_name, NcclFloorsOf(context.profile, collective_name),
                                                results.tables, context.profile, NcclBackend());
          }),
          .not_applicable = [collective_name](const SuiteContext& context,
                                              const std::string&) -> std::optional<std::string> {
            if (!NcclFloorsOf(context.profile, collective_name).empty()) return std::nullopt;
            return "profile " + context.profile.name + " sets no NCCL " + collective_name +
                   " busbw floor (nccl_collectives section)";
          }};
}

CheckResult JudgeNcclCorrect(const nccl_run::NcclCollectiveResults& results, const SuiteContext&) {
  if (results.tables.empty() && !results.not_measured.empty()) {
    std::vector<std::string> reasons;
    for (const auto& [collective, reason] : results.not_measured) reasons.push_back(collective + ": " + reason);
    return ErroredEach("not-measured", reasons);
  }
  return CheckCollectivesCorrect(results.tables, NcclBackend());
}

CheckResult JudgeNcclInit(const SuiteContext& context, const std::string&) {
  if (!context.world_problem.empty()) return Errored("world-stalled", context.world_problem);
  const RawOutput out = context.raw.ClusterOutput(nccl_run::NcclInitProbe().id);
  if (NotGiven(out)) return NcclNotGiven(out, context);
  const Result<std::vector<nccl_run::NodeInit>>& nodes = nccl_run::ReadNcclInit(context.raw);
  if (!nodes) return Errored("unparseable", nodes.error());
  if (nodes->empty()) return Errored("not-measured", out.detail.empty() ? "no node's init time" : out.detail);
  return CheckNcclInitWithinCeiling(*nodes, *context.profile.Get<nccl_run::NcclInitCeiling>());
}

const allreduce_sweep::CollectiveDefinition& Named(const std::string& name) {
  return *std::find_if(allreduce_sweep::BeyondAllreduce().begin(), allreduce_sweep::BeyondAllreduce().end(),
                       [&](const auto& collective) { return collective.name == name; });
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "MPI and NCCL alltoall, allgather and reduce_scatter busbw at the profile's named sizes meets its "
                 "floors, every element arrives, and NCCL's communicator init stays under its ceiling",
      .checks = {
          FloorCheck(kMpiAlltoallBusbwAtFloors, Named("alltoall")),
          FloorCheck(kMpiAllgatherBusbwAtFloors, Named("allgather")),
          FloorCheck(kMpiReduceScatterBusbwAtFloors, Named("reduce_scatter")),
          {.name = kMpiCollectivesCorrect,
           .requirement = "every element of every alltoall, allgather and reduce_scatter result was correct",
           .judge = TablesCheck([](const CollectiveTables& tables, const SuiteContext&) {
             return CheckCollectivesCorrect(tables);
           }),
           .not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
             if (!CollectivesWithFloors(&context.profile).empty()) return std::nullopt;
             return "profile " + context.profile.name + " sets no collectives floor, so none is measured";
           }},
          NcclFloorCheck(kNcclAlltoallBusbwAtFloors, Named("alltoall")),
          NcclFloorCheck(kNcclAllgatherBusbwAtFloors, Named("allgather")),
          NcclFloorCheck(kNcclReduceScatterBusbwAtFloors, Named("reduce_scatter")),
          {.name = kNcclCollectivesCorrect,
           .requirement = "every element of every NCCL alltoall, allgather and reduce_scatter result was correct",
           .judge = NcclTablesCheck(JudgeNcclCorrect),
           .not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
             if (!nccl_run::NcclCollectivesWithFloors(&context.profile).empty()) return std::nullopt;
             return "profile " + context.profile.name + " sets no nccl_collectives floor, so none is measured";
           }},
          {.name = kNcclInitWithinCeiling,
           .requirement = "the slowest node's NCCL communicator init (ncclCommInitRank on all its GPUs) is at or under "
                          "the profile's nccl_init ceiling",
           .judge = JudgeNcclInit,
           .not_applicable = [](const SuiteContext& context, const std::string&) -> std::optional<std::string> {
             if (context.profile.Get<nccl_run::NcclInitCeiling>() != nullptr) return std::nullopt;
             return "profile " + context.profile.name + " sets no NCCL init ceiling (nccl_init section)";
           }},
      },
      .probes = {MpiCollectivesProbe(), nccl_run::NcclCollectivesProbe(), nccl_run::NcclInitProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::collectives
