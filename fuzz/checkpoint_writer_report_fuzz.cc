// Fuzzes checkpoint.txt, the Checkpoint probe's report (probes/checkpoint_writer/
// checkpoint_parse.h: ParseCheckpointReport), then the record lookups the suite uses.
#include "fuzz/fuzz_support.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(checkpoint::ParseCheckpointReport(fuzz::AsText(data, size), "node1", fuzz::kOrigin),
                [](const auto& report) {
                  fuzz::Keep(report.First("target"));
                  fuzz::Keep(report.All("verify").size());
                });
  return 0;
}
