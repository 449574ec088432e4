// Fuzzes the kernel log (probes/kernel_log/kernel_log_parse.h: ParseKernelLog): dmesg,
// journalctl -k and copied logs, with every event's fields read back (XIDs and PCIe AER reports).
#include "fuzz/fuzz_support.h"
#include "probes/kernel_log/kernel_log_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto lines = fuzz::AsChunkedLines(data, size);  // as a replayed dmesg.txt is read
  fuzz::Inspect(kernel_log::ParseKernelLog(lines, fuzz::kOrigin), [](const auto& log) { fuzz::Keep(log.lines); });
  fuzz::Inspect(kernel_log::ParseKernelLog(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& log) {
    for (const auto& event : log.events) {
      fuzz::Keep(event.bus_id + event.timestamp + event.message + std::to_string(event.xid + event.line));
    }
    for (const auto& event : log.aer_events) {
      std::string text = event.device.address + event.device.driver + event.reported_by + event.layer +
                         event.timestamp + kernel_log::AerSeverityName(event.severity) +
                         (event.SurpriseDown() ? "down" : "") + std::to_string(event.line);
      for (const auto& error : event.errors) text += error;
      for (const auto& device : event.affected) text += device.address + device.driver;
      fuzz::Keep(text);
    }
  });
  return 0;
}
