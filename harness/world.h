// World: the processes of one run — a single process, or every rank of an MPI job started
// by `srun` (PMIx) or `mpirun`. Contract: MPI is initialised only when a launcher started
// us, so a plain `gpuconform run` never needs an MPI runtime; every method below is a
// collective that all ranks must call in the same order (no early return before one).
#pragma once

#include <string>
#include <vector>

#include "harness/result.h"
#include "harness/run_options.h"

namespace gpuconform {

class World {
 public:
  // Names the launcher from what it set in the environment and initialises MPI when needed.
  // Fails (exit-2 material) when started as several tasks that cannot talk to each
  // other, e.g. `srun --mpi=none -n3`, which would otherwise write three reports.
  static Result<World> Start(int* argc, char*** argv, const LaunchFacts& launch);
  // One process, no MPI: for plain runs, and for the report rank 0 writes alone when the
  // world could not be formed.
  static World Single() { return World(0, 1, false, "single process"); }

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  bool uses_mpi() const { return uses_mpi_; }
  // "single process", "MPI (srun/PMIx), 3 ranks", ...
  std::string Describe() const;

  std::vector<std::string> AllGather(const std::string& mine) const;
  // A barrier that waits without spinning (MPI_Ibarrier polled every millisecond): ranks
  // that wait while others work must not take cores from them on shared or
  // oversubscribed nodes, as MPI_Barrier's busy-polling does.
  void SleepingBarrier() const;

  void Finish() const;

 private:
  World(int rank, int size, bool uses_mpi, std::string launcher)
      : rank_(rank), size_(size), uses_mpi_(uses_mpi), launcher_(std::move(launcher)) {}
  int rank_;
  int size_;
  bool uses_mpi_;
  std::string launcher_;
};

}  // namespace gpuconform
