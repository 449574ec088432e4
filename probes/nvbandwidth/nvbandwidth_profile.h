// The profile's `nvbandwidth:` section, owned by nvbandwidth's probe and the Nvbandwidth suite
// that read it: copy-engine bandwidth floors, in GB/s per GPU (host copies) or per GPU pair
// (device-to-device copies), and the binary to run. Absent: the suite is skipped and nothing runs.
#pragma once

#include <string>

namespace gpuconform::nvbandwidth {

struct NvbandwidthExpectation {
  static constexpr char kKey[] = "nvbandwidth";
  double host_to_device_gb_per_s = 0;    // host_to_device_memcpy_ce, per GPU; 0: recorded, not judged
  double device_to_host_gb_per_s = 0;    // device_to_host_memcpy_ce, per GPU
  double device_to_device_gb_per_s = 0;  // device_to_device_memcpy_write_ce (or _read_ce), per pair
  std::string binary = "nvbandwidth";    // a bare name is looked up on PATH
  std::string source;
};

}  // namespace gpuconform::nvbandwidth
