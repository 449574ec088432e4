#include "facts/gpu_facts.h"

#include <optional>

#include "harness/raw_text.h"
#include "probes/cuda_p2p/cuda_p2p_probe.h"
#include "probes/nvml/nvml_parse.h"
#include "probes/nvml/nvml_probe.h"

namespace gpuconform::facts {

using namespace gpuconform::nvml;

namespace {

std::string OriginOf(const RawOutput& out, const std::string& node, const ProbeSpec& spec) {
  return out.origin.empty() ? node + "/" + spec.file : out.origin;
}

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
  const ProbeSpec spec = NvidiaSmiQueryXml();
  const RawOutput out = raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, kNoDriver);
  if (!text) return Error{text.error()};
  return nvidia_smi::ParseNvidiaSmiGpus(*text, OriginOf(out, node, spec));
}

Result<NvlinkStatus> ParseNvlinkStatusFacts(const ClusterRaw& raw, const std::string& node) {
  if (const auto& report = ReadNvmlReport(raw, node)) {
    if (!*report) return Error{report->error()};
    return ToNvlinkStatus(**report);
  }
  return FromSmi(raw, node, NvlinkStatusProbe(), ParseNvlinkStatus);
}

Result<TopoMatrix> ParseTopoMatrixFacts(const ClusterRaw& raw, const std::string& node) {
  const ProbeSpec spec = NvidiaSmiTopoMatrix();
  const RawOutput out = raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, kNoDriver);
  if (!text) return Error{text.error()};
  return ParseTopoMatrix(*text, OriginOf(out, node, spec));
}

Result<cuda_p2p::P2pReport> ParseCudaP2pFacts(const ClusterRaw& raw, const std::string& node) {
  const ProbeSpec& spec = cuda_p2p::CudaP2pProbe();
  const RawOutput out = raw.NodeOutput(node, spec.id);
  auto text = UsableText(out, node, spec.file, "the CUDA P2P probe could not run");
  if (!text) return Error{text.error()};
  return cuda_p2p::ParseCudaP2p(*text, OriginOf(out, node, spec));
}

}  // namespace

Result<nvidia_smi::GpuInventory> ReadGpuInventory(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::GpuInventory>>("gpu-inventory", node,
                                                         [&] { return ParseGpuInventory(raw, node); });
}

Result<NvlinkStatus> ReadNvlinkStatus(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<NvlinkStatus>>("nvlink-status", node, [&] { return ParseNvlinkStatusFacts(raw, node); });
}

Result<nvidia_smi::GpuInventory> ReadNvidiaSmiQuery(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<nvidia_smi::GpuInventory>>("nvidia-smi-q", node,
                                                         [&] { return ParseNvidiaSmiQueryFacts(raw, node); });
}

Result<cuda_p2p::P2pReport> ReadCudaP2p(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<cuda_p2p::P2pReport>>("cuda-p2p", node, [&] { return ParseCudaP2pFacts(raw, node); });
}

Result<TopoMatrix> ReadTopoMatrix(const ClusterRaw& raw, const std::string& node) {
  return raw.facts.Get<Result<TopoMatrix>>("topo-matrix", node, [&] { return ParseTopoMatrixFacts(raw, node); });
}

}  // namespace gpuconform::facts
