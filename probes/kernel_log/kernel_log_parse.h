// The parser of the kernel log (snapshot file dmesg.txt: `dmesg`, `journalctl -k` or a copied
// log file, in any of their time formats): the NVIDIA driver's XID events, and the "GPU ...
// has fallen off the bus" messages that newer drivers print without an XID number (taken as
// XID 79). Each event keeps the GPU's PCI address, canonical as nvidia-smi spells bus ids, so
// GpuHealth can name the GPU. Pure; lines it does not recognise are ignored, so prompts, other
// drivers' lines and any byte string are harmless.
#pragma once

#include <string>
#include <vector>

#include "harness/result.h"

namespace gpuconform::kernel_log {

struct XidEvent {
  int line = 0;           // 1-based line of the log where the event starts
  int xid = 0;            // 79 for a fallen-off-the-bus message without an XID
  std::string bus_id;     // "00000000:19:00.0"; empty when the line names none
  std::string timestamp;  // as logged ("2024-11-15T12:02:03,470068+00:00", "Fri Apr  5 21:29:39 2024"); may be empty
  std::string message;    // the driver's text after "NVRM: "
  bool from_bus_message = false;  // a fallen-off-the-bus message, not an "Xid" line
};

struct KernelLog {
  int lines = 0;
  std::vector<XidEvent> events;  // in log order
};

Result<KernelLog> ParseKernelLog(const std::string& text, const std::string& origin);

}  // namespace gpuconform::kernel_log
