// NvSwitch suite checks: on an 8-GPU SXM node every GPU reaches every other through the
// NVSwitch crossbar with all of its NVLinks (NV18 on H100/H200, NV12 on A100); a pair routed
// over PCIe is an order of magnitude slower, and one dead link costs 1/k of every
// all-reduce. Pure: the node's facts, already read (facts/gpu_facts.h), + profile in, one
// judgement per node out. A profile without GPUs (or, for the link checks, without an nvlink
// section) makes the checks inapplicable: the suite skips them before reading anything
// (GpuCountSkipReason, LinkChecksSkipReason), so a check is judged only under a profile that
// states what it judges. Facts that could not be read are the suite's errors, except where
// another source still decides (CheckGpuCountWithoutInventory).
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::nvswitch {

using namespace gpuconform::nvidia_smi;

inline constexpr char kSuite[] = "NvSwitch";

// Why GpuCountAndModel does not apply: the profile expects no GPUs. nullopt when it applies.
std::optional<std::string> GpuCountSkipReason(const Profile& profile);
// Why the checks of how the GPUs are linked (every check but GpuCountAndModel) do not apply:
// the profile expects no GPUs, or has no nvlink section. nullopt when they apply.
std::optional<std::string> LinkChecksSkipReason(const Profile& profile);

// How many GPUs one more source saw on the node (nvidia-smi topo -m, NVLink status, CUDA).
struct GpuCountEvidence {
  std::string source;  // "nvidia-smi topo -m", "the NVLink status", "the CUDA runtime"
  int count = 0;
};

// The node has profile.gpu.count_per_node GPUs, each a model containing gpu.model_contains.
// Every other source that counted the node's GPUs must agree: a source that shows another
// count fails the check, naming the source.
GPUCONFORM_CHECK_NAME(GpuCountAndModel);
CheckResult CheckGpuCountAndModel(const std::string& node, const nvidia_smi::GpuInventory& inventory,
                                  const Profile& profile, const std::vector<GpuCountEvidence>& other_counts = {});
// GpuCountAndModel where the inventory could not be read (`unread` says why): a source that
// contradicts the profile's count still fails the check (the message keeps why the inventory
// is missing); without one, the check is an error, unavailable, quoting `unread`.
CheckResult CheckGpuCountWithoutInventory(const std::string& node, const std::string& unread, const Profile& profile,
                                          const std::vector<GpuCountEvidence>& other_counts);

// The finding a source gets when it counts `count` GPUs and the profile expects another
// number, or nullopt when they agree (or the profile does not say).
std::optional<Finding> GpuCountContradiction(const std::string& node, const std::string& source, int count,
                                             const Profile& profile);

// Every GPU pair is NV<k> with k = nvlink.links_per_gpu in `nvidia-smi topo -m`.
GPUCONFORM_CHECK_NAME(AllPairsNvlinkConnected);
CheckResult CheckAllPairsNvlinkConnected(const std::string& node, const TopoMatrix& matrix, const Profile& profile);

// Every GPU has nvlink.links_per_gpu links active at >= nvlink.link_bandwidth_gb_per_s and,
// where the source says where a link leads (NVML), to an NVSwitch. Ports a GPU lists beyond
// that count may be inactive (an H100 NVL bridged pair lists 18 and uses 12); ports within it
// may not.
GPUCONFORM_CHECK_NAME(AllLinksActive);
CheckResult CheckAllLinksActive(const std::string& node, const NvlinkStatus& status, const Profile& profile);

// Every GPU that reports an NVLink fabric state (Hopper and later, driver r530+) has state
// Completed and status Success: the fabric manager registered it with the NVSwitch fabric.
// Skipped, saying so, where no GPU of the node reports one.
GPUCONFORM_CHECK_NAME(FabricRegistered);
CheckResult CheckFabricRegistered(const std::string& node, const nvidia_smi::GpuInventory& inventory,
                                  const Profile& profile);

}  // namespace gpuconform::nvswitch
