#include "probes/nccl_topo/nccl_topo_file_probe.h"

#include "harness/core/builtin_probes.h"

namespace gpuconform::nccl_topo {

ProbeSpec NcclTopoFile() {
  return BuiltinProbe("nccl-topo-file", ProbeScope::kNode, "nccl-topo-file.xml", NcclTopoFileOutput);
}

}  // namespace gpuconform::nccl_topo
