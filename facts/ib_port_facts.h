// Where a node's InfiniBand port facts come from, for the InfiniBand and Pcie suites.
// Contract: ibstat is the listing of record; where it is absent or not installed, the
// in-process libibverbs probe (ibverbs.txt) stands in, then `ibv_devinfo -v`. A libibverbs
// that finds no device is an error saying "no RDMA device", never an empty list that a check
// could count. Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "harness/core/profile.h"
#include "probes/ib_tools/ib_tools_parse.h"

namespace gpuconform::facts {

using namespace gpuconform::ib_tools;

std::vector<ProbeSpec> PortProbes();  // ibstat, ibverbs, ibv_devinfo
const Result<IbPortReport>& ReadPorts(const ClusterRaw& raw, const std::string& node);

// The rail ports: those whose link layer is the profile's. On a RoCE profile (Ethernet) the
// front-end NICs share the link layer, so when there are more such ports than rails, the
// rails are the ports of the HCA model (CA type) that holds the most of them.
std::vector<const IbPort*> RailPorts(const IbPortReport& report, const InfinibandExpectation& expected);

}  // namespace gpuconform::facts
