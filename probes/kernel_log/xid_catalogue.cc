#include "probes/kernel_log/xid_catalogue.h"

namespace gpuconform::kernel_log {

namespace {

constexpr XidClass kApp = XidClass::kApplication;
constexpr XidClass kHw = XidClass::kHardware;
constexpr XidClass kDrv = XidClass::kDriver;

// Meanings and actions follow NVIDIA's XID documentation. The hardware set is the one AzNHC
// (azurehpc-health-checks customTests/azure_gpu_xid.nhc: 48 56 57 58 62 63 64 65 68 69 73 74
// 79 80 81 92 119 120) fails a node on, split into hardware and driver/firmware, plus 94/95,
// the contained and uncontained ECC errors of Ampere and later.
constexpr XidEntry kXids[] = {
    {13, kApp, "graphics engine exception (usually an illegal memory access in the job's kernel)",
     "none for the node: debug the application (compute-sanitizer); only if many jobs hit it, run dcgmi diag -r 3"},
    {31, kApp, "GPU memory page fault (the job accessed an invalid address)",
     "none for the node: debug the application"},
    {43, kApp, "GPU stopped processing (the job's channel was stopped after its own error)",
     "none for the node: restart the application"},
    {45, kApp, "preemptive cleanup after earlier errors (the job was ended)",
     "none for the node: look at the XIDs logged just before it"},
    {48, kHw, "double-bit (uncorrectable) ECC error in GPU memory",
     "drain the node and reset the GPU (nvidia-smi -r) so the row is remapped or the page retired; RMA if it "
     "repeats or remapping fails"},
    {56, kDrv, "display engine error", "reset the GPU; update the driver if it repeats"},
    {57, kHw, "error programming the video memory interface", "drain the node, reset the GPU; RMA if it repeats"},
    {58, kHw, "unstable video memory interface detected", "drain the node, reset the GPU; RMA if it repeats"},
    {61, kDrv, "internal micro-controller breakpoint or warning", "reset the GPU; update the driver if it repeats"},
    {62, kDrv, "internal micro-controller halt",
     "drain the node and reset the GPU; update the driver, RMA if it repeats"},
    {63, kHw, "ECC page retirement or row remapping recorded: the fix waits for a GPU reset",
     "drain the node and reset the GPU (nvidia-smi -r) to activate the remap or retirement"},
    {64, kHw, "ECC page retirement or row remapping failed to record",
     "drain the node; reset the GPU, and RMA it if the failure repeats (it is out of spare rows)"},
    {65, kHw, "video processor exception", "reset the GPU; RMA if it repeats"},
    {68, kHw, "video decoder (NVDEC) exception", "reset the GPU; RMA if it repeats"},
    {69, kDrv, "graphics engine class error", "reset the GPU; update the driver if it repeats"},
    {73, kHw, "NVENC2 error", "reset the GPU; RMA if it repeats"},
    {74, kHw, "NVLink error",
     "drain the node; reset the GPU and check nvidia-smi nvlink -e; reseat or RMA if it repeats"},
    {79, kHw, "GPU has fallen off the bus",
     "drain the node and reboot it; check power and seating of the GPU (and the PCIe AER log); RMA if it repeats"},
    {80, kHw, "corrupted data sent to the GPU",
     "drain the node; reset the GPU and check PCIe (lspci -vv); RMA if it repeats"},
    {81, kHw, "VGA subsystem error", "reboot the node; RMA if it repeats"},
    {92, kHw, "high single-bit ECC error rate", "drain the node and run dcgmi diag -r 3; RMA if errors keep rising"},
    {94, kHw, "contained ECC error (the affected application was ended)",
     "reset the GPU when it is idle so the row is remapped; the node may keep serving other jobs until then"},
    {95, kHw, "uncontained ECC error (every application on the GPU is affected)",
     "drain the node and reset the GPU now; RMA if it repeats"},
    {119, kDrv, "GSP (GPU System Processor) RPC timeout",
     "drain the node and reset the GPU (or reboot); update the driver if it repeats"},
    {120, kDrv, "GSP (GPU System Processor) error",
     "drain the node and reset the GPU (or reboot); update the driver if it repeats"},
};

}  // namespace

XidEntry LookUpXid(int xid) {
  for (const XidEntry& entry : kXids) {
    if (entry.xid == xid) return entry;
  }
  return {xid, XidClass::kUnlisted, "", ""};
}

std::string_view XidClassName(XidClass xid_class) {
  switch (xid_class) {
    case XidClass::kApplication:
      return "application";
    case XidClass::kHardware:
      return "hardware";
    case XidClass::kDriver:
      return "driver";
    case XidClass::kUnlisted:
      return "unlisted";
  }
  return "unlisted";
}

}  // namespace gpuconform::kernel_log
