// The health check's probe selection and budget, and the binary within its budget when a
// command hangs (a stand-in scontrol that sleeps: the hung-controller case).
#include "app/health_check_verb.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "harness/core/process_runner.h"
#include "harness/core/suite_registry.h"
#include "tests/support/json_schema_validator.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

TEST(HealthCheck, KeepsNodeProbesAndAsksTheControllerAboutThisNodeOnly) {
  std::vector<ProbeSpec> probes = {
      CommandProbe("scontrol-show-node", ProbeScope::kCluster, "s.txt", {"scontrol", "show", "node"}),
      CommandProbe("squeue-pending", ProbeScope::kCluster, "q.txt", {"squeue"}),
      CommandProbe("ip-link", ProbeScope::kNode, "l.txt", {"ip", "link"}),
      Active(CommandProbe("cuda-p2p", ProbeScope::kNode, "p.txt", {"x"})),
      Active(CommandProbe("fabric-reach", ProbeScope::kNode, "r.txt", {"x"}))};
  const auto quick = QuickProbes(probes, "node7");
  ASSERT_EQ(quick.size(), 2u);
  EXPECT_EQ(quick[0].id, "scontrol-show-node");
  EXPECT_EQ(quick[0].argv, (std::vector<std::string>{"scontrol", "show", "node", "node7"}));
  EXPECT_EQ(quick[1].id, "ip-link");
}

// DCGM's diagnostic and nvbandwidth load the GPUs for minutes, and the collectives measure or
// talk to other nodes: each declares itself active, and a health check never runs it, even
// where a profile lists its checks.
TEST(HealthCheck, NeverRunsTheActiveProbes) {
  const std::vector<ProbeSpec> probes = SuiteRegistry::Instance().AllProbes();
  std::set<std::string> active;
  for (const auto& probe : probes) {
    if (probe.active) active.insert(probe.id);
  }
  EXPECT_EQ(active, (std::set<std::string>{"checkpoint", "cuda-p2p", "dcgmi-diag-json", "dcgmi-diag-text",
                                           "fabric-reach", "mpi-allreduce", "mpi-collectives", "mpi-isolation", "nccl-allreduce",
                                           "nccl-collectives", "nccl-init", "nccl-topo", "nvbandwidth-json",
                                           "nvbandwidth-text"}));
  const auto quick = QuickProbes(probes, "node7");
  EXPECT_FALSE(quick.empty());
  for (const auto& probe : quick) EXPECT_FALSE(active.count(probe.id)) << probe.id;
}

TEST(HealthCheck, BudgetIsWholeSeconds) {
  EXPECT_EQ(BudgetSeconds("45s"), 45);
  EXPECT_EQ(BudgetSeconds("45"), 45);
  EXPECT_EQ(BudgetSeconds("0.5s"), 0);
  EXPECT_EQ(BudgetSeconds("s"), 0);
  EXPECT_EQ(BudgetSeconds("-3"), 0);
}

TEST(HealthCheck, HungControllerEndsWithinTheBudgetNamingTheProbe) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpuconform-hc-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream fake(dir / "scontrol");
    fake << "#!/bin/sh\nsleep 30\n";
  }
  std::filesystem::permissions(dir / "scontrol", std::filesystem::perms::owner_all);
  const std::string path = dir.string() + ":/usr/bin:/bin";
  const auto started = std::chrono::steady_clock::now();
  const std::string json = (dir / "health.json").string();
  const CommandResult run = RunCommand({"env", "PATH=" + path, "SLURMD_NODENAME=node9", GPUCONFORM_BINARY,
                                        "health-check", "--profile", "local", "--budget", "2s", "--json", json},
                                       60s);
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (test_support::JsonSchemaValidatorInstalled()) {
    const auto [valid, output] = test_support::ValidateAgainstSchema(
        std::filesystem::path(GPUCONFORM_SOURCE_DIR) / "schemas/results.schema.json", {json});
    EXPECT_TRUE(valid) << output;
  }
  std::filesystem::remove_all(dir);
  EXPECT_LT(elapsed_s, 10.0) << run.stdout_text << run.stderr_text;
  EXPECT_EQ(run.exit_code, 3) << "tooling errors only: " << run.stdout_text << run.stderr_text;
  EXPECT_NE(run.stdout_text.find("budget of 2 s ran out"), std::string::npos) << run.stdout_text;
  EXPECT_NE(run.stdout_text.find("scontrol-show-node"), std::string::npos) << run.stdout_text;
  EXPECT_NE(run.stdout_text.find("cannot drain or resume node9"), std::string::npos)
      << "no drain without the controller's record: " << run.stdout_text;
}

TEST(HealthCheck, ProfileWithoutHealthCheckSectionIsABadInvocation) {
  const auto profile = std::filesystem::temp_directory_path() / ("gpuconform-hc-" + std::to_string(getpid()) + ".yaml");
  {
    std::ofstream out(profile);
    out << "name: bare\ndescription: no health_check section\n";
  }
  const CommandResult run = RunCommand({GPUCONFORM_BINARY, "health-check", "--profile", profile.string()}, 30s);
  std::filesystem::remove(profile);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.stderr_text.find("no health_check section"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace gpuconform
