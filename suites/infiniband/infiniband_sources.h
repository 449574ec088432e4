// Where a node's InfiniBand port facts come from, for the InfiniBand and Pcie suites.
// Contract: ibstat is the listing of record; where it is absent or not installed, the
// in-process libibverbs probe (ibverbs.txt) stands in, then `ibv_devinfo -v`. A libibverbs
// that finds no device is an error saying "no RDMA device", never an empty list that a check
// could count. Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/probe.h"
#include "suites/infiniband/infiniband_parse.h"

namespace gpuconform::infiniband {

std::vector<ProbeSpec> PortProbes();  // ibstat, ibverbs, ibv_devinfo
Result<IbPortReport> ReadPorts(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::infiniband
