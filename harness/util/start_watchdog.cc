#include "harness/util/start_watchdog.h"

namespace gpuconform {

StartWatchdog::StartWatchdog(std::chrono::seconds deadline, std::function<void()> on_timeout) {
  thread_ = std::thread([this, deadline, on_timeout = std::move(on_timeout)] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cancelled_signal_.wait_for(lock, deadline, [this] { return cancelled_; })) return;
    lock.unlock();
    on_timeout();
  });
}

void StartWatchdog::Cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  cancelled_signal_.notify_all();
  if (thread_.joinable()) thread_.join();
}

StartWatchdog::~StartWatchdog() { Cancel(); }

}  // namespace gpuconform
