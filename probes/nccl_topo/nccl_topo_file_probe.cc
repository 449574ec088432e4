#include "probes/nccl_topo/nccl_topo_file_probe.h"

#include <fstream>

namespace gpuconform::nccl_topo {

RawOutput NcclTopoFileOutput(const LiveContext& context) {
  // NCCL's own dumps are tens of KiB; a file this large is not a topology, and copying it
  // whole would put it in every rank's memory and in the snapshot.
  constexpr std::size_t kMaxBytes = 64u << 20;
  RawOutput out;
  const std::string& path = context.options.nccl_topo_file;
  if (path.empty()) {
    out.status = ProbeStatus::kAbsent;
    out.origin = context.host + ": $NCCL_TOPO_FILE";
    out.detail = context.host + ": NCCL_TOPO_FILE is not set in the environment";
    return out;
  }
  out.origin = context.host + ":" + path + " (NCCL_TOPO_FILE)";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": NCCL_TOPO_FILE=" + path +
                 " but the file cannot be read; NCCL ignores or fails on it: fix the path or unset NCCL_TOPO_FILE";
    return out;
  }
  // Read in chunks up to the cap, so a huge file (or a pipe) is never held whole.
  char chunk[1 << 16];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    out.text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (out.text.size() > kMaxBytes) {
      out.text.clear();
      out.status = ProbeStatus::kFailed;
      out.detail = context.host + ": NCCL_TOPO_FILE=" + path + " is larger than " + std::to_string(kMaxBytes >> 20) +
                   " MiB, far larger than any NCCL topology; not copied";
      return out;
    }
  }
  out.status = ProbeStatus::kOk;
  return out;
}

ProbeSpec NcclTopoFile() {
  return BuiltinProbe("nccl-topo-file", ProbeScope::kNode, "nccl-topo-file.xml", NcclTopoFileOutput);
}

}  // namespace gpuconform::nccl_topo
