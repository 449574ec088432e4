#include "harness/probe.h"

namespace gpuconform {

const char* ProbeStatusName(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kOk: return "ok";
    case ProbeStatus::kAbsent: return "absent";
    case ProbeStatus::kToolMissing: return "tool-missing";
    case ProbeStatus::kTimedOut: return "timed-out";
    case ProbeStatus::kFailed: return "failed";
  }
  return "unknown";
}

}  // namespace gpuconform
