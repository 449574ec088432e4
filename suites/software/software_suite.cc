// Software suite glue: which reader gives each component's version on a node (the version
// probes' readers, probes/versions/versions_facts.h; the driver's through facts/gpu_facts.h),
// one cluster-wide check per component; and the suite's registration.
#include "facts/gpu_facts.h"
#include "harness/suite_registry.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/versions/versions_facts.h"
#include "probes/versions/versions_probes.h"
#include "suites/software/software_checks.h"

namespace gpuconform::software {

using namespace gpuconform::versions;

namespace {

using VersionReader = VersionReading (*)(const ClusterRaw& raw, const std::string& node);

struct ComponentSource {
  Component component;
  ProbeSpec probe;
  VersionReader read = nullptr;
};

const std::vector<ComponentSource>& Components() {
  static const std::vector<ComponentSource> kComponents = {
      {{"kernel", "kernel", "KernelVersionIdentical", false,
        "reimage the odd node, or roll the kernel update out to every node"},
       KernelRelease(), ReadKernelRelease},
      {{"driver", "NVIDIA driver", "DriverVersionIdentical", true,
        "install the same driver on every node (a driver mismatch breaks NCCL and fabric manager)"},
       nvidia_smi::NvidiaSmiQueryXml(), facts::ReadDriverVersion},
      {{"cuda", "CUDA version (driver API)", "CudaVersionIdentical", true,
        "install the same driver and CUDA on every node"},
       nvidia_smi::NvidiaSmiQueryXml(), facts::ReadCudaVersion},
      {{"nccl", "NCCL", "NcclVersionIdentical", true,
        "install the same NCCL on every node (mixed NCCL versions can hang collectives)"},
       NcclVersion(), ReadNcclVersion},
      {{"slurm", "Slurm (slurmd)", "SlurmVersionIdentical", false,
        "upgrade slurmd on every node to the controller's version"},
       SlurmdVersion(), ReadSlurmdVersion},
      {{"munge", "MUNGE", "MungeVersionIdentical", false, "install the same munge package on every node"},
       MungedVersion(), ReadMungedVersion},
      {{"mpi", "MPI library", "MpiVersionIdentical", false,
        "install the same MPI on every node (ranks of different MPI builds cannot talk)"},
       MpiLibraryVersion(), ReadMpiLibraryVersion},
      {{"gpuconform", "gpuconform", "GpuconformVersionIdentical", false,
        "run the same gpuconform build on every node (put it on shared storage)"},
       GpuconformVersion(), ReadGpuconformVersion},
  };
  return kComponents;
}

// One component's check: every node's reading, judged together.
CheckJudge JudgeComponent(const ComponentSource& source) {
  return [&source](const SuiteContext& context, const std::string&) {
    std::map<std::string, VersionReading> readings;
    for (const auto& node : context.raw.nodes) readings[node] = source.read(context.raw, node);
    return CheckVersionsIdentical(source.component, readings, context.profile);
  };
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary = "kernel, driver, CUDA, NCCL, Slurm, MUNGE, MPI and gpuconform versions identical on every node";
  for (const auto& source : Components()) {
    suite.checks.push_back(
        {source.component.check, "every node runs the same " + source.component.label, false, JudgeComponent(source)});
    AddProbeOnce(suite.probes, source.probe);
  }
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::software
