// A node's RDMA NICs' PCIe links (nic_pcie_probe.h), parsed once per run (nic_pcie_parse.h), or
// why there are none, naming the node, the snapshot file and the cause. Pure: raw outputs in.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nic_pcie/nic_pcie_parse.h"

namespace gpuconform::nic_pcie {

const Result<NicPcieReport>& ReadNicPcie(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::nic_pcie
