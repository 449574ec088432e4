// The parser of the kernel log (snapshot file dmesg.txt: `dmesg`, `journalctl -k` or a copied
// log file, in any of their time formats): the NVIDIA driver's XID events, and the "GPU ...
// has fallen off the bus" messages that newer drivers print without an XID number (taken as
// XID 79). Each event keeps the GPU's PCI address, canonical as nvidia-smi spells bus ids, so
// GpuHealth can name the GPU. And the PCIe AER driver's error reports (drivers/pci/pcie/aer.c,
// err.c), one AerEvent per device whose error status was logged, so the Pcie suite can name the
// link:
//   pcieport 0000:00:02.0: AER: Uncorrected (Fatal) error received: id=0010
//   pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, ...
//   pcieport 0000:00:02.0:    [ 5] Surprise Down Error    (First)
//   nvidia 0000:02:00.0: device has no AER-aware driver
// Pure; lines it does not recognise are ignored, so prompts, other drivers' lines and any byte
// string are harmless. One pass over a LineSource holding the line and the two before it, so
// the kernel log of a long uptime (or a journal of months) is never in memory whole.
#pragma once

#include <string>
#include <vector>

#include "harness/util/line_source.h"
#include "harness/util/result.h"

namespace gpuconform::kernel_log {

struct XidEvent {
  int line = 0;           // 1-based line of the log where the event starts
  int xid = 0;            // 79 for a fallen-off-the-bus message without an XID
  std::string bus_id;     // "00000000:19:00.0"; empty when the line names none
  std::string timestamp;  // as logged ("2024-11-15T12:02:03,470068+00:00", "Fri Apr  5 21:29:39 2024"); may be empty
  std::string message;    // the driver's text after "NVRM: "
  bool from_bus_message = false;  // a fallen-off-the-bus message, not an "Xid" line
};

enum class AerSeverity { kCorrected, kNonFatal, kFatal };
const char* AerSeverityName(AerSeverity severity);  // "corrected", "non-fatal", "fatal"

// A device the kernel logged by its driver's name and address ("nvidia 0000:02:00.0").
struct LoggedDevice {
  std::string address;  // canonical as sysfs spells it, "0000:02:00.0"
  std::string driver;   // "pcieport", "mlx5_core", "nvidia"; empty when the line names none
};

// One AER error report: the device whose error status the kernel read, or, where the log
// gives no details, the source the receiving port named.
struct AerEvent {
  int line = 0;               // 1-based line where the report starts
  LoggedDevice device;        // "0000:01:00.0" (mlx5_core)
  std::string reported_by;    // the root or downstream port that received it; empty when not logged
  AerSeverity severity = AerSeverity::kCorrected;
  std::string layer;          // "Physical Layer", "Data Link Layer", "Transaction Layer"; may be empty
  std::vector<std::string> errors;     // as logged: "Replay Timer Timeout", "RxErr", "Surprise Down Error"
  std::vector<LoggedDevice> affected;  // devices the recovery of an uncorrected error named (below the port)
  std::string timestamp;

  // The link below the port dropped: "Surprise Down Error" (older kernels) or "SDES".
  bool SurpriseDown() const;
};

struct KernelLog {
  int lines = 0;
  std::vector<XidEvent> events;  // in log order
  std::vector<AerEvent> aer_events;  // in log order
};

Result<KernelLog> ParseKernelLog(LineSource& lines, const std::string& origin);
// The same over a text held whole (fuzzing, tests).
Result<KernelLog> ParseKernelLog(const std::string& text, const std::string& origin);

}  // namespace gpuconform::kernel_log
