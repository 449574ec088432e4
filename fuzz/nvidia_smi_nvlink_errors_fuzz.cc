// Fuzzes NVLink error counters (probes/nvidia_smi/nvlink_errors_parse.h: ParseNvlinkErrors):
// nvidia-smi nvlink -e, with every counter read back.
#include "fuzz/fuzz_support.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvidia_smi::ParseNvlinkErrors(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& gpu : report.gpus) {
      std::uint64_t sum = static_cast<std::uint64_t>(gpu.index);
      for (const auto& link : gpu.links) {
        for (const auto& [name, value] : link.counters) sum += value + name.size() + static_cast<std::uint64_t>(link.link);
      }
      fuzz::Keep(gpu.name + gpu.uuid + std::to_string(sum));
    }
  });
  return 0;
}
