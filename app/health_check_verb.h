// `gpuconform health-check`: Slurm's HealthCheckProgram mode (NHC's job). On this node only,
// without MPI, it runs the checks the profile's health_check section lists, within a budget
// (slurmd kills the program at 60 s), and drains its own node on a hardware or configuration
// failure, since Slurm ignores the program's exit status.
// Contract: never hangs past the budget plus a second: each probe's deadline is cut to what is
// left, a probe that cannot start in time becomes a timed-out error naming the budget, and the
// message names the probe that was running when the budget ran out. Tooling errors never drain.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/cli.h"
#include "harness/core/probe.h"
#include "harness/core/run_options.h"

namespace gpuconform {

int HealthCheckVerb(const CommandLine& command, const RunOptions& options);

// The probes a health check may run: node-local and passive. Cluster-scope probes are dropped
// except `scontrol show node`, which is asked about this node alone; so are the probes that
// measure, load the GPUs or talk to other nodes (P2P bandwidth, NCCL, MPI, fabric reachability,
// checkpoint, DCGM's diagnostic, nvbandwidth).
std::vector<ProbeSpec> QuickProbes(const std::vector<ProbeSpec>& probes, const std::string& host);

// "45s" or "45" -> 45; 0 when it is not a whole number of seconds.
int BudgetSeconds(const std::string& text);

}  // namespace gpuconform
