// NvSwitch suite glue: the probes, the parse of each node's outputs, and the registration.
#include <algorithm>

#include "harness/probe_catalog.h"
#include "harness/suite_registry.h"
#include "harness/raw_text.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"
#include "probes/cuda_p2p/cuda_p2p_probe.h"
#include "facts/gpu_facts.h"
#include "suites/nvswitch/nvswitch_checks.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "suites/nvswitch/p2p_checks.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::cuda_p2p;
using namespace gpuconform::facts;
using namespace gpuconform::nvidia_smi;

namespace {

Result<P2pReport> ReadP2p(const SuiteContext& context, const std::string& node) {
  const ProbeSpec& spec = CudaP2pProbe();
  const RawOutput out = context.raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, "the CUDA P2P probe could not run");
  if (!text) return Error{text.error()};
  return ParseCudaP2p(*text, out.origin.empty() ? node + "/" + spec.file : out.origin);
}

// The GPU counts of every other source that answered on the node. A topology matrix counts
// the GPU columns of its header, which stay whole when rows were elided ("..."); an NVLink
// status with elided GPUs does not say how many there are, so it gives no count.
std::vector<GpuCountEvidence> OtherGpuCounts(const Result<TopoMatrix>& matrix, const Result<NvlinkStatus>& links,
                                             const Result<P2pReport>& p2p) {
  std::vector<GpuCountEvidence> counts;
  if (matrix) {
    int columns = 0;
    for (const auto& label : matrix->columns) columns += label.rfind("GPU", 0) == 0 ? 1 : 0;
    counts.push_back({"nvidia-smi topo -m", std::max(columns, static_cast<int>(matrix->gpus.size()))});
  }
  if (links && links->elided_at_line == 0 && !links->gpus.empty()) {
    counts.push_back({"the NVLink status", static_cast<int>(links->gpus.size())});
  }
  if (p2p) counts.push_back({"the CUDA runtime (cuda-p2p.txt)", p2p->device_count});
  return counts;
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& node : context.raw.nodes) {
    const auto inventory = ReadGpuInventory(context.raw, node);
    const auto matrix = ReadTopoMatrix(context.raw, node);
    const auto links = ReadNvlinkStatus(context.raw, node);
    const auto p2p = ReadP2p(context, node);
    results.push_back(CheckGpuCountAndModel(node, inventory, context.profile, OtherGpuCounts(matrix, links, p2p)));
    results.push_back(CheckAllPairsNvlinkConnected(node, matrix, context.profile));
    results.push_back(CheckAllLinksActive(node, links, context.profile));
    results.push_back(CheckFabricRegistered(node, inventory, context.profile));
    results.push_back(CheckPeerAccessAllPairs(node, p2p, context.profile));
    results.push_back(CheckP2pBandwidthAtFloor(node, p2p, context.profile));
    results.push_back(CheckP2pBandwidthUniform(node, p2p, context.profile));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "GPU count and model, NVLink all-to-all through NVSwitch, every NVLink active at speed, fabric registered, P2P access and bandwidth";
  suite.checks = {
      {kGpuCountAndModel, "the node has the profile's GPU count, each of the profile's model", true},
      {kAllPairsNvlinkConnected, "every GPU pair is NV<k> (k = nvlink.links_per_gpu) in nvidia-smi topo -m", true},
      {kAllLinksActive,
       "every GPU has nvlink.links_per_gpu links, each active at >= link_bandwidth_gb_per_s, to an NVSwitch", true},
      {kFabricRegistered, "every GPU that reports a fabric state is Completed / Success", true},
      {kPeerAccessAllPairs, "cudaDeviceCanAccessPeer is 1 for every ordered GPU pair", true},
      {kP2pBandwidthAtFloor, "every GPU pair copies at >= nvlink.p2p_bandwidth_floor_gb_per_s one way", true},
      {kP2pBandwidthUniform, "no GPU pair copies below 0.8x the node's median, one way or both ways", true},
  };
  suite.probes = GpuFactProbes();
  suite.probes.push_back(probes::NvidiaSmiTopoMatrix());
  suite.probes.push_back(CudaP2pProbe());
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nvswitch
