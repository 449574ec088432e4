// Collectives glue: the MPI collectives probe's tables (cluster/mpi-collectives.txt), read once
// into one table per collective (probes/mpi_sweep/mpi_collectives_facts.h) and judged against
// the profile's `collectives:` floors, one check per collective, plus their correctness.
// A collective without a floor is skipped before anything is read; a table not given (no file in
// the snapshot, one rank) is skipped saying so; a step that failed is an error quoting it.
#include <algorithm>
#include <optional>
#include <string>

#include "harness/core/suite_registry.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/mpi_sweep/collectives_profile.h"
#include "probes/mpi_sweep/mpi_collectives_facts.h"
#include "probes/mpi_sweep/mpi_collectives_probe.h"
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

const allreduce_sweep::CollectiveDefinition& Named(const std::string& name) {
  return *std::find_if(allreduce_sweep::BeyondAllreduce().begin(), allreduce_sweep::BeyondAllreduce().end(),
                       [&](const auto& collective) { return collective.name == name; });
}

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "MPI alltoall, allgather and reduce_scatter busbw at the profile's named sizes meets its floors, "
                 "and every element arrives",
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
      },
      .probes = {MpiCollectivesProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::collectives
