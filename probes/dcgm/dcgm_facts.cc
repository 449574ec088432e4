#include "probes/dcgm/dcgm_facts.h"

#include "harness/core/failing_tool_reading.h"
#include "probes/dcgm/dcgm_probes.h"

namespace gpuconform::dcgm {

namespace {

constexpr char kNoDcgm[] = "DCGM is not installed on the node (no dcgmi)";

}  // namespace

const Result<DcgmDiagReport>& ReadDcgmDiag(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<DcgmDiagReport>>("dcgmi-diag", node, [&] {
    // JSON carries the error codes the table leaves out, so it is read first.
    return facts::ParseFirstPresentWhateverItsExit(raw, node, {&DcgmDiagJsonProbe(), &DcgmDiagTextProbe()}, kNoDcgm,
                                                   ParseDcgmDiag);
  });
}

const Result<DcgmNvlinkStatus>& ReadDcgmNvlinkStatus(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<DcgmNvlinkStatus>>("dcgmi-nvlink-s", node, [&] {
    return facts::ParseNodeOutputWhateverItsExit(raw, node, DcgmNvlinkStatusProbe(), kNoDcgm, ParseDcgmNvlinkStatus);
  });
}

}  // namespace gpuconform::dcgm
