#include "probes/perftest/perftest_errors.h"

#include "harness/util/text_util.h"

namespace gpuconform::perftest {

namespace {

bool HasAny(std::string_view line, std::initializer_list<std::string_view> needles) {
  for (const auto needle : needles) {
    if (Contains(line, needle)) return true;
  }
  return false;
}

}  // namespace

const char* PerftestErrorKindName(PerftestErrorKind kind) {
  switch (kind) {
    case PerftestErrorKind::kNoDevice: return "no-device";
    case PerftestErrorKind::kConnectFailed: return "connect-failed";
    case PerftestErrorKind::kCuda: return "cuda";
    case PerftestErrorKind::kOther: return "other";
  }
  return "other";
}

std::optional<PerftestErrorKind> ClassifyPerftestLine(std::string_view line) {
  line = Trim(line);
  if (HasAny(line, {"Did not detect devices", "No IB devices found", "Unable to find the Infiniband/RoCE device",
                    "Couldn't get context for the device", "If device exists, check if driver is up"}) ||
      (StartsWith(line, "IB device ") && Contains(line, " not found"))) {
    return PerftestErrorKind::kNoDevice;
  }
  if (HasAny(line, {"Couldn't connect to", "Unable to open file descriptor for socket connection",
                    "Unable to connect (retries", "rdma_connect failed", "rdma_resolve_addr failed",
                    "rdma_resolve_route failed", "Problem in resolving basic address and port",
                    "Failed to exchange data between server and clients", "socket/rdma_cm",
                    "Failed to create RDMA CM connection", "Couldn't read remote address",
                    "Couldn't send local address", "bad event waiting for connect request",
                    "Failed to negotiate parameters", "times ADDR_ERROR"})) {
    return PerftestErrorKind::kConnectFailed;
  }
  if (HasAny(line, {"cuInit(0) returned", "There are no available device(s) that support CUDA", "No such device ID",
                    "Couldn't init GPU context", "DMA-BUF is not supported", "cuMemAlloc error", "cuCtxCreate_v2() error",
                    "cuDeviceGetByPCIBusId failed", "Failed to load CUDA", "cuDeviceGetCount() returned"})) {
    return PerftestErrorKind::kCuda;
  }
  // "Completion with error at client" then "Failed status 12: wr_id 0 syndrom 0x81": the
  // transport gave up mid-run (retries exceeded), often a link that went down.
  if (StartsWith(line, "Couldn't") || StartsWith(line, "Unable to") || StartsWith(line, "Failed") ||
      StartsWith(line, "Completion with error") || StartsWith(line, "Problems with warm up") ||
      StartsWith(line, "Error") || StartsWith(line, "ERROR") || Contains(line, " failed")) {
    return PerftestErrorKind::kOther;
  }
  return std::nullopt;
}

}  // namespace gpuconform::perftest
