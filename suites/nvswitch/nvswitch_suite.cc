// NvSwitch suite glue: the checks, each judged per node from the GPU facts (facts/gpu_facts.h),
// read before the check and skipped before any read where the profile makes the check
// inapplicable; and the registration.
#include <algorithm>

#include "facts/gpu_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/cuda_p2p/cuda_p2p_probe.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "suites/nvswitch/nvlink_error_checks.h"
#include "suites/nvswitch/nvswitch_checks.h"
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

// GpuCountAndModel reads the inventory and every other source's count: where the inventory
// could not be read, the other sources still decide.
CheckResult JudgeGpuCount(const SuiteContext& context, const std::string& node) {
  const auto& inventory = ReadGpuInventory(context.raw, node);
  if (!inventory) {
    return CheckGpuCountWithoutInventory(node, inventory.error(), context.profile, OtherGpuCounts(context, node));
  }
  return CheckGpuCountAndModel(node, *inventory, context.profile, OtherGpuCounts(context, node));
}

// A check of how the GPUs are linked: applicable where the profile has GPUs and an nvlink
// section, judged from one fact the reader gives.
template <typename Fact>
CheckDefinition LinkCheck(const char* name, const char* requirement,
                          const Result<Fact>& (*read)(const ClusterRaw&, const std::string&),
                          CheckResult (*check)(const std::string&, const Fact&, const Profile&)) {
  return {.name = name,
          .requirement = requirement,
          .per_node = true,
          .judge = ReadThenJudge(
              [read](const SuiteContext& c, const std::string& node) -> decltype(auto) { return read(c.raw, node); },
              [check](const Fact& fact, const SuiteContext& c, const std::string& node) {
                return check(node, fact, c.profile);
              }),
          .not_applicable = [](const SuiteContext& c, const std::string&) { return LinkChecksSkipReason(c.profile); }};
}

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "GPU count and model, NVLink all-to-all through NVSwitch, every NVLink active at speed and its error "
               "counters within limits, fabric registered, P2P access and bandwidth",
    .checks = {
        {.name = kGpuCountAndModel,
         .requirement = "the node has the profile's GPU count, each of the profile's model (every source agrees)",
         .per_node = true,
         .judge = JudgeGpuCount,
         .not_applicable = [](const SuiteContext& c, const std::string&) { return GpuCountSkipReason(c.profile); }},
        LinkCheck(kAllPairsNvlinkConnected, "every GPU pair is NV<k> (k = nvlink.links_per_gpu) in nvidia-smi topo -m",
                  ReadTopoMatrix, CheckAllPairsNvlinkConnected),
        LinkCheck(kAllLinksActive,
                  "every GPU has nvlink.links_per_gpu links, each active at >= link_bandwidth_gb_per_s, to an NVSwitch",
                  ReadNvlinkStatus, CheckAllLinksActive),
        {.name = kNvlinkErrorCountersWithinLimits,
         .requirement = "every NVLink's CRC and replay errors <= 100 and no recovery since the driver loaded (NVML's "
                        "DL counters, else nvidia-smi nvlink -e); "
                        "with --history, none rising faster than link_counters.nvlink_errors_per_hour",
         .per_node = true,
         .judge = ReadThenJudge([](const SuiteContext& c, const std::string& node) -> decltype(auto) {
                                  return ReadNvlinkErrorCounters(c.raw, node);
                                },
                                [](const NvlinkErrorReport& report, const SuiteContext& c, const std::string& node) {
                                  return CheckNvlinkErrorCounters(node, report, c.profile.link_counters,
                                                                  c.counter_history.Of(node));
                                }),
         .not_applicable = [](const SuiteContext& c, const std::string&) { return LinkChecksSkipReason(c.profile); }},
        LinkCheck(kFabricRegistered, "every GPU that reports a fabric state is Completed / Success", ReadGpuInventory,
                  CheckFabricRegistered),
        LinkCheck(kPeerAccessAllPairs, "cudaDeviceCanAccessPeer is 1 for every ordered GPU pair", ReadCudaP2p,
                  CheckPeerAccessAllPairs),
        LinkCheck(kP2pBandwidthAtFloor, "every GPU pair copies at >= nvlink.p2p_bandwidth_floor_gb_per_s one way",
                  ReadCudaP2p, CheckP2pBandwidthAtFloor),
        LinkCheck(kP2pBandwidthUniform, "no GPU pair copies below 0.8x the node's median, one way or both ways",
                  ReadCudaP2p, CheckP2pBandwidthUniform),
    },
    .probes = JoinProbes({GpuFactProbes(), {NvidiaSmiTopoMatrix(), NvlinkErrorsProbe(), CudaP2pProbe()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::nvswitch
