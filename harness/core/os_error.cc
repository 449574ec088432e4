#include "harness/core/os_error.h"

#include <cerrno>
#include <cstring>

namespace gpuconform {

std::string OsErrorText(const std::string& what, int error_number) {
  return what + ": " + std::strerror(error_number) + " (errno " + std::to_string(error_number) + ")";
}

std::optional<int> ErrnoIn(std::string_view text) {
  constexpr std::string_view kTag = "(errno ";
  const std::size_t at = text.rfind(kTag);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t i = at + kTag.size();
  int value = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 6; ++i, ++digits) {
    value = value * 10 + (text[i] - '0');
  }
  if (digits == 0 || i >= text.size() || text[i] != ')') return std::nullopt;
  return value;
}

ReasonCode StorageFaultCode(int error_number) {
  switch (error_number) {
    case EROFS: return "storage-read-only";
    case ENOSPC: return "storage-full";
    case EDQUOT: return "storage-quota";
    case EACCES:
    case EPERM: return "storage-permission";
    case ESTALE: return "storage-stale";
    case ENOTCONN: return "storage-disconnected";
    case EIO: return "storage-io-error";
    default: return "unavailable";
  }
}

bool IsStorageFault(int error_number) { return StorageFaultCode(error_number) != "unavailable"; }

bool HasStorageFault(std::string_view text) {
  const auto error_number = ErrnoIn(text);
  return error_number && IsStorageFault(*error_number);
}

bool SaysDeviceToolHung(std::string_view message) { return message.find(kDeviceToolHungWords) != std::string_view::npos; }

}  // namespace gpuconform
