// Fuzzes `nvidia-smi -q` as text (probes/nvidia_smi/query_text_parse.h: ParseNvidiaSmiQueryText)
// and the message name of every GPU it finds.
#include "fuzz/fuzz_support.h"
#include "probes/nvidia_smi/query_text_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvidia_smi::ParseNvidiaSmiQueryText(fuzz::AsText(data, size), fuzz::kOrigin),
                [](const auto& inventory) {
                  for (const auto& gpu : inventory.gpus) fuzz::Keep(nvidia_smi::GpuDisplayName(gpu));
                });
  return 0;
}
