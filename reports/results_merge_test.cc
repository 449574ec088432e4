// Merging the results documents of several runs into one fleet report.
#include "reports/results_merge.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "harness/core/process_runner.h"
#include "reports/json_report.h"
#include "tests/support/json_schema_validator.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

MergeInput RunDocument(const std::string& origin, const std::string& ended, std::vector<std::string> nodes,
                       std::vector<CheckResult> results) {
  MergeInput input{origin, {}};
  input.document.record.run_id = origin + "00000000";
  input.document.record.started_utc = ended;
  input.document.record.ended_utc = ended;
  input.document.record.profile = "h100-sxm-8";
  input.document.record.nodes = std::move(nodes);
  input.document.cases = std::move(results);
  return input;
}

CheckResult GresFailure(const std::string& node) {
  return Failed("SlurmGres", "GresMatchesHardware", node, {{"gres-vs-hardware", node, node + ": 7 of 8 GPUs"}});
}

const CheckResult* Find(const std::vector<CheckResult>& results, const std::string& name) {
  for (const auto& result : results) {
    if (result.TestName() == name) return &result;
  }
  return nullptr;
}

TEST(ResultsMerge, EachNodesNewestResultWinsAndConflictsAreListed) {
  // Listed newest first on purpose: the merge orders by end time, not by argument order.
  const MergedResults merged =
      MergeResults({RunDocument("b.json", "2026-12-04T11:00:00Z", {"node2", "node3"},
                                {Passed("SlurmGres", "GresMatchesHardware", "node2"), GresFailure("node3")}),
                    RunDocument("a.json", "2026-12-04T10:00:00Z", {"node1", "node2"},
                                {Passed("SlurmGres", "GresMatchesHardware", "node1"), GresFailure("node2")})},
                   "feedfacefeedfacefeedfacefeedface");
  ASSERT_EQ(merged.document.cases.size(), 3u);
  EXPECT_EQ(Find(merged.document.cases, "SlurmGres.GresMatchesHardware/node1")->verdict, Verdict::kPass);
  EXPECT_EQ(Find(merged.document.cases, "SlurmGres.GresMatchesHardware/node2")->verdict, Verdict::kPass)
      << "b.json judged node2 later";
  EXPECT_EQ(Find(merged.document.cases, "SlurmGres.GresMatchesHardware/node3")->verdict, Verdict::kFail);
  ASSERT_EQ(merged.conflicts.size(), 1u);
  EXPECT_EQ(merged.conflicts[0].test_name, "SlurmGres.GresMatchesHardware/node2");
  EXPECT_EQ(merged.conflicts[0].other_verdict, "fail");
  EXPECT_NE(RenderConflicts(merged.conflicts).find("fail in a.json (run a.json00), pass in b.json (run b.json00)"),
            std::string::npos)
      << RenderConflicts(merged.conflicts);
  const RunRecord& run = merged.document.record;
  EXPECT_EQ(run.nodes, (std::vector<std::string>{"node1", "node2", "node3"}));
  EXPECT_EQ(run.started_utc, "2026-12-04T10:00:00Z");
  EXPECT_EQ(run.ended_utc, "2026-12-04T11:00:00Z");
  EXPECT_EQ(run.mode, "merge of 2 runs");
  EXPECT_EQ(run.run_id, "feedfacefeedfacefeedfacefeedface");
}

// Case by case: a newer run with another --filter replaces only the cases it has, and a newer
// run's error about a node it did not judge (--require-all-nodes) never replaces the verdict of the
// run that judged the node.
TEST(ResultsMerge, ANewerRunReplacesOnlyTheCasesItJudged) {
  const MergedResults merged = MergeResults(
      {RunDocument("gres.json", "2026-12-04T10:00:00Z", {"node1", "node2"},
                   {Passed("SlurmGres", "GresMatchesHardware", "node1"), GresFailure("node2")}),
       RunDocument("munge.json", "2026-12-04T11:00:00Z", {"node1", "node2"},
                   {Passed("Munge", "KeyFileProtected", "node1"), Passed("Munge", "KeyFileProtected", "node2")}),
       RunDocument("other-partition.json", "2026-12-04T12:00:00Z", {"node9"},
                   {Errored("SlurmGres", "GresMatchesHardware", "node2", "tool-missing", "node2: ran no task")})},
      "feedfacefeedfacefeedfacefeedface");
  ASSERT_NE(Find(merged.document.cases, "SlurmGres.GresMatchesHardware/node2"), nullptr)
      << "the Munge-only run does not erase the GRES failure";
  EXPECT_EQ(Find(merged.document.cases, "SlurmGres.GresMatchesHardware/node2")->verdict, Verdict::kFail)
      << "the newest run did not judge node2, so its error does not replace the failure";
  EXPECT_EQ(Find(merged.document.cases, "Munge.KeyFileProtected/node2")->verdict, Verdict::kPass);
  EXPECT_EQ(merged.document.cases.size(), 4u);
  ASSERT_EQ(merged.conflicts.size(), 1u);
  EXPECT_EQ(merged.conflicts[0].other_verdict, "error");
  EXPECT_EQ(merged.conflicts[0].kept_verdict, "fail");
}

TEST(ResultsMerge, ClusterWideCaseKeepsTheWorstVerdictWithEveryRunsFindings) {
  const MergedResults merged = MergeResults(
      {RunDocument(
           "a.json", "2026-12-04T10:00:00Z", {"node1"},
           {Failed("AllreduceBandwidth", "MpiBusbwAtFloors", "", {{"busbw-below-floor", "", "partition a: 20 GB/s"}})}),
       RunDocument("b.json", "2026-12-04T11:00:00Z", {"node2"}, {Passed("AllreduceBandwidth", "MpiBusbwAtFloors")}),
       RunDocument("c.json", "2026-12-04T12:00:00Z", {"node3"},
                   {Failed("AllreduceBandwidth", "MpiBusbwAtFloors", "",
                           {{"busbw-below-floor", "", "partition c: 25 GB/s"}})})},
      "x");
  ASSERT_EQ(merged.document.cases.size(), 1u);
  const CheckResult& kept = merged.document.cases[0];
  EXPECT_EQ(kept.verdict, Verdict::kFail) << "a newer pass does not hide an older partition's failure";
  ASSERT_EQ(kept.findings.size(), 2u);
  EXPECT_TRUE(merged.conflicts.empty());
}

TEST(ResultsMerge, NotCoveredAreTheNodesNoRunJudged) {
  auto a =
      RunDocument("a.json", "2026-12-04T10:00:00Z", {"node1"}, {Passed("SlurmGres", "GresMatchesHardware", "node1")});
  a.document.record.not_covered = {"node2", "node3"};
  auto b =
      RunDocument("b.json", "2026-12-04T11:00:00Z", {"node2"}, {Passed("SlurmGres", "GresMatchesHardware", "node2")});
  b.document.record.not_covered = {"node1", "node3"};
  b.document.cases.push_back(
      Failed("SlurmNodes", "NodeUsable", "node3", {{"node-unusable", "node3", "node3 is DOWN"}}));
  const MergedResults merged = MergeResults({a, b}, "x");
  EXPECT_EQ(merged.document.record.not_covered, std::vector<std::string>{"node3"});
  ASSERT_NE(Find(merged.document.cases, "SlurmNodes.NodeUsable/node3"), nullptr)
      << "the controller's view of a node no run judged is kept";
}

TEST(ResultsMerge, CoverageAndNodeActionsSurviveTheDocument) {
  RunRecord run;
  run.run_id = "0123456789abcdef0123456789abcdef";
  run.started_utc = run.ended_utc = "2026-12-04T10:00:00Z";
  run.profile = "local";
  run.mode = "live";
  run.nodes = {"node1", "node2"};
  run.not_covered = {"node3"};
  run.node_actions = {{"node2", "drain", "SlurmGres.GresMatchesHardware/node2: gres-vs-hardware (configuration)",
                       "gpuconform: gres-vs-hardware: x run=01234567", "done"}};
  auto read = ParseResultsDocument(RenderResultsJsonText({run, {GresFailure("node2")}}), "r.json");
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->record.not_covered, std::vector<std::string>{"node3"});
  ASSERT_EQ(read->record.node_actions.size(), 1u);
  EXPECT_EQ(read->record.node_actions[0].slurm_reason, "gpuconform: gres-vs-hardware: x run=01234567");
  EXPECT_EQ(read->record.node_actions[0].outcome, "done");
}

// Two real captures of the local cluster (gres-mismatch on node2, then healthy), judged and merged
// by the binary: the newer healthy run wins on node2, the conflict is listed, the document validates.
TEST(ResultsMerge, BinaryMergesTwoRunsIntoOneValidDocument) {
  const std::string snapshots = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/";
  const auto dir = std::filesystem::temp_directory_path() / ("gpuconform-merge-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string older = (dir / "older.json").string(), newer = (dir / "newer.json").string();
  const std::string merged = (dir / "fleet.json").string();
  const std::string filter = "SlurmGres.GresConfMatchesSlurmConf";
  RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", snapshots + "local-3node-gres-mismatch", "--profile", "local",
              "--filter", filter, "--json", older},
             std::chrono::seconds(60));
  RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", snapshots + "local-3node-healthy", "--profile", "local",
              "--filter", filter, "--json", newer},
             std::chrono::seconds(60));
  const CommandResult run =
      RunCommand({GPUCONFORM_BINARY, "merge", older, newer, "--json", merged}, std::chrono::seconds(60));
  EXPECT_EQ(run.exit_code, 0) << run.stdout_text << run.stderr_text;
  EXPECT_NE(run.stdout_text.find("1 conflict(s); each case is kept from the newest run that judged its node"),
            std::string::npos)
      << run.stdout_text;
  EXPECT_NE(run.stdout_text.find("SlurmGres.GresConfMatchesSlurmConf/node2: fail in"), std::string::npos)
      << run.stdout_text;
  if (test_support::JsonSchemaValidatorInstalled()) {
    const auto [valid, output] = test_support::ValidateAgainstSchema(
        std::filesystem::path(GPUCONFORM_SOURCE_DIR) / "schemas/results.schema.json", {merged});
    EXPECT_TRUE(valid) << output;
  }
  const CommandResult missing = RunCommand(
      {GPUCONFORM_BINARY, "merge", older, (dir / "absent.json").string(), "--json", merged}, std::chrono::seconds(60));
  EXPECT_EQ(missing.exit_code, 2);
  std::filesystem::remove_all(dir);
}

// The fleet's drain plan from merged results, always a dry run: a recorded H100 node with an
// NVLink down is planned for a drain (with exclude.hostlist beside the plan) while the older run
// is the only one; once a newer run found the node healthy, nothing is drained.
TEST(ResultsMerge, BinaryWritesTheFleetsDrainPlanAsADryRun) {
  const std::string snapshots = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/";
  const auto dir = std::filesystem::temp_directory_path() / ("gpuconform-merge-plan-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string older = (dir / "older.json").string(), newer = (dir / "newer.json").string();
  const std::string merged = (dir / "fleet.json").string(), plan = (dir / "plan.json").string();
  RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", snapshots + "topo-h100-nvlink-down", "--profile", "h100-sxm-8",
              "--filter", "NvSwitch.*", "--json", older},
             std::chrono::seconds(60));
  RunCommand({GPUCONFORM_BINARY, "run", "--snapshot", snapshots + "topo-h100-healthy", "--profile", "h100-sxm-8",
              "--filter", "NvSwitch.*", "--json", newer},
             std::chrono::seconds(60));
  // No scontrol to ask (an empty PATH), whatever runs on this machine: the plan lists the faulty nodes.
  const CommandResult planned = RunCommand(
      {"env", "PATH=/nonexistent", GPUCONFORM_BINARY, "merge", older, "--json", merged, "--drain-plan", plan},
      std::chrono::seconds(60));
  EXPECT_NE(planned.exit_code, 2) << planned.stdout_text << planned.stderr_text;
  EXPECT_NE(planned.stdout_text.find("hgx-node-01: drain"), std::string::npos) << planned.stdout_text;
  EXPECT_EQ(test_support::ReadFile(dir / "exclude.hostlist"), "hgx-node-01\n");
  const nlohmann::json plan_document = nlohmann::json::parse(test_support::ReadFile(plan));
  ASSERT_EQ(plan_document["nodes"].size(), 1u) << plan_document.dump(2);
  EXPECT_EQ(plan_document["nodes"][0]["action"], "drain");
  EXPECT_EQ(plan_document["nodes"][0]["outcome"], "planned");
  EXPECT_FALSE(plan_document["drains_applied"].get<bool>());
  if (test_support::JsonSchemaValidatorInstalled()) {
    const auto [valid, output] = test_support::ValidateAgainstSchema(
        std::filesystem::path(GPUCONFORM_SOURCE_DIR) / "schemas/results.schema.json", {merged});
    EXPECT_TRUE(valid) << output;
  }
  const CommandResult healed = RunCommand(
      {"env", "PATH=/nonexistent", GPUCONFORM_BINARY, "merge", older, newer, "--json", merged, "--drain-plan", plan},
      std::chrono::seconds(60));
  EXPECT_NE(healed.exit_code, 2) << healed.stdout_text << healed.stderr_text;
  EXPECT_NE(healed.stdout_text.find("nothing to drain or resume"), std::string::npos) << healed.stdout_text;
  EXPECT_EQ(test_support::ReadFile(dir / "exclude.hostlist"), "\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpuconform
