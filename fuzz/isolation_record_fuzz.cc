// Fuzzes cluster/isolation.txt (probes/isolation/isolation_record.h: ParseIsolationRecords),
// then replays what it returns through the planner (Replay), as a snapshot run does: a record
// edited by hand or cut short must give findings or an error, never a crash or a hang.
#include "fuzz/fuzz_support.h"
#include "probes/isolation/isolation_record.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(isolation::ParseIsolationRecords(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& record) {
    fuzz::Inspect(isolation::Replay(record, fuzz::kOrigin), [](const auto& findings) {
      for (const auto& finding : findings) fuzz::Keep(finding.detail.size());
    });
  });
  return 0;
}
