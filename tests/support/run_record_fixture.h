// A run as a results document records it, for the tests that render a document or read one
// back (reports, baseline). Test-only and header-only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/run.h"

namespace gpuconform::test_support {

// A live run of nine seconds on 2026-12-04 by gpuconform 0.1.0, tagged image=ngc-24.05, on
// `nodes` against `profile`; each test sets what else its document needs (exit status, host,
// baseline).
inline RunRecord LiveRunRecord(const std::string& profile, std::vector<std::string> nodes) {
  RunRecord run;
  run.run_id = "0123456789abcdef0123456789abcdef";
  run.started_utc = "2026-12-04T14:00:00Z";
  run.ended_utc = "2026-12-04T14:00:09Z";
  run.gpuconform_version = "0.1.0";
  run.profile = profile;
  run.mode = "live";
  run.nodes = std::move(nodes);
  run.tags = {{"image", "ngc-24.05"}};
  return run;
}

}  // namespace gpuconform::test_support
