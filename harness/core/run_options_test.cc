// RunOptions: one place reads the environment; the command line beats it, it beats the
// defaults, and a value that does not parse keeps the default. The Environment table
// of docs/reference.md names exactly the variables the options read.
#include "harness/core/run_options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace gpuconform {
namespace {

CommandLineSettings NoOptions() { return CommandLineSettings{}; }

TEST(RunOptions, DefaultsWithAnEmptyEnvironment) {
  const RunOptions options = BuildRunOptions(NoOptions(), {});
  EXPECT_EQ(options.profile, kDefaultProfile);
  EXPECT_EQ(options.collective_timeout_s, 60);
  EXPECT_EQ(options.checkpoint_stage_timeout_s, 120);
  EXPECT_EQ(options.world_timeout_s, 120);
  EXPECT_EQ(options.allreduce_max_bytes, 0);
  EXPECT_EQ(options.allreduce_iters, 0);
  EXPECT_EQ(options.dev_dir, "/dev");
  EXPECT_EQ(options.sysfs_root, "/sys");
  EXPECT_TRUE(options.checkpoint_dir.empty());
  EXPECT_FALSE(options.munge_key);
  EXPECT_EQ(options.launch.rank, 0);
  EXPECT_EQ(options.launch.slurm_step_num_tasks, 1);
}

TEST(RunOptions, CommandLineBeatsEnvironmentBeatsDefault) {
  CommandLineSettings cli;
  const Environment env = {{"GPUCONFORM_PROFILE", "local"}, {"GPUCONFORM_CHECKPOINT_DIR", "/env/ckpt"}};
  EXPECT_EQ(BuildRunOptions(cli, {}).profile, kDefaultProfile);
  EXPECT_EQ(BuildRunOptions(cli, env).profile, "local");
  EXPECT_EQ(BuildRunOptions(cli, env).checkpoint_dir, "/env/ckpt");
  cli.profile = "gpu-h100";
  cli.checkpoint_dir = "/cli/ckpt";
  EXPECT_EQ(BuildRunOptions(cli, env).profile, "gpu-h100");
  EXPECT_EQ(BuildRunOptions(cli, env).checkpoint_dir, "/cli/ckpt");
}

TEST(RunOptions, DeadlineIsADurationAndTheJobsEndTimeComesFromSlurm) {
  EXPECT_EQ(ParseDeadlineSeconds("600"), 600);
  EXPECT_EQ(ParseDeadlineSeconds("90s"), 90);
  EXPECT_EQ(ParseDeadlineSeconds("45m"), 45 * 60);
  EXPECT_EQ(ParseDeadlineSeconds("2h"), 7200);
  EXPECT_EQ(ParseDeadlineSeconds("1h30m"), 5400);
  for (const char* bad : {"", "0", "0s", "-5", "10x", "1h30", "m", "1.5h", "99999999999"}) {
    EXPECT_FALSE(ParseDeadlineSeconds(bad)) << bad;
  }
  CommandLineSettings cli;
  cli.deadline_s = 300;
  const RunOptions options = BuildRunOptions(cli, {{"SLURM_JOB_END_TIME", "1796000000"}});
  EXPECT_EQ(options.deadline_s, 300);
  EXPECT_EQ(options.slurm_job_end_time, 1796000000LL);
  EXPECT_EQ(BuildRunOptions(NoOptions(), {}).slurm_job_end_time, 0);
}

TEST(RunOptions, EnvironmentBeatsDefault) {
  const Environment env = {{"GPUCONFORM_COLLECTIVE_TIMEOUT_S", "5"}, {"GPUCONFORM_WORLD_TIMEOUT_S", "7"},
                           {"GPUCONFORM_ALLREDUCE_MAX_BYTES", "8388608"}, {"GPUCONFORM_ALLREDUCE_ITERS", "3"},
                           {"GPUCONFORM_CHECKPOINT_KILLS", "9"}, {"GPUCONFORM_DEV_DIR", "/fake/%n/dev"},
                           {"GPUCONFORM_SYSFS_ROOT", "/fake/sys"}, {"GPUCONFORM_MUNGE_KEY", "/k"}};
  const RunOptions options = BuildRunOptions(NoOptions(), env);
  EXPECT_EQ(options.collective_timeout_s, 5);
  EXPECT_EQ(options.checkpoint_stage_timeout_s, 5) << "one variable sets both deadlines";
  EXPECT_EQ(options.world_timeout_s, 7);
  EXPECT_EQ(options.allreduce_max_bytes, 8388608);
  EXPECT_EQ(options.allreduce_iters, 3);
  EXPECT_EQ(options.checkpoint_kills, 9);
  EXPECT_EQ(options.dev_dir, "/fake/%n/dev");
  EXPECT_EQ(options.sysfs_root, "/fake/sys");
  EXPECT_EQ(options.munge_key, "/k");
}

TEST(RunOptions, GarbageAndNonPositiveNumbersKeepTheDefault) {
  const Environment env = {{"GPUCONFORM_COLLECTIVE_TIMEOUT_S", "soon"}, {"GPUCONFORM_WORLD_TIMEOUT_S", "-3"},
                           {"GPUCONFORM_ALLREDUCE_MAX_BYTES", "big"}, {"GPUCONFORM_ALLREDUCE_ITERS", "0"},
                           {"GPUCONFORM_CHECKPOINT_KILLS", ""}};
  const RunOptions options = BuildRunOptions(NoOptions(), env);
  EXPECT_EQ(options.collective_timeout_s, 60);
  EXPECT_EQ(options.checkpoint_stage_timeout_s, 120);
  EXPECT_EQ(options.world_timeout_s, 120);
  EXPECT_EQ(options.allreduce_max_bytes, 0);
  EXPECT_EQ(options.allreduce_iters, 0);
  EXPECT_EQ(options.checkpoint_kills, 0);
}

TEST(RunOptions, EmptyPathsAreUnset) {
  const Environment env = {{"GPUCONFORM_DEV_DIR", ""}, {"NCCL_TOPO_FILE", ""}, {"GPUCONFORM_NCCL_LOG", ""}};
  const RunOptions options = BuildRunOptions(NoOptions(), env);
  EXPECT_EQ(options.dev_dir, "/dev");
  EXPECT_TRUE(options.nccl_topo_file.empty());
  EXPECT_TRUE(options.nccl_log.empty());
}

TEST(RunOptions, LauncherFactsAndNcclPassThrough) {
  const Environment env = {{"SLURM_PROCID", "4"}, {"PMIX_RANK", "3"}, {"SLURM_STEP_ID", "0"},
                           {"SLURM_STEP_NUM_TASKS", "8"}, {"NCCL_IB_HCA", "mlx5_0"}, {"NCCL_DEBUG", "TRACE"},
                           {"NCCLX", "not nccl's"}, {"SLURM_JOB_ID", "42"}};
  const RunOptions options = BuildRunOptions(NoOptions(), env);
  EXPECT_EQ(options.launch.rank, 3) << "PMIX_RANK comes first";
  EXPECT_TRUE(options.launch.pmix);
  EXPECT_TRUE(options.launch.slurm_step);
  EXPECT_FALSE(options.launch.mpirun);
  EXPECT_EQ(options.launch.slurm_step_num_tasks, 8);
  const std::map<std::string, std::string> nccl = {{"NCCL_DEBUG", "TRACE"}, {"NCCL_IB_HCA", "mlx5_0"}};
  EXPECT_EQ(options.nccl_environment, nccl);
  const std::vector<std::pair<std::string, std::string>> launch = {
      {"SLURM_JOB_ID", "42"}, {"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "4"}, {"PMIX_RANK", "3"},
      {"NCCL_IB_HCA", "mlx5_0"}};
  EXPECT_EQ(options.launch_environment, launch) << "in the Launch suite's order";
}

TEST(RunOptions, ReadEnvironmentKeepsTheFirstDefinitionAndSkipsMalformedEntries) {
  const char* entries[] = {"A=1", "B=x=y", "A=2", "MALFORMED", "EMPTY=", nullptr};
  const Environment env = ReadEnvironment(entries);
  const Environment expected = {{"A", "1"}, {"B", "x=y"}, {"EMPTY", ""}};
  EXPECT_EQ(env, expected);
}

// Every `NAME` in the first cell of a row of the "## Environment" table in docs/reference.md.
std::set<std::string> DocsEnvironmentNames() {
  std::ifstream in(std::string(GPUCONFORM_SOURCE_DIR) + "/docs/reference.md");
  std::string line;
  bool inside = false;
  std::set<std::string> names;
  static const std::regex kName("`([A-Z_*]+)`");
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Environment";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const std::string first_cell = line.substr(1, line.find('|', 1) - 1);
    for (std::sregex_iterator it(first_cell.begin(), first_cell.end(), kName), end; it != end; ++it) {
      names.insert((*it)[1]);
    }
  }
  return names;
}

TEST(RunOptions, DocsEnvironmentTableNamesEveryVariableTheOptionsRead) {
  std::set<std::string> table;
  for (const auto& variable : kEnvironmentVariables) {
    EXPECT_TRUE(table.insert(variable.name).second) << variable.name << " twice in kEnvironmentVariables";
  }
  EXPECT_EQ(DocsEnvironmentNames(), table);
}

}  // namespace
}  // namespace gpuconform
