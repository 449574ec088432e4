// The profile's `munge:` section, owned by the Munge suite that reads it: whether the cluster
// runs MUNGE, and the clock skew its credentials tolerate. Absent: the suite is not
// applicable, since the profile does not say whether MUNGE is expected.
#pragma once

#include <string>

namespace gpuconform::munge {

struct MungeExpectation {
  static constexpr char kKey[] = "munge";
  bool present = true;
  int max_clock_skew_s = 0;  // credential time-to-live bounds the tolerable skew
  std::string source;
};

}  // namespace gpuconform::munge
