// OS and tool errors, classified once. Every probe words an OS error the same way,
// "<what> <path>: <strerror> (errno N)", so that one mapping, here, turns it into a fault
// class and a reason code wherever it is judged: a storage path that the node cannot write is
// the node's configuration (or its hardware, for EIO), naming the path and the fix; it is
// never a fact that could not be obtained.
// Contract: pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "harness/core/reason_code.h"

namespace gpuconform {

// "create /ckpt/x: Read-only file system (errno 30)"
std::string OsErrorText(const std::string& what, int error_number);

// The last "(errno N)" in `text`, if any.
std::optional<int> ErrnoIn(std::string_view text);

// Whether an OS error on a path of the node's storage (a checkpoint directory, a shared
// volume) is a fault of the node: EROFS, ENOSPC, EDQUOT, EACCES/EPERM, ESTALE, ENOTCONN and
// EIO are; anything else (ENOENT of a file the probe itself made, EINTR, ...) is not.
bool IsStorageFault(int error_number);
// Its catalogue code ("storage-read-only", ...); "unavailable" for an error that is not one.
ReasonCode StorageFaultCode(int error_number);

// Whether `text` carries an OS error that IsStorageFault.
bool HasStorageFault(std::string_view text);

// A tool that talks to the node's own devices (nvidia-smi, ibstat) hanging while their
// driver is loaded is the classic sign of a wedged GPU or HCA: NHC, AzNHC and gpud take the
// node out for it. The live source words such a timeout with these words, and every error
// built from a message that carries them (Errored, verdict.h) becomes a hardware failure
// "device-tool-hung", so that the guarded drain applies, live and from a snapshot alike.
inline constexpr std::string_view kDeviceToolHungWords = "hung while its device driver is loaded";
bool SaysDeviceToolHung(std::string_view message);

}  // namespace gpuconform
