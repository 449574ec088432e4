// The profile's `health_check:` section, owned by `gpuconform health-check`: the quick checks it
// runs. Absent: the verb says the profile lists none.
#pragma once

#include <string>
#include <vector>

namespace gpuconform {

// `gpuconform health-check` (Slurm's HealthCheckProgram): the per-node checks cheap and
// passive enough to run every few minutes on every node. Names are "Suite.Check".
struct HealthCheckExpectation {
  static constexpr char kKey[] = "health_check";
  std::vector<std::string> quick_checks;
  std::string source;  // why these are cheap enough
};

}  // namespace gpuconform
