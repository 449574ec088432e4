#include "harness/collective_deadline.h"

namespace gpuconform {

namespace {

GiveUpHandler& Handler() {
  static GiveUpHandler handler;
  return handler;
}

}  // namespace

void SetGiveUpHandler(GiveUpHandler handler) { Handler() = std::move(handler); }

CollectiveDeadline::CollectiveDeadline(std::chrono::seconds deadline, std::string problem) {
  if (!Handler()) return;
  watchdog_ = std::make_unique<StartWatchdog>(deadline, [problem = std::move(problem)] { Handler()(problem); });
}

CollectiveDeadline::~CollectiveDeadline() = default;

}  // namespace gpuconform
