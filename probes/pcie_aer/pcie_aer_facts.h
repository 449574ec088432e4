// Typed reader of a node's PCIe AER counters (aer.txt, AerProbe), parsed once per run. Pure:
// the run's raw outputs in; an error names the node and the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/pcie_aer/pcie_aer_parse.h"

namespace gpuconform::pcie_aer {

const Result<AerReport>& ReadAer(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::pcie_aer
