// Fuzzes the lines the NCCL run and its worker child read from each other (probes/nccl_run/
// nccl_worker_protocol.h: ParseWorkerReady, ParseMeasureLine).
#include "fuzz/fuzz_support.h"
#include "probes/nccl_run/nccl_worker_protocol.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nccl_run::ParseWorkerReady(fuzz::AsText(data, size), "node1"),
                [](const auto& ready) { fuzz::Keep(ready.bus_ids.size()); });
  fuzz::Inspect(nccl_run::ParseMeasureLine(fuzz::AsText(data, size)),
                [](const auto& request) { fuzz::Keep(request.size_bytes); });
  return 0;
}
