// Fuzzes dcgmi nvlink --link-status (probes/dcgm/dcgm_nvlink_parse.h: ParseDcgmNvlinkStatus).
#include "fuzz/fuzz_support.h"
#include "probes/dcgm/dcgm_nvlink_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(dcgm::ParseDcgmNvlinkStatus(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& status) {
    int up = static_cast<int>(status.errors.size());
    for (const auto& gpu : status.gpus) up += gpu.id + gpu.CountIn(dcgm::NvlinkState::kUp);
    for (const auto& nvswitch : status.nvswitches) up += nvswitch.id + nvswitch.CountIn(dcgm::NvlinkState::kDown);
    fuzz::Keep(up);
  });
  return 0;
}
