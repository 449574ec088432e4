// Fuzzes pci-devices.txt (probes/pci_devices/pci_devices.h: ParsePciDevices) and the bus id
// normalisation (CanonicalBusId) on the whole text.
#include "fuzz/fuzz_support.h"
#include "probes/pci_devices/pci_devices.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  fuzz::Inspect(pci_devices::ParsePciDevices(text, fuzz::kOrigin), [](const auto& devices) {
    for (const auto& [busid, device] : devices) fuzz::Keep(pci_devices::IsVirtualBusId(busid));
  });
  fuzz::Keep(pci_devices::CanonicalBusId(text));
  return 0;
}
