// Fuzzes cuda-p2p.txt (probes/cuda_p2p/cuda_p2p_parse.h: ParseCudaP2p) and the GPU names
// of every pair it reports.
#include "fuzz/fuzz_support.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(cuda_p2p::ParseCudaP2p(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& [pair, peer] : report.peer_access) fuzz::Keep(report.GpuName(pair.first) + report.GpuName(pair.second));
    for (const auto& [pair, message] : report.errors) fuzz::Keep(report.GpuName(pair.first) + message);
  });
  return 0;
}
