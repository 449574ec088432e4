// The `ip -o` probes: every interface's link facts and addresses on the node, as iproute2
// prints them (iproute_parse.h reads them). Interfaces judges the fabric with them; Launch
// compares a MASTER_ADDR given as an address with them.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::iproute {

ProbeSpec IpAddrProbe();  // nodes/<h>/ip-addr.txt  ip -o addr show
ProbeSpec IpLinkProbe();  // nodes/<h>/ip-link.txt  ip -o link show

}  // namespace gpuconform::iproute
