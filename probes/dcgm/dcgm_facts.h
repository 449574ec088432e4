// Typed readers of a node's DCGM outputs (dcgm_probes.h), each parsed once per run: the
// diagnostic from dcgmi-diag.json where the snapshot has it, else dcgmi-diag.txt; the NVLink
// states from dcgmi-nvlink-s.txt. Pure: the run's raw outputs in; an error names the node and
// the file.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/dcgm/dcgm_diag_parse.h"
#include "probes/dcgm/dcgm_nvlink_parse.h"

namespace gpuconform::dcgm {

const Result<DcgmDiagReport>& ReadDcgmDiag(const ClusterRaw& raw, const std::string& node);
const Result<DcgmNvlinkStatus>& ReadDcgmNvlinkStatus(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::dcgm
