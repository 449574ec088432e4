#include "suites/nccl_topology/nccl_topology_checks.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"

namespace gpuconform::nccl_topology {

namespace {

constexpr char kStaticFileHint[] =
    "a static NCCL_TOPO_FILE skeleton states only what NCCL cannot detect; judge NCCL's own dump instead "
    "(run a job with NCCL_TOPO_DUMP_FILE=<file> and keep it as nodes/<host>/nccl-topo.xml)";

constexpr char kOtherMachineHint[] =
    "if NCCL_TOPO_FILE is set, check that the file was written for this machine type (unset it to let NCCL detect)";

std::optional<std::string> GpuSkipReason(const Profile& profile) {
  return gpuconform::GpuSkipReason(profile, "NCCL's topology does not apply");
}

std::optional<std::string> NvlinkSkipReason(const Profile& profile) {
  if (auto gpu = GpuSkipReason(profile)) return gpu;
  if (!profile.nvlink || profile.nvlink->links_per_gpu <= 0) {
    return "profile " + profile.name + " expects no NVLink fabric (no nvlink.links_per_gpu)";
  }
  return std::nullopt;
}

std::optional<std::string> NicSkipReason(const Profile& profile) {
  if (auto gpu = GpuSkipReason(profile)) return gpu;
  if (!profile.infiniband) return "profile " + profile.name + " does not say which RDMA NICs a node has (no infiniband section)";
  if (!profile.infiniband->present) {
    return "profile " + profile.name + " has no RDMA NICs (infiniband.present: false)";
  }
  return std::nullopt;
}


std::string GpuLabel(const Topology& topology, const Gpu& gpu, std::size_t index) {
  const int number = gpu.dev.value_or(static_cast<int>(index));
  std::string label = "gpu" + std::to_string(number);
  if (gpu.pci >= 0 && !topology.pcis[gpu.pci].busid.empty()) label += " (" + topology.pcis[gpu.pci].busid + ")";
  return label;
}

std::string GpuName(const Gpu& gpu, std::size_t index) {
  return "gpu" + std::to_string(gpu.dev.value_or(static_cast<int>(index)));
}

std::string GpuEntity(const std::string& node, const Gpu& gpu, std::size_t index) {
  return node + "/" + GpuName(gpu, index);
}

std::string NumaText(const Topology& topology, int cpu) {
  if (cpu < 0) return "no CPU";
  const auto& numa = topology.cpus[cpu].numa_id;
  return numa ? "NUMA " + std::to_string(*numa) : "CPU " + std::to_string(cpu);
}

// A NIC as the checks see it: a <net> where the file has them, else a PCI device of network class.
struct NicView {
  std::string label;  // "mlx5_0 (0000:18:00.0)"
  int pci = -1;
  int cpu = -1;
  const Net* net = nullptr;
};

std::vector<NicView> Nics(const Topology& topology) {
  std::vector<NicView> nics;
  if (!topology.nets.empty()) {
    for (const auto& net : topology.nets) {
      NicView nic{net.name.empty() ? "net" + std::to_string(net.dev.value_or(0)) : net.name, net.pci, net.cpu, &net};
      if (net.pci >= 0 && !topology.pcis[net.pci].busid.empty()) nic.label += " (" + topology.pcis[net.pci].busid + ")";
      nics.push_back(nic);
    }
    return nics;
  }
  for (int i = 0; i < static_cast<int>(topology.pcis.size()); ++i) {
    const auto& pci = topology.pcis[i];
    if (IsNicClass(pci.class_code)) nics.push_back({"NIC " + pci.busid, i, pci.cpu, nullptr});
  }
  return nics;
}

// The class NCCL records for an NVLink target: tclass, else the class of that bus id in the file.
std::string TargetClass(const Topology& topology, const NvLink& link) {
  if (!link.target_class.empty()) return link.target_class;
  for (const auto& pci : topology.pcis) {
    if (!link.target_busid.empty() && pci.busid == link.target_busid) return pci.class_code;
  }
  return "";
}

// The outermost PCI device above `pci` that is a switch (has PCI children); -1 when the
// device hangs directly off the CPU's root complex.
int SwitchTreeRoot(const Topology& topology, int pci) {
  int root = -1;
  for (int at = topology.pcis[pci].parent; at >= 0; at = topology.pcis[at].parent) {
    if (topology.pcis[at].has_pci_children) root = at;
  }
  return root;
}

bool IsUnder(const Topology& topology, int pci, int ancestor) {
  for (int at = pci; at >= 0; at = topology.pcis[at].parent) {
    if (at == ancestor) return true;
  }
  return false;
}

std::string ProfileNote(const Profile& profile, const std::string& key) {
  return "(profile " + profile.name + " " + key + ")";
}

}  // namespace

std::optional<std::string> NotApplicable(const std::string& check, const Profile& profile) {
  if (check == kGpuCount) return GpuSkipReason(profile);
  if (check == kNvlinkCountPerGpu) return NvlinkSkipReason(profile);
  return NicSkipReason(profile);
}

const std::vector<std::string>& CheckNames() {
  static const std::vector<std::string> kNames = {kGpuCount, kNvlinkCountPerGpu, kNicCountSpeedGdr,
                                                  kGpuHasNicUnderPcieSwitch};
  return kNames;
}

CheckResult CheckGpuCount(const std::string& node, const Topology& topology, const Profile& profile) {
  const int expected = profile.gpu->count_per_node;
  const int observed = static_cast<int>(topology.gpus.size());
  if (observed == 0 && !topology.any_pci_class) {
    return Errored("not-reported",
                   node + ": the topology names no PCI classes and no <gpu>, so it does not say how many GPUs there "
                          "are; " + kStaticFileHint);
  }
  std::vector<Finding> findings;
  if (observed != expected) {
    findings.push_back({"gpu-count", node,
                        node + ": NCCL's topology has " + std::to_string(observed) + " GPUs, expected " +
                            std::to_string(expected) + " " + ProfileNote(profile, "gpu.count_per_node") +
                            "; a GPU missing here is invisible to NCCL (check nvidia-smi -L, CUDA_VISIBLE_DEVICES, "
                            "the Slurm GPU binding); " + kOtherMachineHint});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".gpus", std::to_string(observed), "", "== " + std::to_string(expected),
                                 profile.gpu->source});
  return result;
}

CheckResult CheckNvlinkCountPerGpu(const std::string& node, const Topology& topology, const Profile& profile) {
  const int expected = profile.nvlink->links_per_gpu;
  const bool any_declared =
      std::any_of(topology.gpus.begin(), topology.gpus.end(), [](const Gpu& gpu) { return gpu.declared; });
  if (!any_declared) {
    return Errored("not-reported",
                   node + ": the topology has " + std::to_string(topology.gpus.size()) +
                       " GPU(s) but no <gpu> element, so it states no NVLinks; " + kStaticFileHint);
  }
  std::vector<Finding> findings;
  CheckResult result = Passed();
  for (std::size_t i = 0; i < topology.gpus.size(); ++i) {
    const Gpu& gpu = topology.gpus[i];
    const std::string label = node + "/" + GpuLabel(topology, gpu, i);
    if (!gpu.declared) {
      findings.push_back({"gpu-undeclared", GpuEntity(node, gpu, i),
                          label + ": listed as a PCI device without <gpu>, so NCCL has no NVLinks for it, expected " +
                              std::to_string(expected) + " " + ProfileNote(profile, "nvlink.links_per_gpu") + "; " +
                              kOtherMachineHint});
      continue;
    }
    int to_nvswitch = 0;
    std::vector<std::string> elsewhere;
    for (const auto& link : gpu.nvlinks) {
      const std::string target_class = TargetClass(topology, link);
      if (IsNvSwitchClass(target_class)) {
        to_nvswitch += link.count.value_or(0);
      } else {
        elsewhere.push_back(std::to_string(link.count.value_or(0)) + " to " +
                            (link.target_busid.empty() ? "an unnamed target" : link.target_busid) +
                            (target_class.empty() ? " (class unknown)" : " (class " + target_class + ")"));
      }
    }
    result.measurements.push_back({node + "." + GpuName(gpu, i) + ".nvlinks_to_nvswitch",
                                   std::to_string(to_nvswitch), "links", "== " + std::to_string(expected),
                                   profile.nvlink->source});
    if (to_nvswitch == expected) continue;
    std::string message = label + ": " + std::to_string(to_nvswitch) + " NVLinks to NVSwitches, expected " +
                          std::to_string(expected) + " " + ProfileNote(profile, "nvlink.links_per_gpu");
    if (gpu.nvlinks.empty()) {
      message += "; the <gpu> has no <nvlink> at all, so NCCL sends GPU-to-GPU traffic over PCIe or host memory";
    } else if (!elsewhere.empty()) {
      message += "; other NVLinks: " + Join(elsewhere, ", ") + " (not an NVSwitch)";
    }
    message += "; check `nvidia-smi nvlink -s` and nvidia-fabricmanager; " + std::string(kOtherMachineHint);
    findings.push_back({"nvlink-count", GpuEntity(node, gpu, i), message});
  }
  if (findings.empty()) return result;
  CheckResult failed = Failed(std::move(findings));
  failed.measurements = std::move(result.measurements);
  return failed;
}

CheckResult CheckNicCountSpeedGdr(const std::string& node, const Topology& topology, const Profile& profile) {
  const auto& ib = *profile.infiniband;
  const std::vector<NicView> nics = Nics(topology);
  if (nics.empty() && !topology.any_pci_class) {
    return Errored("not-reported",
                   node + ": the topology names no PCI classes and no <nic>, so it does not say which NICs there "
                          "are; " + kStaticFileHint);
  }
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  const int count = static_cast<int>(nics.size());
  measurements.push_back({node + ".nics", std::to_string(count), "", "== " + std::to_string(ib.rail_nics_per_node),
                          ib.source});
  if (count != ib.rail_nics_per_node) {
    findings.push_back({"nic-count", node,
                        node + ": NCCL's topology has " + std::to_string(count) + " NIC(s), expected " +
                            std::to_string(ib.rail_nics_per_node) + " " +
                            ProfileNote(profile, "infiniband.rail_nics_per_node") +
                            (count < ib.rail_nics_per_node
                                 ? "; with fewer rails NCCL shares NICs between GPUs and inter-node bandwidth drops "
                                   "(check ibstat, NCCL_IB_HCA); "
                                 : "; NCCL may stripe traffic over devices that are not rails (restrict it with "
                                   "NCCL_IB_HCA); ") +
                            kOtherMachineHint});
  }
  const bool want_gdr = profile.nccl && profile.nccl->gpudirect_rdma;
  const long long floor_mbit_per_s = static_cast<long long>(ib.rate_gbit_per_s) * 1000;
  int stated_speeds = 0;
  for (const auto& nic : nics) {
    const std::string entity = node + "/" + (nic.net && !nic.net->name.empty() ? nic.net->name : nic.label);
    const std::string class_code = nic.pci >= 0 ? topology.pcis[nic.pci].class_code : "";
    if (ib.link_layer == "InfiniBand" && IsEthernetClass(class_code)) {
      findings.push_back({"nic-link-layer", entity,
                          node + "/" + nic.label + ": PCI class " + class_code +
                              " is an Ethernet (RoCE) device, expected InfiniBand " +
                              ProfileNote(profile, "infiniband.link_layer") +
                              "; check the HCA's port mode (mlxconfig LINK_TYPE) and NCCL_IB_HCA"});
    } else if (ib.link_layer == "Ethernet" && IsInfinibandClass(class_code)) {
      findings.push_back({"nic-link-layer", entity,
                          node + "/" + nic.label + ": PCI class " + class_code + " is an InfiniBand HCA, expected " +
                              "Ethernet (RoCE) " + ProfileNote(profile, "infiniband.link_layer")});
    }
    if (!nic.net) continue;
    if (nic.net->speed_mbit_per_s) {
      ++stated_speeds;
      const long long speed = *nic.net->speed_mbit_per_s;
      measurements.push_back({entity + ".speed", std::to_string(speed / 1000), "Gbit/s",
                              ">= " + std::to_string(ib.rate_gbit_per_s), ib.source});
      if (ib.rate_gbit_per_s > 0 && speed < floor_mbit_per_s) {
        findings.push_back({"nic-speed", entity,
                            node + "/" + nic.label + ": speed " + std::to_string(speed / 1000) + " Gbit/s, expected >= " +
                                std::to_string(ib.rate_gbit_per_s) + " Gbit/s " +
                                ProfileNote(profile, "infiniband.rate_gbit_per_s") +
                                "; check the port rate in ibstat (a degraded link, a cable, or another NIC model)"});
      }
    }
    if (want_gdr && nic.net->gdr && !*nic.net->gdr) {
      findings.push_back({"nic-no-gdr", entity,
                          node + "/" + nic.label + ": gdr=0, expected GPUDirect RDMA " +
                              ProfileNote(profile, "nccl.gpudirect_rdma") +
                              "; load nvidia-peermem (lsmod | grep nvidia_peermem) or use DMA-BUF, and keep the NIC "
                              "under the GPU's PCIe switch"});
    }
  }
  if (want_gdr) {
    for (std::size_t i = 0; i < topology.gpus.size(); ++i) {
      const Gpu& gpu = topology.gpus[i];
      if (gpu.gdr && !*gpu.gdr) {
        findings.push_back({"gpu-no-gdr", GpuEntity(node, gpu, i),
                            node + "/" + GpuLabel(topology, gpu, i) + ": gdr=0, expected GPUDirect RDMA " +
                                ProfileNote(profile, "nccl.gpudirect_rdma") +
                                "; load nvidia-peermem or enable DMA-BUF (NCCL_DMABUF_ENABLE)"});
      }
    }
  }
  if (stated_speeds == 0) {
    measurements.push_back({node + ".nic_speed", "not stated (no <net speed>)", "", "", ""});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements = std::move(measurements);
  return result;
}

CheckResult CheckGpuHasNicUnderPcieSwitch(const std::string& node, const Topology& topology) {
  if (topology.gpus.empty()) {
    return Errored("not-reported",
                   node + (topology.any_pci_class ? ": the topology has no GPU" :
                          ": the topology names no PCI classes and no <gpu>, so it does not say where the GPUs are") +
                       "; " + kStaticFileHint);
  }
  std::set<int> nic_pcis;
  std::vector<int> cpu_level_nic_cpus;
  for (const auto& nic : Nics(topology)) {
    if (nic.pci >= 0) {
      nic_pcis.insert(nic.pci);
    } else {
      cpu_level_nic_cpus.push_back(nic.cpu);
    }
  }
  std::vector<Finding> findings;
  for (std::size_t i = 0; i < topology.gpus.size(); ++i) {
    const Gpu& gpu = topology.gpus[i];
    const std::string label = node + "/" + GpuLabel(topology, gpu, i);
    if (gpu.pci < 0) {
      findings.push_back({"gpu-not-on-pcie", GpuEntity(node, gpu, i),
                          label + ": the <gpu> is not inside a <pci>, so its NIC affinity is unknown"});
      continue;
    }
    const int root = SwitchTreeRoot(topology, gpu.pci);
    bool under_switch = false;
    bool same_numa = false;
    for (int nic : nic_pcis) {
      if (root >= 0 && IsUnder(topology, nic, root)) under_switch = true;
      if (topology.pcis[nic].cpu == gpu.cpu) same_numa = true;
    }
    for (int cpu : cpu_level_nic_cpus) same_numa = same_numa || cpu == gpu.cpu;
    if (under_switch) continue;
    std::string message = label + " on " + NumaText(topology, gpu.cpu) + ": ";
    if (root < 0) {
      message += "hangs directly off the CPU (no PCIe switch)";
    } else {
      message += "no NIC under its PCIe switch " + topology.pcis[root].busid;
    }
    if (nic_pcis.empty() && cpu_level_nic_cpus.empty()) {
      message += " and the topology has no NIC at all";
    } else if (same_numa) {
      message += "; the nearest NIC is on the same NUMA node but across the CPU root complex (NCCL path PHB)";
    } else {
      message += "; no NIC on its NUMA node either, so traffic crosses the inter-socket link (NCCL path SYS)";
    }
    message += "; expected a NIC in every GPU's PCIe switch tree (PIX/PXB) so GPUDirect RDMA stays on the switch "
               "(NCCL_NET_GDR_LEVEL defaults to PXB); " + std::string(kOtherMachineHint);
    findings.push_back({"gpu-nic-affinity", GpuEntity(node, gpu, i), message});
  }
  return FromFindings(std::move(findings));
}

}  // namespace gpuconform::nccl_topology
