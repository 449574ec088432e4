// Software suite glue: which probes feed which component, and the suite's registration.
#include "facts/gpu_facts.h"
#include "harness/raw_text.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/versions/versions_probes.h"
#include "harness/suite_registry.h"
#include "suites/software/software_checks.h"
#include "probes/versions/versions_parse.h"

namespace gpuconform::software {

using namespace gpuconform::versions;

namespace {

using TextParser = Result<std::string> (*)(const std::string& text, const std::string& origin);
// A version read from the node's nvidia-smi -q -x, which the facts layer parses once.
using InventoryField = Result<std::string> (*)(const nvidia_smi::GpuInventory& inventory, const std::string& origin);

struct ComponentSource {
  Component component;
  ProbeSpec probe;
  TextParser parse = nullptr;            // the probe's own output, or
  InventoryField from_inventory = nullptr;  // a field of nvidia-smi -q -x
};

Result<std::string> DriverField(const nvidia_smi::GpuInventory& inventory, const std::string& origin) {
  auto versions = VersionsOf(inventory, origin);
  if (!versions) return Error{versions.error()};
  return versions->driver;
}

Result<std::string> CudaField(const nvidia_smi::GpuInventory& inventory, const std::string& origin) {
  auto versions = VersionsOf(inventory, origin);
  if (!versions) return Error{versions.error()};
  if (versions->cuda.empty()) return Error{origin + ":1: <nvidia_smi_log> has no <cuda_version>"};
  return versions->cuda;
}

const std::vector<ComponentSource>& Components() {
  static const std::vector<ComponentSource> kComponents = {
      {{"kernel", "kernel", "KernelVersionIdentical", false,
        "reimage the odd node, or roll the kernel update out to every node"},
       KernelRelease(), ParseKernelRelease},
      {{"driver", "NVIDIA driver", "DriverVersionIdentical", true,
        "install the same driver on every node (a driver mismatch breaks NCCL and fabric manager)"},
       nvidia_smi::NvidiaSmiQueryXml(), nullptr, DriverField},
      {{"cuda", "CUDA version (driver API)", "CudaVersionIdentical", true,
        "install the same driver and CUDA on every node"},
       nvidia_smi::NvidiaSmiQueryXml(), nullptr, CudaField},
      {{"nccl", "NCCL", "NcclVersionIdentical", true,
        "install the same NCCL on every node (mixed NCCL versions can hang collectives)"},
       NcclVersion(), ParseDottedVersion},
      {{"slurm", "Slurm (slurmd)", "SlurmVersionIdentical", false,
        "upgrade slurmd on every node to the controller's version"},
       SlurmdVersion(), ParseSlurmdVersion},
      {{"munge", "MUNGE", "MungeVersionIdentical", false, "install the same munge package on every node"},
       MungedVersion(), ParseMungedVersion},
      {{"mpi", "MPI library", "MpiVersionIdentical", false,
        "install the same MPI on every node (ranks of different MPI builds cannot talk)"},
       MpiLibraryVersion(), ParseMpiLibraryVersion},
      {{"gpuconform", "gpuconform", "GpuconformVersionIdentical", false,
        "run the same gpuconform build on every node (put it on shared storage)"},
       GpuconformVersion(), ParseDottedVersion},
  };
  return kComponents;
}

VersionReading Read(const ClusterRaw& raw, const std::string& node, const ComponentSource& source) {
  const RawOutput out = raw.NodeOutput(node, source.probe.id);
  VersionReading reading;
  if (!out.ok()) {
    reading.not_installed = out.status == ProbeStatus::kToolMissing;
    // UsableText quotes the tool's own first line (nvidia-smi's "couldn't communicate with the
    // NVIDIA driver"), not only its exit status.
    const auto usable = UsableText(out, node, source.probe.file, "not installed on the node");
    reading.problem = usable ? out.detail : usable.error();
    reading.reason = ProbeStatusReason(out.status);
    return reading;
  }
  Result<std::string> version = Error{""};
  if (source.parse != nullptr) {
    version = source.parse(out.text, out.origin);
  } else if (auto inventory = facts::ReadNvidiaSmiQuery(raw, node)) {
    version = source.from_inventory(*inventory, out.origin);
  } else {
    version = Error{inventory.error()};
  }
  if (version) {
    reading.version = *version;
  } else {
    reading.problem = version.error();
  }
  return reading;
}

std::vector<CheckResult> Evaluate(const SuiteContext& context) {
  std::vector<CheckResult> results;
  for (const auto& source : Components()) {
    std::map<std::string, VersionReading> readings;
    for (const auto& node : context.raw.nodes) {
      readings[node] = Read(context.raw, node, source);
    }
    results.push_back(CheckVersionsIdentical(source.component, readings, context.profile));
  }
  return results;
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "kernel, driver, CUDA, NCCL, Slurm, MUNGE, MPI and gpuconform versions identical on every node";
  for (const auto& source : Components()) {
    suite.checks.push_back({source.component.check, "every node runs the same " + source.component.label, false});
    AddProbeOnce(suite.probes, source.probe);
  }
  suite.evaluate = Evaluate;
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::software
