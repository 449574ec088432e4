// CollectiveDeadline: a deadline around a blocking collective (a PMIx fence, an MPI call). A rank that stops
// progressing (SIGSTOP, a dead link) blocks every other rank inside the collective, where
// no timeout can reach them. While a guard is alive, a helper thread waits; past the
// deadline it calls the process's give-up handler (set once by main), which writes what
// rank 0 can still report and ends the job. Contract: the handler never returns.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "harness/util/start_watchdog.h"

namespace gpuconform {

// `problem` says what did not complete, naming the node and the deadline.

using GiveUpHandler = std::function<void(const std::string& problem)>;
void SetGiveUpHandler(GiveUpHandler handler);
// A collective failed outright (a PMIx fence refused): give up now. Without a handler it
// prints the problem and ends the process with exit status 3.
[[noreturn]] void GiveUpNow(const std::string& problem);

class CollectiveDeadline {
 public:
  // Without a handler (unit tests, a single process) the guard does nothing.
  CollectiveDeadline(std::chrono::seconds deadline, std::string problem);
  ~CollectiveDeadline();
  CollectiveDeadline(const CollectiveDeadline&) = delete;
  CollectiveDeadline& operator=(const CollectiveDeadline&) = delete;

 private:
  std::unique_ptr<StartWatchdog> watchdog_;
};

}  // namespace gpuconform
