// Fuzzes the lines the NCCL run reads from its worker child (probes/nccl_run/
// nccl_worker_protocol.h: ParseWorkerReady).
#include "fuzz/fuzz_support.h"
#include "probes/nccl_run/nccl_worker_protocol.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nccl_run::ParseWorkerReady(fuzz::AsText(data, size), "node1"),
                [](const auto& ready) { fuzz::Keep(ready.bus_ids.size()); });
  return 0;
}
