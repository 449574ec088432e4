// Fuzzes nvml.txt (probes/nvml/nvml_parse.h: ParseNvml) and its conversion to the
// nvidia-smi facts (ToGpuInventory, ToNvlinkStatus).
#include "fuzz/fuzz_support.h"
#include "probes/nvml/nvml_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvml::ParseNvml(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& gpu : nvml::ToGpuInventory(report).gpus) fuzz::Keep(nvidia_smi::GpuDisplayName(gpu));
    fuzz::Keep(nvml::ToNvlinkStatus(report).gpus.size());
  });
  return 0;
}
