#include "probes/nccl_topo/nccl_topo_probe.h"

#include <string>
#include <utility>

#include "harness/core/live_source.h"
#include "harness/world/gather.h"
#include "probes/nccl_run/nccl_run_probe.h"

namespace gpuconform::nccl_topo {

namespace {

// Live: the topology NCCL dumped in gpuconform's own NCCL run; where that did not run, the
// file the environment names. Each rank reads its own node's file; the harness keeps the
// lowest rank's answer per node.
RawOutput ReadTopology(const CollectiveContext& context) {
  const RawOutput& dumped = nccl_run::SharedNcclRun(context).topology;
  if (dumped.ok()) return dumped;
  const std::pair<const char*, const std::string*> named[] = {
      {"NCCL_TOPO_DUMP_FILE", &context.options.nccl_topo_dump_file}, {"NCCL_TOPO_FILE", &context.options.nccl_topo_file}};
  for (const auto& [name, path] : named) {
    if (path->empty()) continue;
    RawOutput out = ReadFileOutput(context.host, *path);
    out.origin += std::string(" (") + name + ")";
    if (!out.ok()) {
      out.detail = context.host + ": " + name + "=" + *path + " but the file cannot be read; " + kHowToProduce;
    }
    return out;
  }
  RawOutput out = dumped;
  out.detail += "; neither NCCL_TOPO_DUMP_FILE nor NCCL_TOPO_FILE names an earlier dump; " + std::string(kHowToProduce);
  return out;
}

}  // namespace

ProbeSpec TopologyProbe() { return Active(CollectiveProbe("nccl-topo", "nccl-topo.xml", ReadTopology)); }

}  // namespace gpuconform::nccl_topo
