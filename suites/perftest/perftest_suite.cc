// Perftest suite glue: the pairing pass's results (probes/perftest/rail_pairs_facts.h), judged
// cluster-wide against the floor from the profile's InfiniBand rate; skipped, saying why, where
// the profile expects no InfiniBand/RoCE rails. An active test: never one of health-check's
// quick checks. And the registration.
#include "harness/core/suite_registry.h"
#include "probes/perftest/rail_pairs_facts.h"
#include "suites/perftest/rail_pair_checks.h"

namespace gpuconform::perftest {

namespace {

SuiteDefinition Definition() {
  return {
      .name = kSuite,
      .summary = "ib_write_bw between node pairs on every rail at 90% of the profile's link rate, the slow node "
                 "named by a second pass",
      .checks =
          {
              {.name = kRailPairsAtFloor,
               .requirement = "every rail's ib_write_bw pairs at >= 90% of infiniband.rate_gbit_per_s; a node slow in "
                              "every pair on a rail (second pass included) is named, not its partners",
               .judge = ReadThenJudge(
                   [](const SuiteContext& c, const std::string&) -> decltype(auto) { return ReadRailPairs(c.raw); },
                   [](const RailPairsFile& file, const SuiteContext& c, const std::string&) {
                     return CheckRailPairs(file, *RailFloorOf(c.profile));
                   }),
               .not_applicable = [](const SuiteContext& c, const std::string&) -> std::optional<std::string> {
                 if (RailFloorOf(c.profile)) return std::nullopt;
                 return "profile " + c.profile.name + " expects no InfiniBand or RoCE rails: no ib_write_bw pairs to measure";
               }},
              {.name = kRailLatencyConsistent,
               .requirement = "every rail's ib_write_lat pairs within twice the rail's median latency; a node high in "
                              "every pair on a rail is named, not its partners",
               .judge = ReadThenJudge(
                   [](const SuiteContext& c, const std::string&) -> decltype(auto) { return ReadRailPairs(c.raw); },
                   [](const RailPairsFile& file, const SuiteContext&, const std::string&) {
                     return CheckRailLatency(file.pairs);
                   }),
               .not_applicable = [](const SuiteContext& c, const std::string&) -> std::optional<std::string> {
                 if (RailFloorOf(c.profile)) return std::nullopt;
                 return "profile " + c.profile.name + " expects no InfiniBand or RoCE rails: no ib_write_lat pairs to measure";
               }},
          },
      .probes = {RailPairsProbe()},
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::perftest
