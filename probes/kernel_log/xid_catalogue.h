// NVIDIA's XID catalogue, in one place: what each XID the driver logs means, who has to act,
// and the action NVIDIA documents for it (NVIDIA "XID Errors" documentation,
// docs.nvidia.com/deploy/xid-errors, and its catalogue of XIDs with their immediate action).
// Contract: an XID absent from the table is kUnlisted; a check reports it without failing,
// as AzNHC does for the XIDs outside its list. Pure data.
#pragma once

#include <string_view>

namespace gpuconform::kernel_log {

enum class XidClass {
  kApplication,  // the job's own error (illegal address, stopped channel): the node is fine
  kHardware,     // memory, NVLink, bus or board: drain, reset, RMA if it repeats
  kDriver,       // driver or GPU firmware (GSP): reset the GPU, update the driver if it repeats
  kUnlisted,     // not in this table
};

struct XidEntry {
  int xid = 0;
  XidClass xid_class = XidClass::kUnlisted;
  std::string_view meaning;
  std::string_view action;  // NVIDIA's documented action for the operator
};

// The entry for `xid`; {xid, kUnlisted, "", ""} when the table lacks it.
XidEntry LookUpXid(int xid);

std::string_view XidClassName(XidClass xid_class);  // "application", "hardware", "driver", "unlisted"

}  // namespace gpuconform::kernel_log
