// Where the GPU facts of a node come from. Contract: NVML (nvml.txt) is the source of record
// where it was obtained, because it alone says where each NVLink leads and reads the fabric
// state without parsing a report meant for people; otherwise nvidia-smi (-q -x for the GPUs,
// nvlink -s for the links). The sources are never merged field by field: a snapshot's facts
// are one tool's view. A present nvml.txt that does not parse is an error, not a reason to
// fall back. When neither source answers, the error names both. Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/cluster_raw.h"
#include "harness/probe.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::facts {

using namespace gpuconform::nvidia_smi;

// What a missing nvidia-smi means: the driver package provides it, so there is no driver.
inline constexpr char kNoDriver[] = "no NVIDIA driver was found on the node (nvidia-smi not installed)";

// The probes ReadGpuInventory and ReadNvlinkStatus read: nvml, nvidia-smi -q -x, nvidia-smi nvlink -s.
std::vector<ProbeSpec> GpuFactProbes();

Result<nvidia_smi::GpuInventory> ReadGpuInventory(const ClusterRaw& raw, const std::string& node);
// The node's `nvidia-smi -q -x` alone (not NVML), parsed once: the driver and CUDA versions
// and the GPUs as nvidia-smi lists them (Software, SlurmGres, and ReadGpuInventory without NVML).
Result<nvidia_smi::GpuInventory> ReadNvidiaSmiQuery(const ClusterRaw& raw, const std::string& node);
Result<NvlinkStatus> ReadNvlinkStatus(const ClusterRaw& raw, const std::string& node);
// The node's `nvidia-smi topo -m` (nvidia_smi::NvidiaSmiTopoMatrix), which NvSwitch and
// InfiniBand both read.
Result<TopoMatrix> ReadTopoMatrix(const ClusterRaw& raw, const std::string& node);
// The node's CUDA P2P report (cuda-p2p.txt): peer access and copy bandwidth of every pair.
Result<cuda_p2p::P2pReport> ReadCudaP2p(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::facts
