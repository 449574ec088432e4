// Fuzzes the InfiniBand port listings: ibstat, ibstatus, ibv_devinfo -v and ibdev2netdev
// (probes/ib_tools/ib_tools_parse.h: ParseIbPorts recognises the format from the text).
#include "fuzz/fuzz_support.h"
#include "probes/ib_tools/ib_tools_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ib_tools::ParseIbPorts(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    fuzz::Keep(ib_tools::PortListingFormatName(report.format));
    for (const auto& port : report.ports) fuzz::Keep(port.Name());
  });
  return 0;
}
