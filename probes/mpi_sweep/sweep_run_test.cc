// LaunchRefusal: a step Slurm refused (the whole step, or one node's task launch) or whose
// launcher could not start is told from one that ran and failed, which is a measurement.
#include "probes/mpi_sweep/sweep_run.h"

#include <gtest/gtest.h>

namespace gpuconform::mpi_sweep {
namespace {

StepRun Exited(int status, std::string stderr_text) {
  StepRun run;
  run.result.outcome = CommandOutcome::kExited;
  run.result.exit_code = status;
  run.result.stderr_text = std::move(stderr_text);
  run.where = "node[2,7]";
  run.deadline = std::chrono::seconds(50);
  return run;
}

TEST(LaunchRefusal, SlurmRefusingTheStepOrANodesLaunchIsNoMeasurement) {
  const auto step = LaunchRefusal(Exited(1, "srun: error: Unable to create step for job 42: Invalid node name specified\n"));
  ASSERT_TRUE(step);
  EXPECT_EQ(*step, "Slurm refused its step: srun: error: Unable to create step for job 42: Invalid node name specified");
  const auto node = LaunchRefusal(
      Exited(1, "srun: error: Task launch for StepId=42.3 failed on node node7: Socket timed out on send/recv operation\n"));
  ASSERT_TRUE(node);
  EXPECT_NE(node->find("Slurm refused its task launch"), std::string::npos) << *node;
  EXPECT_NE(node->find("node7"), std::string::npos) << *node;
}

TEST(LaunchRefusal, ALauncherThatCouldNotStartIsNoMeasurement) {
  StepRun run;
  run.result.outcome = CommandOutcome::kNotFound;
  ASSERT_TRUE(LaunchRefusal(run));
  EXPECT_NE(LaunchRefusal(run)->find("srun or mpirun) is not on PATH"), std::string::npos);
}

TEST(LaunchRefusal, AStepThatRanAndFailedOrTimedOutIsAMeasurement) {
  EXPECT_FALSE(LaunchRefusal(Exited(0, "")));
  EXPECT_FALSE(LaunchRefusal(Exited(1, "srun: error: node7: task 1: Exited with exit code 3\n")));
  StepRun hung = Exited(0, "");
  hung.result.outcome = CommandOutcome::kTimedOut;
  EXPECT_FALSE(LaunchRefusal(hung));
}

}  // namespace
}  // namespace gpuconform::mpi_sweep
