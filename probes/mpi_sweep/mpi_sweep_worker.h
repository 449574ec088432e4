// The MPI sweep's worker: `gpuconform __mpi-sweep`, one process per node, started as its own
// job step (sweep_step.h) so that Open MPI ending the step at a peer it cannot reach ends
// only the measurement, never the run that reports on it.
// It starts MPI, sweeps MPI_Allreduce (float, sum) on host buffers over the given sizes,
// checks every element, then measures neighbour pairs of nodes alone (pair_results.h), and
// rank 0 prints the table on stdout in nccl-tests' all_reduce_perf format. With
// --collectives it measures those collectives instead, a table each (collective_measure.h).
// Contract: every collective has a deadline (--timeout-s); when a rank stops progressing,
// the others print "<host>: <what> did not complete within S s ..." on stderr and exit 3,
// so the launcher ends the step and the run quotes the line. Exit 0 only with a full table.
#pragma once

#include <string>
#include <vector>

namespace gpuconform::mpi_sweep {

inline constexpr char kSweepWorkerVerb[] = "__mpi-sweep";

struct SweepWorkerOptions {
  std::vector<long long> sizes_bytes;  // the sweep, ascending
  int iterations = 0;                  // timed iterations per size; 0: the planned count
  int timeout_s = 60;                  // each collective's deadline
  long long pair_bytes = 0;            // the pairwise measurement's size; 0: no pairs
  // Set: the worker measures these collectives beyond allreduce (collectives.h) at the sizes
  // instead of the allreduce sweep and its pairs (collective_measure.h). Empty: the sweep.
  std::vector<std::string> collectives;
  // Set: before anything else, every rank exchanges a few bytes with every other rank, so that
  // a test of the isolation (mpi_isolation.h) fails where any pair of its nodes cannot talk,
  // which an allreduce ring, touching only neighbours, would not show.
  bool connect_every_pair = false;
};

// The worker's arguments after the verb: "--sizes 1048576,2097152 --iters 0 --timeout-s 60
// --pair-bytes 8388608", then "--collectives alltoall,allgather" where collectives are set and
// "--connect-every-pair 1" where that is.
std::vector<std::string> SweepWorkerArgs(const SweepWorkerOptions& options);

// Reads them back; an error names the argument.
struct SweepWorkerArgsResult {
  SweepWorkerOptions options;
  std::string error;  // empty when the arguments were understood
};
SweepWorkerArgsResult ParseSweepWorkerArgs(const std::vector<std::string>& args);

}  // namespace gpuconform::mpi_sweep
