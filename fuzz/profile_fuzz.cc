// Fuzzes the profile YAML (harness/core/profile.h: ParseProfile), as a user's --profile file.
#include "fuzz/fuzz_support.h"
#include "harness/core/profile.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ParseProfile(fuzz::AsText(data, size), "fuzz.yaml"), [](const auto& profile) { fuzz::Keep(profile); });
  return 0;
}
