// Fuzzes NCCL topology XML (probes/nccl_topo/nccl_topo_parse.h: ParseTopologyXml), then the
// class predicates on every device and the indices the parser hands out.
#include "fuzz/fuzz_support.h"
#include "probes/nccl_topo/nccl_topo_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nccl_topo::ParseTopologyXml(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& topology) {
    for (const auto& pci : topology.pcis) {
      fuzz::Keep(nccl_topo::IsGpuClass(pci.class_code) || nccl_topo::IsNicClass(pci.class_code) ||
                 nccl_topo::IsInfinibandClass(pci.class_code) || nccl_topo::IsEthernetClass(pci.class_code));
      // The indices are the parser's promise: reading through them must stay in bounds.
      if (pci.parent >= 0) fuzz::Keep(topology.pcis.at(pci.parent).busid);
      if (pci.cpu >= 0) fuzz::Keep(topology.cpus.at(pci.cpu).numa_id);
    }
    for (const auto& gpu : topology.gpus) {
      if (gpu.pci >= 0) fuzz::Keep(topology.pcis.at(gpu.pci).busid);
      for (const auto& link : gpu.nvlinks) fuzz::Keep(nccl_topo::IsNvSwitchClass(link.target_class));
    }
    for (const auto& net : topology.nets) {
      if (net.pci >= 0) fuzz::Keep(topology.pcis.at(net.pci).busid);
    }
  });
  return 0;
}
