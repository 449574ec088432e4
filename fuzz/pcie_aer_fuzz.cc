// Fuzzes PCIe AER counters (probes/pcie_aer/pcie_aer_parse.h: ParseAer): gpuconform's sysfs
// records, raw aer_dev_* dumps and lspci -vvv status registers, with every counter read back.
#include "fuzz/fuzz_support.h"
#include "probes/pcie_aer/pcie_aer_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(pcie_aer::ParseAer(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& report) {
    for (const auto& device : report.devices) {
      std::uint64_t sum = static_cast<std::uint64_t>(device.line) + pcie_aer::KindName(device.kind)[0];
      for (const auto* counts : {&device.correctable, &device.nonfatal, &device.fatal}) {
        sum += counts->total + (counts->read ? 1 : 0);
        for (const auto& [name, value] : counts->errors) sum += value + name.size();
      }
      fuzz::Keep(device.address + device.class_code + device.vendor + device.parent + std::to_string(sum));
    }
  });
  return 0;
}
