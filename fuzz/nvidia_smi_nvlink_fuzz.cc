// Fuzzes `nvidia-smi nvlink -s` (probes/nvidia_smi/topo_nvlink_parse.h: ParseNvlinkStatus).
#include "fuzz/fuzz_support.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvidia_smi::ParseNvlinkStatus(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& status) {
    for (const auto& gpu : status.gpus) {
      for (const auto& link : gpu.links) fuzz::Keep(link.speed_gb_per_s);
      fuzz::Keep(gpu.name);
    }
  });
  return 0;
}
