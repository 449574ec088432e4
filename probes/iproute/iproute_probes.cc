#include "probes/iproute/iproute_probes.h"

namespace gpuconform::iproute {

namespace {

// iproute2 answers from netlink at once; the deadline only guards a wedged node.
constexpr int kIpTimeoutMs = 10000;

ProbeSpec IpCommand(std::string id, std::string file, std::string object) {
  return CommandProbe(std::move(id), ProbeScope::kNode, std::move(file), {"ip", "-o", std::move(object), "show"},
                      kIpTimeoutMs);
}

}  // namespace

ProbeSpec IpAddrProbe() { return IpCommand("ip-addr", "ip-addr.txt", "addr"); }
ProbeSpec IpLinkProbe() { return IpCommand("ip-link", "ip-link.txt", "link"); }

}  // namespace gpuconform::iproute
