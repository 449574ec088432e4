// Fuzzes munge-decode.txt (probes/munge/munge_parse.h: ParseDecodeReport), writing each
// attempt back as its line (FormatDecodeAttempt).
#include "fuzz/fuzz_support.h"
#include "probes/munge/munge_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(munge::ParseDecodeReport(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& attempt : report.attempts) {
      fuzz::Keep(munge::FormatDecodeAttempt(attempt));
      fuzz::Keep(munge::ClassifyMungeStatus(attempt.exit_code, attempt.status));
    }
  });
  return 0;
}
