// Fuzzes nic-pcie.txt (probes/nic_pcie/nic_pcie_parse.h: ParseNicPcie).
#include "fuzz/fuzz_support.h"
#include "probes/nic_pcie/nic_pcie_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nic_pcie::ParseNicPcie(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& nic : report.nics) fuzz::Keep(nic.DisplayName());
  });
  return 0;
}
