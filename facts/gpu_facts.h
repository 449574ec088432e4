// A node's GPU facts, and the one policy for which source gives "this node's GPUs". Every suite
// reads a node's GPUs through these readers; none picks a source itself. The policy, by what
// the reader wants to know:
//  - The GPUs as hardware (count, model, PCIe link, NVLinks, fabric state): ReadGpuInventory and
//    ReadNvlinkStatus. NVML (nvml.txt) is the source of record where it was obtained, because it
//    alone says where each NVLink leads and reads the fabric state without parsing a report meant
//    for people; otherwise nvidia-smi (-q -x for the GPUs, nvlink -s for the links). A present
//    nvml.txt that does not parse is an error, not a reason to fall back. When neither source
//    answers, the error names both. (NvSwitch, Pcie.)
//  - The GPUs' health (ECC, row remapping, retired pages, clock events, persistence): ReadGpuHealth.
//    nvidia-smi -q, which reports them (the NVML probe does not): the -x form, else the text form
//    a snapshot may hold instead; where neither gave an output, the GPUs nvidia-smi named as ones
//    it cannot open are still a fact. (GpuHealth.)
//  - What the driver itself reports (its version, the CUDA version, the GPUs it lists):
//    ReadNvidiaSmiQuery, nvidia-smi -q -x alone; ReadDriverVersion and ReadCudaVersion read
//    it. (Software, SlurmGres.)
// The sources are never merged field by field: a snapshot's facts are one tool's view. Each
// reader parses its input once per run (ClusterRaw::facts). Pure: raw outputs in.
#pragma once

#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/probe.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "probes/versions/versions_facts.h"

namespace gpuconform::facts {

using namespace gpuconform::nvidia_smi;

// What a missing nvidia-smi means: the driver package provides it, so there is no driver.
inline constexpr char kNoDriver[] = "no NVIDIA driver was found on the node (nvidia-smi not installed)";

// The probes ReadGpuInventory and ReadNvlinkStatus read: nvml, nvidia-smi -q -x, nvidia-smi nvlink -s.
std::vector<ProbeSpec> GpuFactProbes();
// The probes ReadGpuHealth reads: nvidia-smi -q -x, and nvidia-smi -q (text; snapshots only).
std::vector<ProbeSpec> GpuHealthProbes();

// The GPUs as hardware: NVML, else nvidia-smi -q -x.
const Result<nvidia_smi::GpuInventory>& ReadGpuInventory(const ClusterRaw& raw, const std::string& node);
const Result<NvlinkStatus>& ReadNvlinkStatus(const ClusterRaw& raw, const std::string& node);
// The GPUs' health fields: nvidia-smi -q -x, else its text form, else the GPUs it cannot open
// (an inventory with inaccessible_bus_ids alone); otherwise -x's error, naming node, file and cause.
const Result<nvidia_smi::GpuInventory>& ReadGpuHealth(const ClusterRaw& raw, const std::string& node);
// The node's `nvidia-smi -q -x` alone (not NVML): the driver and CUDA versions and the GPUs as
// nvidia-smi lists them.
const Result<nvidia_smi::GpuInventory>& ReadNvidiaSmiQuery(const ClusterRaw& raw, const std::string& node);
// The driver's version and its CUDA version (driver API), from nvidia-smi -q -x: the probe's
// status where it gave no output (nvidia-smi not installed is a fact), else the field or why
// there is none.
versions::VersionReading ReadDriverVersion(const ClusterRaw& raw, const std::string& node);
versions::VersionReading ReadCudaVersion(const ClusterRaw& raw, const std::string& node);
// Each NVLink's error counters: NVML's DL counters where nvml.txt reports them, else
// `nvidia-smi nvlink -e` (the same counters, through the same driver).
const Result<nvidia_smi::NvlinkErrorReport>& ReadNvlinkErrorCounters(const ClusterRaw& raw, const std::string& node);
// The node's `nvidia-smi topo -m` (nvidia_smi::NvidiaSmiTopoMatrix), which NvSwitch and
// InfiniBand both read.
const Result<TopoMatrix>& ReadTopoMatrix(const ClusterRaw& raw, const std::string& node);
// The node's CUDA P2P report (cuda-p2p.txt): peer access and copy bandwidth of every pair.
const Result<cuda_p2p::P2pReport>& ReadCudaP2p(const ClusterRaw& raw, const std::string& node);

}  // namespace gpuconform::facts
