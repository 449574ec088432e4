// StartWatchdog: a deadline for forming the world. MPI_Init under srun blocks until every
// rank's PMIx server answers; a node whose slurmd died makes it block until Slurm kills the
// step, and the run would end with no report. When the deadline passes, `on_timeout` runs
// on a helper thread (it must end the process); Cancel() disarms it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gpuconform {

class StartWatchdog {
 public:
  StartWatchdog(std::chrono::seconds deadline, std::function<void()> on_timeout);
  ~StartWatchdog();
  void Cancel();

 private:
  std::mutex mutex_;
  std::condition_variable cancelled_signal_;
  bool cancelled_ = false;
  std::thread thread_;
};

}  // namespace gpuconform
