// One step of `gpuconform launch`: srun (or salloc) run with stdout passed through and stderr
// echoed line by line as it comes (the user watches progress) and kept (launch reads Slurm's
// errors from it).
// Contract: with end_on_start_failure, a task that ends before the step's world formed
// (srun_parse.h: StartFailureWatch) ends the step soon after: the other ranks would only wait
// out their world deadline, and launch reruns the step without that node. srun is asked the
// way Ctrl-C asks it (SIGINT twice within a second ends the step; a third kills its tasks), and
// is killed only if it does not end. I/O only; the decisions are srun_parse's.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/run_options.h"

namespace gpuconform::slurm {

struct StepOutcome {
  int exit_code = 2;
  std::string srun_stderr;
  std::string start_error;  // the command could not be started at all
  // The nodes whose task ended before the world formed, with srun's words; when not empty,
  // launch ended the step.
  std::vector<RefusedNode> exited_at_start;
};

StepOutcome RunStep(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& environment, bool end_on_start_failure);

// `launch` told to stop (harness/core/termination.h): ends the step running now so that its tasks
// end in order and rank 0 writes the report. An srun is asked as Ctrl-C asks it, twice, which
// passes SIGINT on to the tasks (SIGTERM would make srun SIGKILL them); an salloc is sent
// SIGTERM, which ends its job, and Slurm sends the tasks SIGTERM. Then waits, at most
// `wait`, until the step has ended; returns whether it did. Safe from any thread.
bool EndRunningStep(std::chrono::milliseconds wait);

}  // namespace gpuconform::slurm
