// Typed readers of NCCL's topology files on a node, parsed once per run (cached in the run's
// facts): the topology NCCL detected (nccl-topo.xml) and the static NCCL_TOPO_FILE the run's
// environment sets (nccl-topo-file.xml). Pure: the run's raw outputs in. An error is the
// probe's own detail where the file was not obtained (for nccl-topo.xml absent from a
// snapshot, with how to produce it), else the parser's error naming origin and line.
#pragma once

#include <string>

#include "harness/core/cluster_raw.h"
#include "harness/util/result.h"
#include "probes/nccl_topo/nccl_topo_parse.h"

namespace gpuconform::nccl_topo {

const Result<Topology>& ReadTopology(const ClusterRaw& raw, const std::string& node);
const Result<Topology>& ReadTopoFile(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::nccl_topo
