#include "facts/gpu_facts.h"

#include <optional>

#include "harness/core/fact_reading.h"
#include "probes/cuda_p2p/cuda_p2p_probe.h"
#include "probes/nvidia_smi/nvlink_errors_facts.h"
#include "probes/nvidia_smi/query_text_parse.h"
#include "probes/nvml/nvml_parse.h"
#include "probes/nvml/nvml_probe.h"
#include "probes/versions/versions_parse.h"

namespace gpuconform::facts {

using namespace gpuconform::nvml;

namespace {

// Why NVML gave nothing, to add to the nvidia-smi error so that the message names both.
std::string NvmlReason(const RawOutput& nvml, const std::string& node) {
  if (nvml.status == ProbeStatus::kAbsent) return "";
  std::string detail = nvml.detail;
  if (detail.rfind(node + ": ", 0) == 0) detail = detail.substr(node.size() + 2);
  return detail.empty() ? "" : "; NVML: " + detail;
}

template <typename T>
Result<T> FromSmi(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec,
                  Result<T> (*parse)(const std::string&, const std::string&)) {
  const RawOutput out = raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, kNoDriver);
  if (!text) return Error{text.error() + NvmlReason(raw.NodeOutput(node, NvmlProbe().id), node)};
  return parse(*text, OriginOf(out, node, spec));
}

}  // namespace

std::vector<ProbeSpec> GpuFactProbes() { return {NvmlProbe(), NvidiaSmiQueryXml(), NvlinkStatusProbe()}; }

std::vector<ProbeSpec> GpuHealthProbes() { return {NvidiaSmiQueryXml(), NvidiaSmiQueryText()}; }

namespace {

// nvml.txt is parsed once per node: the GPU inventory and the NVLink status both come from it.
// Holds nothing when the probe has no usable output (the callers then read nvidia-smi's).
const std::optional<Result<nvml::NvmlReport>>& ReadNvmlReport(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<std::optional<Result<nvml::NvmlReport>>>(
      "nvml-report", node, [&]() -> std::optional<Result<nvml::NvmlReport>> {
        const RawOutput nvml = raw.NodeOutput(node, NvmlProbe().id);
        if (!nvml.ok()) return std::nullopt;
        return ParseNvml(nvml.text, OriginOf(nvml, node, NvmlProbe()));
      });
}

Result<nvidia_smi::GpuInventory> ParseGpuInventory(const ClusterRaw& raw, const std::string& node) {
  if (const auto& report = ReadNvmlReport(raw, node)) {
    if (!*report) return Error{report->error()};
    return ToGpuInventory(**report);
  }
  const RawOutput nvml = raw.NodeOutput(node, NvmlProbe().id);
  auto smi = ReadNvidiaSmiQuery(raw, node);
  if (!smi) return Error{smi.error() + NvmlReason(nvml, node)};
  return smi;
}

Result<nvidia_smi::GpuInventory> ParseNvidiaSmiQueryFacts(const ClusterRaw& raw, const std::string& node) {
  return ParseNodeOutput(raw, node, NvidiaSmiQueryXml(), kNoDriver, nvidia_smi::ParseNvidiaSmiGpus);
}

Result<nvidia_smi::GpuInventory> ParseGpuHealth(const ClusterRaw& raw, const std::string& node) {
  const RawOutput xml = raw.NodeOutput(node, NvidiaSmiQueryXml().id);
  if (xml.ok()) return ReadNvidiaSmiQuery(raw, node);
  const ProbeSpec text_spec = NvidiaSmiQueryText();
  const RawOutput text = raw.NodeOutput(node, text_spec.id);
  if (text.ok()) return nvidia_smi::ParseNvidiaSmiQueryText(text.text, OriginOf(text, node, text_spec));
  // nvidia-smi exits non-zero when it cannot open a GPU; the GPU it names is still a fact.
  const std::vector<std::string> lost = nvidia_smi::FindInaccessibleGpus(xml.text + "\n" + xml.detail);
  if (!lost.empty() && !nvidia_smi::FindSmiFailure(xml.text)) {
    nvidia_smi::GpuInventory inventory;
    inventory.inaccessible_bus_ids = lost;
    return inventory;
  }
  return ReadNvidiaSmiQuery(raw, node);  // its error names the node, the file and the cause
}

// One field of the driver's versions in nvidia-smi -q -x, read as a version of its probe.
versions::VersionReading ReadDriverField(const ClusterRaw& raw, const std::string& node, const std::string& kind,
                                         Result<std::string> (*field)(const versions::NvidiaSmiVersions&,
                                                                      const std::string& origin)) {
  return versions::ReadVersion(
      raw, node, kind, NvidiaSmiQueryXml(), [&](const std::string&, const std::string& origin) -> Result<std::string> {
        auto inventory = ReadNvidiaSmiQuery(raw, node);
        if (!inventory) return Error{inventory.error()};
        auto versions = versions::VersionsOf(*inventory, origin);
        if (!versions) return Error{versions.error()};
        return field(*versions, origin);
      });
}

Result<NvlinkStatus> ParseNvlinkStatusFacts(const ClusterRaw& raw, const std::string& node) {
  if (const auto& report = ReadNvmlReport(raw, node)) {
    if (!*report) return Error{report->error()};
    return ToNvlinkStatus(**report);
  }
  return FromSmi(raw, node, NvlinkStatusProbe(), ParseNvlinkStatus);
}

Result<TopoMatrix> ParseTopoMatrixFacts(const ClusterRaw& raw, const std::string& node) {
  return ParseNodeOutput(raw, node, NvidiaSmiTopoMatrix(), kNoDriver, ParseTopoMatrix);
}

Result<cuda_p2p::P2pReport> ParseCudaP2pFacts(const ClusterRaw& raw, const std::string& node) {
  return ParseNodeOutput(raw, node, cuda_p2p::CudaP2pProbe(), "the CUDA P2P probe could not run",
                         cuda_p2p::ParseCudaP2p);
}

}  // namespace

const Result<nvidia_smi::GpuInventory>& ReadGpuInventory(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::GpuInventory>>("gpu-inventory", node,
                                                         [&] { return ParseGpuInventory(raw, node); });
}

const Result<NvlinkStatus>& ReadNvlinkStatus(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NvlinkStatus>>("nvlink-status", node, [&] { return ParseNvlinkStatusFacts(raw, node); });
}

const Result<nvidia_smi::GpuInventory>& ReadNvidiaSmiQuery(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::GpuInventory>>("nvidia-smi-q", node,
                                                         [&] { return ParseNvidiaSmiQueryFacts(raw, node); });
}

const Result<nvidia_smi::GpuInventory>& ReadGpuHealth(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::GpuInventory>>("gpu-health", node, [&] { return ParseGpuHealth(raw, node); });
}

versions::VersionReading ReadDriverVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadDriverField(raw, node, "driver-version",
                         [](const versions::NvidiaSmiVersions& versions, const std::string&) -> Result<std::string> {
                           return versions.driver;
                         });
}

versions::VersionReading ReadCudaVersion(const ClusterRaw& raw, const std::string& node) {
  return ReadDriverField(
      raw, node, "cuda-version",
      [](const versions::NvidiaSmiVersions& versions, const std::string& origin) -> Result<std::string> {
        if (versions.cuda.empty()) return Error{origin + ":1: <nvidia_smi_log> has no <cuda_version>"};
        return versions.cuda;
      });
}

const Result<cuda_p2p::P2pReport>& ReadCudaP2p(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<cuda_p2p::P2pReport>>("cuda-p2p", node, [&] { return ParseCudaP2pFacts(raw, node); });
}

const Result<nvidia_smi::NvlinkErrorReport>& ReadNvlinkErrorCounters(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::NvlinkErrorReport>>(
      "nvlink-error-counters", node, [&]() -> Result<nvidia_smi::NvlinkErrorReport> {
        if (const auto& report = ReadNvmlReport(raw, node); report && *report) {
          const RawOutput nvml = raw.NodeOutput(node, NvmlProbe().id);
          if (auto counters = nvml::ToNvlinkErrors(**report, OriginOf(nvml, node, NvmlProbe()))) return *counters;
        }
        return nvidia_smi::ReadNvlinkErrors(raw, node);
      });
}

const Result<TopoMatrix>& ReadTopoMatrix(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<TopoMatrix>>("topo-matrix", node, [&] { return ParseTopoMatrixFacts(raw, node); });
}

}  // namespace gpuconform::facts
