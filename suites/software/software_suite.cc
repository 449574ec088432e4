// Software suite glue: which reader gives each component's version on a node (the version
// probes' readers, probes/versions/versions_facts.h; the driver's through facts/gpu_facts.h),
// one cluster-wide check per component; the firmware components' per-device readers
// (facts/firmware_facts.h); and the suite's registration.
#include "facts/firmware_facts.h"
#include "facts/gpu_facts.h"
#include "facts/ib_port_facts.h"
#include "harness/core/suite_registry.h"
#include "probes/nvidia_smi/nvidia_smi_probes.h"
#include "probes/versions/versions_facts.h"
#include "probes/versions/versions_probes.h"
#include "suites/software/firmware_checks.h"
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

using FirmwareReader = facts::FirmwareReading (*)(const ClusterRaw& raw, const std::string& node);

struct FirmwareSource {
  FirmwareComponent component;
  std::vector<ProbeSpec> probes;
  FirmwareReader read = nullptr;
};

const std::vector<FirmwareSource>& FirmwareComponents() {
  static const std::vector<FirmwareSource> kComponents = {
      {{"vbios", "VBIOS", "VbiosVersionIdentical", true,
        "update the GPU's VBIOS to the expected version with the system vendor's firmware package (nvfwupd on HGX "
        "baseboards), then reboot the node"},
       facts::GpuHealthProbes(), facts::ReadVbiosVersions},
      {{"inforom", "InfoROM image", "InforomVersionIdentical", true,
        "the InfoROM image ships with the board's firmware bundle: apply the same bundle as the other GPUs (nvfwupd), "
        "and RMA a board that will not take it"},
       facts::GpuHealthProbes(), facts::ReadInforomVersions},
      {{"hca_firmware", "HCA firmware", "HcaFirmwareIdentical", false,
        "flash the HCA to the expected firmware (mlxfwmanager -u, or mstflint with the vendor's image), then reset it "
        "(mlxfwreset) or reboot the node"},
       facts::PortProbes(), facts::ReadHcaFirmware},
  };
  return kComponents;
}

// Each firmware component's check: every node's per-device reading, judged together. Each node
// is read in the harness's node-by-node pass, from the GPU and port facts its per-node checks parse.
NodeComparisonFactory CompareFirmware(const FirmwareSource& source) {
  return CompareNodes<facts::FirmwareReading>(
      [&source](const SuiteContext& context, const std::string& node) { return source.read(context.raw, node); },
      [&source](const std::map<std::string, facts::FirmwareReading>& readings, const SuiteContext& context) {
        return CheckFirmwareIdentical(source.component, readings, context.profile);
      });
}

// One component's check: every node's version, judged together.
NodeComparisonFactory CompareComponent(const ComponentSource& source) {
  return CompareNodes<VersionReading>(
      [&source](const SuiteContext& context, const std::string& node) { return source.read(context.raw, node); },
      [&source](const std::map<std::string, VersionReading>& readings, const SuiteContext& context) {
        return CheckVersionsIdentical(source.component, readings, context.profile);
      });
}

SuiteDefinition Definition() {
  SuiteDefinition suite;
  suite.name = kSuite;
  suite.summary =
      "kernel, driver, CUDA, NCCL, Slurm, MUNGE, MPI and gpuconform versions identical on every node; VBIOS, "
      "InfoROM and HCA firmware identical on every device of one model";
  for (const auto& source : Components()) {
    suite.checks.push_back({.name = source.component.check,
                            .requirement = "every node runs the same " + source.component.label,
                            .compare_nodes = CompareComponent(source)});
    AddProbeOnce(suite.probes, source.probe);
  }
  for (const auto& source : FirmwareComponents()) {
    suite.checks.push_back({.name = source.component.check,
                            .requirement = "every " + std::string(source.component.on_gpus ? "GPU" : "HCA") +
                                           " of one model runs the same " + source.component.label,
                            .compare_nodes = CompareFirmware(source)});
    for (const auto& probe : source.probes) AddProbeOnce(suite.probes, probe);
  }
  return suite;
}

const SuiteRegistration kRegistration(Definition());

}  // namespace

}  // namespace gpuconform::software
