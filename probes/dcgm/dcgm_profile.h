// The profile's `dcgm:` section, owned by DCGM's probe that runs `dcgmi diag` at its level and
// the Dcgm suite that judges the result (an active test: minutes of load on each node).
// Absent: nothing runs and the suite is skipped, since no diagnostic level is chosen.
#pragma once

#include <string>

namespace gpuconform::dcgm {

// The Dcgm suite: `dcgmi diag -r <level> -j` on each node (an active test: minutes of load).
struct DcgmExpectation {
  static constexpr char kKey[] = "dcgm";
  int level = 1;                // 1 quick, 2 medium, 3 long, 4 extended (dcgmi diag -r)
  std::string parameters_file;  // dcgmi diag -c: DCGM's YAML of test parameters; empty: DCGM's defaults
  std::string dcgmi = "dcgmi";  // the dcgmi binary; a bare name is looked up on PATH
  std::string source;
};

}  // namespace gpuconform::dcgm
