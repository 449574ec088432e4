#include "harness/world.h"

#include <mpi.h>

#include <chrono>
#include <thread>

namespace gpuconform {

Result<World> World::Start(int* argc, char*** argv, const LaunchFacts& launch) {
  std::string launcher;
  if (launch.mpirun) {
    launcher = "mpirun";
  } else if (launch.pmix) {
    launcher = launch.slurm_step ? "srun/PMIx" : "PMIx";
  } else if (launch.pmi) {
    launcher = "PMI";
  }
  if (launcher.empty()) {
    if (launch.slurm_step_num_tasks > 1) {
      return Error{"started by srun as " + std::to_string(launch.slurm_step_num_tasks) +
                   " tasks without a process-management interface, so the tasks cannot gather their "
                   "results; launch with `srun --mpi=pmix` (or set MpiDefault=pmix in slurm.conf)"};
    }
    return World(0, 1, false, "single process");
  }
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    return Error{"MPI_Init failed under " + launcher};
  }
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return World(rank, size, true, launcher);
}

std::string World::Describe() const {
  if (!uses_mpi_) return "single process";
  return "MPI (" + launcher_ + "), " + std::to_string(size_) + " ranks";
}

std::vector<std::string> World::AllGather(const std::string& mine) const {
  if (!uses_mpi_) return {mine};
  const int my_size = static_cast<int>(mine.size());
  std::vector<int> sizes(size_);
  MPI_Allgather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(size_, 0);
  long long total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[r] = static_cast<int>(total);
    total += sizes[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), my_size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  std::vector<std::string> parts;
  parts.reserve(size_);
  for (int r = 0; r < size_; ++r) parts.push_back(all.substr(offsets[r], sizes[r]));
  return parts;
}

void World::SleepingBarrier() const {
  if (!uses_mpi_) return;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  while (true) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void World::Finish() const {
  if (uses_mpi_) MPI_Finalize();
}

}  // namespace gpuconform
