// Fuzzes the small files of the Munge suite's probes, all on the same bytes: munge-key.digest
// (ParseKeyDigest), munge-key-stat.txt (ParseKeyStat) and clock.txt (ParseClockReading), in
// probes/munge/munge_parse.h.
#include "fuzz/fuzz_support.h"
#include "probes/munge/munge_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(munge::ParseKeyDigest(text, fuzz::kOrigin), [](const auto& digest) { fuzz::Keep(digest.hmac_hex); });
  fuzz::Inspect(munge::ParseKeyStat(text, fuzz::kOrigin), [](const auto& stat) { fuzz::Keep(stat.mode); });
  fuzz::Inspect(munge::ParseClockReading(text, fuzz::kOrigin), [](const auto& epoch_ns) { fuzz::Keep(epoch_ns); });
  return 0;
}
