// Fuzzes GPUDirect RDMA availability (probes/gpudirect/gpudirect_parse.h: ParseGpuDirect):
// gpuconform's probe records, lsmod and `lsmod | grep` transcripts, with every fact read back.
#include "fuzz/fuzz_support.h"
#include "probes/gpudirect/gpudirect_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(gpudirect::ParseGpuDirect(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    std::string facts = report.format + report.host + report.kernel_release + report.driver_version +
                        report.PeerMemoryModule();
    for (const auto& module : report.loaded) facts += module;
    for (const auto& module : report.searched) facts += module;
    if (report.open_kernel_module) facts += *report.open_kernel_module ? "open" : "proprietary";
    const auto version = gpudirect::MajorMinor(report.driver_version);
    if (version) facts += std::to_string(version->first + version->second);
    fuzz::Keep(facts);
  });
  return 0;
}
