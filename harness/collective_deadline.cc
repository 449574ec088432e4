#include "harness/collective_deadline.h"

#include <cstdlib>

namespace gpuconform {

namespace {

GiveUpHandler& Handler() {
  static GiveUpHandler handler;
  return handler;
}

}  // namespace

std::chrono::seconds CollectiveTimeout() {
  const char* text = std::getenv("GPUCONFORM_COLLECTIVE_TIMEOUT_S");
  const int seconds = text ? std::atoi(text) : 0;
  return std::chrono::seconds(seconds > 0 ? seconds : 60);
}

void SetGiveUpHandler(GiveUpHandler handler) { Handler() = std::move(handler); }

CollectiveDeadline::CollectiveDeadline(std::chrono::seconds deadline, std::string problem) {
  if (!Handler()) return;
  watchdog_ = std::make_unique<StartWatchdog>(deadline, [problem = std::move(problem)] { Handler()(problem); });
}

CollectiveDeadline::~CollectiveDeadline() = default;

}  // namespace gpuconform
