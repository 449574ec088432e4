#include "harness/world/collective_deadline.h"

#include <cstdlib>
#include <iostream>

namespace gpuconform {

namespace {

GiveUpHandler& Handler() {
  static GiveUpHandler handler;
  return handler;
}

}  // namespace

void SetGiveUpHandler(GiveUpHandler handler) { Handler() = std::move(handler); }

void GiveUpNow(const std::string& problem) {
  if (Handler()) Handler()(problem);
  std::cerr << "gpuconform: " << problem << "\n";
  std::_Exit(3);
}

CollectiveDeadline::CollectiveDeadline(std::chrono::seconds deadline, std::string problem) {
  if (!Handler()) return;
  watchdog_ = std::make_unique<StartWatchdog>(deadline, [problem = std::move(problem)] { Handler()(problem); });
}

CollectiveDeadline::~CollectiveDeadline() = default;

}  // namespace gpuconform
