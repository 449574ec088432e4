// Fuzzes a training job's own output (probes/torchrun/job_log_parse.h: ParseJobLog): srun and
// torchrun logs with launcher prefixes, tracebacks and NCCL lines, with every failure's fields
// and the notes read back.
#include "fuzz/fuzz_support.h"
#include "probes/torchrun/job_log_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(torchrun::ParseJobLog(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& log) {
    for (const auto& failure : log.failures) {
      fuzz::Keep(failure.code + failure.node + failure.detail + failure.fix + failure.evidence +
                 std::to_string(failure.line));
    }
    for (const auto& note : log.notes) fuzz::Keep(note);
    fuzz::Keep(log.last_error + std::to_string(log.last_error_line + log.agents_succeeded + log.launch_completed));
  });
  return 0;
}
