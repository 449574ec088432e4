// NvSwitch suite glue: the checks, each judged per node from the GPU facts (facts/gpu_facts.h), and the registration.
#include <algorithm>

#include "harness/suite_registry.h"
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

// The node's GPU count in every source besides the inventory.
std::vector<GpuCountEvidence> OtherGpuCounts(const SuiteContext& context, const std::string& node) {
  return OtherGpuCounts(ReadTopoMatrix(context.raw, node), ReadNvlinkStatus(context.raw, node),
                        ReadCudaP2p(context.raw, node));
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "GPU count and model, NVLink all-to-all through NVSwitch, every NVLink active at speed, fabric registered, P2P access and bandwidth",
    .checks = {
        {kGpuCountAndModel, "the node has the profile's GPU count, each of the profile's model (every source agrees)",
         true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckGpuCountAndModel(node, ReadGpuInventory(c.raw, node), c.profile, OtherGpuCounts(c, node));
         }},
        {kAllPairsNvlinkConnected, "every GPU pair is NV<k> (k = nvlink.links_per_gpu) in nvidia-smi topo -m", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckAllPairsNvlinkConnected(node, ReadTopoMatrix(c.raw, node), c.profile);
         }},
        {kAllLinksActive,
         "every GPU has nvlink.links_per_gpu links, each active at >= link_bandwidth_gb_per_s, to an NVSwitch", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckAllLinksActive(node, ReadNvlinkStatus(c.raw, node), c.profile);
         }},
        {kFabricRegistered, "every GPU that reports a fabric state is Completed / Success", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckFabricRegistered(node, ReadGpuInventory(c.raw, node), c.profile);
         }},
        {kPeerAccessAllPairs, "cudaDeviceCanAccessPeer is 1 for every ordered GPU pair", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckPeerAccessAllPairs(node, ReadCudaP2p(c.raw, node), c.profile);
         }},
        {kP2pBandwidthAtFloor, "every GPU pair copies at >= nvlink.p2p_bandwidth_floor_gb_per_s one way", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckP2pBandwidthAtFloor(node, ReadCudaP2p(c.raw, node), c.profile);
         }},
        {kP2pBandwidthUniform, "no GPU pair copies below 0.8x the node's median, one way or both ways", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckP2pBandwidthUniform(node, ReadCudaP2p(c.raw, node), c.profile);
         }},
    },
    .probes = JoinProbes({GpuFactProbes(), {NvidiaSmiTopoMatrix(), CudaP2pProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nvswitch
