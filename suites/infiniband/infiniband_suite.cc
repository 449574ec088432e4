// InfiniBand suite glue: the checks, judged per node from the port facts (facts/ib_port_facts.h) and the topology matrix, and the registration.
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "harness/suite_registry.h"
#include "harness/raw_text.h"
#include "suites/infiniband/infiniband_checks.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

namespace gpuconform::infiniband {

using namespace gpuconform::facts;
using namespace gpuconform::ib_tools;
using namespace gpuconform::nvidia_smi;

namespace {

SuiteDefinition Definition() {
  return {
    .name = kSuite,
    .summary = "rail NICs present, every rail port Active/LinkUp at the profile's rate, a rail NIC beside each GPU",
    .checks = {
        {kRailNicsPresent, "the node has infiniband.rail_nics_per_node ports of the profile's link layer", true,
         [](const SuiteContext& c, const std::string& node) {
           const auto matrix = ReadTopoMatrix(c.raw, node);
           const std::optional<int> topo_nics =
               matrix ? std::optional<int>(static_cast<int>(matrix->nics.size())) : std::nullopt;
           return CheckRailNicsPresent(node, ReadPorts(c.raw, node), c.profile, topo_nics);
         }},
        {kPortsActiveAtRate, "every rail port is Active / LinkUp at infiniband.rate_gbit_per_s", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckPortsActiveAtRate(node, ReadPorts(c.raw, node), c.profile);
         }},
        {kGpuHasLocalRailNic, "every GPU has a rail NIC at PIX/PXB (where infiniband.gpu_local_nic_required)", true,
         [](const SuiteContext& c, const std::string& node) {
           return CheckGpuHasLocalRailNic(node, ReadTopoMatrix(c.raw, node), ReadPorts(c.raw, node), c.profile);
         }},
    },
    .probes = JoinProbes({PortProbes(), {NvidiaSmiTopoMatrix()}}),
  };
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::infiniband
