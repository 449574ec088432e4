#include "suites/infiniband/gpudirect_checks.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"
#include "probes/nccl_log/nccl_log_facts.h"
#include "suites/infiniband/infiniband_checks.h"

namespace gpuconform::infiniband {

namespace {

using gpudirect::GpuDirectReport;
using nccl_log::NcclLog;
using nccl_log::Source;

constexpr char kDmaBufNeeds[] =
    "NVIDIA driver R515 or later with the open kernel modules, Linux 5.12 or later and NCCL 2.13 or later";

// Why DMA-BUF cannot carry GPUDirect RDMA on the node: each requirement that is missing or not
// recorded. Empty when every one is met.
std::vector<std::string> DmaBufMissing(const GpuDirectReport& report, const NcclLog* log) {
  std::vector<std::string> missing;
  const auto kernel = gpudirect::MajorMinor(report.kernel_release);
  if (!kernel) {
    missing.push_back("the kernel release is not recorded");
  } else if (*kernel < std::make_pair(5, 12)) {
    missing.push_back("kernel " + report.kernel_release + " predates 5.12");
  }
  const auto driver = gpudirect::MajorMinor(report.driver_version);
  if (!driver) {
    missing.push_back("the NVIDIA driver version is not recorded");
  } else if (driver->first < 515) {
    missing.push_back("driver " + report.driver_version + " predates R515");
  }
  if (!report.open_kernel_module) {
    missing.push_back("the driver's flavour (open or proprietary kernel modules) is not recorded");
  } else if (!*report.open_kernel_module) {
    missing.push_back("the driver runs the proprietary kernel modules, not the open ones");
  }
  if (log != nullptr) {
    for (const auto& version : log->versions) {
      const auto nccl = gpudirect::MajorMinor(version);
      if (nccl && *nccl < std::make_pair(2, 13)) missing.push_back("NCCL " + version + " predates DMA-BUF (2.13)");
    }
    for (const auto& setting : log->env) {
      if (setting.name == "NCCL_DMABUF_ENABLE" && setting.value == "0") {
        missing.push_back("NCCL_DMABUF_ENABLE=0 (" + nccl_log::LineText(setting.source) + " of the NCCL log)");
        break;
      }
    }
  }
  return missing;
}

std::string Describe(const GpuDirectReport& report) {
  std::string facts = "kernel " + (report.kernel_release.empty() ? "(not recorded)" : report.kernel_release) +
                      ", NVIDIA driver " + (report.driver_version.empty() ? "(not recorded)" : report.driver_version);
  if (report.open_kernel_module) facts += *report.open_kernel_module ? " (open kernel modules)" : " (proprietary)";
  return facts;
}

// What the text shows of the peer-memory modules when neither is loaded.
std::string NoModuleText(const GpuDirectReport& report) {
  if (report.format == "lsmod-grep" && report.searched.empty()) {
    return "the `lsmod | grep` output (" + report.origin + ") lists no peer-memory module";
  }
  std::string searched;
  for (const std::string module : {gpudirect::kPeermem, gpudirect::kLegacyPeermem}) {
    if (report.Searched(module)) searched += (searched.empty() ? "" : " nor ") + module;
  }
  if (searched.empty()) return "no peer-memory module is shown loaded (" + report.origin + ")";
  return "neither " + searched + " is loaded (" + report.origin + ")";
}

bool RaisedGdrLevel(const std::string& value) {
  const std::string upper = [&] {
    std::string v = value;
    for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v;
  }();
  // NCCL's names past its default PXB, and the legacy numbers 3 (PHB) to 5 (SYS).
  return upper == "PHB" || upper == "SYS" || upper == "NODE" || value == "3" || value == "4" || value == "5";
}

// Path types past NCCL's default NCCL_NET_GDR_LEVEL (PXB): through the CPU's host bridge or further.
bool BeyondDefaultLevel(const std::string& type) { return type == "PHB" || type == "SYS" || type == "NODE"; }

// The NCCL log's lines about `node`: printed there, or (where the facts came from a transcript
// that names its host) printed on that host.
class NodeLines {
 public:
  NodeLines(const std::string& node, const GpuDirectReport& report) : node_(node), host_(report.host) {}
  bool On(const Source& source) const {
    return source.host == node_ || (!host_.empty() && source.host == host_);
  }

 private:
  std::string node_;
  std::string host_;
};

}  // namespace

std::optional<std::string> GpuDirectSkipReason(const Profile& profile) {
  if (auto reason = InfinibandSkipReason(profile)) return reason;
  if (auto reason = GpuSkipReason(profile, "there is no GPU memory for the HCAs to reach")) return reason;
  if (profile.nccl && !profile.nccl->gpudirect_rdma) {
    return "profile " + profile.name + " does not ask for GPUDirect RDMA (nccl.gpudirect_rdma is false)";
  }
  return std::nullopt;
}

CheckResult CheckGpuDirectRdmaAvailable(const std::string& node, const GpuDirectReport& report,
                                        const NcclLog* log, const std::string& no_log) {
  std::vector<Measurement> measurements;
  std::vector<Finding> findings;
  const std::string module = report.PeerMemoryModule();
  const std::vector<std::string> dmabuf_missing = DmaBufMissing(report, log);
  const bool dmabuf = dmabuf_missing.empty();
  measurements.push_back({node + ".peer_memory_module", module.empty() ? "none" : module, "", "", report.origin});
  measurements.push_back({node + ".driver", Describe(report), "", "", report.origin});
  measurements.push_back({node + ".dmabuf", dmabuf ? "possible" : "not usable: " + Join(dmabuf_missing, "; "), "",
                          "", std::string("DMA-BUF needs ") + kDmaBufNeeds});
  const NodeLines lines(node, report);

  // NCCL's own word for the node, where the run has a log.
  std::vector<const nccl_log::GdrStatus*> disabled_hcas;
  std::vector<const nccl_log::GdrStatus*> enabled_hcas;
  std::size_t net_channels = 0;
  std::size_t gdr_channels = 0;
  std::map<std::string, std::vector<const nccl_log::GdrPath*>> paths_by_gpu;
  if (log != nullptr) {
    for (const auto& status : log->gdr) {
      if (!lines.On(status.source)) continue;
      (status.enabled ? enabled_hcas : disabled_hcas).push_back(&status);
    }
    for (const auto& channel : log->channels) {
      if (!lines.On(channel.source) || channel.kind != nccl_log::TransportKind::kNet) continue;
      ++net_channels;
      if (channel.gdr) ++gdr_channels;
    }
    for (const auto& path : log->gdr_paths) {
      if (lines.On(path.source)) paths_by_gpu[path.gpu].push_back(&path);
    }
  }
  const bool nccl_says_enabled = !enabled_hcas.empty() || gdr_channels > 0;
  const bool nccl_says_anything =
      !enabled_hcas.empty() || !disabled_hcas.empty() || net_channels > 0 || !paths_by_gpu.empty();
  if (log == nullptr) {
    measurements.push_back({node + ".nccl_log", "none in this run (" + no_log + ")", "", "",
                            "judged on the module and DMA-BUF facts only"});
  } else if (!nccl_says_anything) {
    measurements.push_back({node + ".nccl_log", "no GPU Direct RDMA or NET channel line from " + node, "", "",
                            "judged on the module and DMA-BUF facts only"});
  } else if (net_channels > 0) {
    measurements.push_back({node + ".nccl_net_channels_gdrdma",
                            std::to_string(gdr_channels) + " of " + std::to_string(net_channels), "", "", "NCCL log"});
  }

  if (module.empty() && !dmabuf) {
    if (nccl_says_enabled) {
      // NCCL registered GPU memory with the HCA, so a path exists that the recorded facts do not show.
      const std::string evidence = !enabled_hcas.empty()
                                       ? "GPU Direct RDMA enabled for HCA '" + enabled_hcas.front()->hca + "' (" +
                                             nccl_log::LineText(enabled_hcas.front()->source) + ")"
                                       : std::to_string(gdr_channels) + " NET channel(s) via GDRDMA";
      measurements.push_back({node + ".gdr_evidence", "NCCL log: " + evidence, "", "",
                              "the module and DMA-BUF facts do not show how; NCCL's log decides"});
    } else {
      std::string corroboration;
      if (!disabled_hcas.empty()) {
        corroboration = "; NCCL's log agrees: GPU Direct RDMA disabled for HCA '" + disabled_hcas.front()->hca + "'" +
                        (disabled_hcas.front()->reason.empty() ? "" : " (" + disabled_hcas.front()->reason + ")") +
                        " at " + nccl_log::LineText(disabled_hcas.front()->source);
      }
      findings.push_back(
          {"gdr-unavailable", node,
           node + ": GPUDirect RDMA cannot work: " + NoModuleText(report) + ", and DMA-BUF is not usable (" +
               Join(dmabuf_missing, "; ") + ")" + corroboration +
               ": NCCL stages every inter-node transfer through host memory. Load the peer-memory module "
               "(`modprobe nvidia-peermem`, and add nvidia-peermem to /etc/modules-load.d/ so it loads at boot), or "
               "use DMA-BUF: " + kDmaBufNeeds});
      CheckResult failed = Failed(std::move(findings));
      failed.measurements = std::move(measurements);
      return failed;
    }
  }

  const std::string available = !module.empty() ? module + " is loaded"
                                : dmabuf      ? "DMA-BUF is usable"
                                              : "NCCL enabled it for another HCA";
  for (const auto* status : disabled_hcas) {
    const std::string why =
        status->reason == "no module"
            ? "NCCL did not find the peer-memory module: check that the job's container sees /sys/module/" +
                  (module.empty() ? std::string(gpudirect::kPeermem) : module) + " and that NCCL_DMABUF_ENABLE is not 0"
            : "check NCCL_DMABUF_ENABLE, the container's view of /sys/module, and that the HCA accepts GPU memory "
              "registration (ib_write_bw --use_cuda)";
    findings.push_back({"gdr-disabled-by-nccl", node + "/" + status->hca,
                        node + ": NCCL disabled GPU Direct RDMA for HCA '" + status->hca + "'" +
                            (status->reason.empty() ? "" : " (" + status->reason + ")") + " at " +
                            nccl_log::LineText(status->source) + " although " + available + "; " + why});
  }
  for (const auto& [gpu, paths] : paths_by_gpu) {
    const nccl_log::GdrPath* nearest = nullptr;
    bool any_enabled = false;
    for (const auto* path : paths) {
      any_enabled = any_enabled || path->enabled;
      if (!path->enabled && (nearest == nullptr || path->distance < nearest->distance)) nearest = path;
    }
    // NCCL weighs every NIC for every GPU: a far NIC disabled beside a near one enabled is its design.
    if (any_enabled || nearest == nullptr) continue;
    findings.push_back(
        {"gdr-disabled-by-nccl", node + "/gpu" + gpu,
         node + ": NCCL disabled GPU Direct RDMA for GPU " + gpu + " towards every HCA it weighed; the nearest, HCA " +
             nearest->hca + ", is at distance " + std::to_string(nearest->distance) + ", above NCCL_NET_GDR_LEVEL's " +
             std::to_string(nearest->threshold) + " (" + nccl_log::LineText(nearest->source) +
             "): the GPU's NIC is not under its PCIe switch, so its traffic is staged through host memory; seat a "
             "rail NIC beside the GPU (InfiniBand.GpuHasLocalRailNic), or accept the cost and raise "
             "NCCL_NET_GDR_LEVEL"});
  }

  // Enabled, but only because the threshold was raised past NCCL's default PXB.
  if (log != nullptr) {
    for (const auto& setting : log->env) {
      if (setting.name != "NCCL_NET_GDR_LEVEL" && setting.name != "NCCL_IB_GDR_LEVEL") continue;
      if (!RaisedGdrLevel(setting.value) || !(lines.On(setting.source) || setting.source.host.empty())) continue;
      std::vector<std::string> far;
      std::set<std::string> seen;
      for (const auto& [gpu, paths] : paths_by_gpu) {
        for (const auto* path : paths) {
          if (!path->enabled) continue;
          for (const auto& type : log->gpu_net_paths) {
            if (type.gpu != gpu || type.net != path->hca || !BeyondDefaultLevel(type.type)) continue;
            const std::string text = "GPU " + gpu + " / HCA " + path->hca + " through " + type.type;
            if (seen.insert(text).second) far.push_back(text);
          }
        }
      }
      const std::string override_text = setting.name + "=" + setting.value + " (set by environment, " +
                                        nccl_log::LineText(setting.source) + " of the NCCL log)";
      if (!far.empty()) {
        measurements.push_back(
            {node + ".gdr_warning",
             "GPU Direct RDMA is enabled only because " + override_text + " raises NCCL's default PXB: " +
                 Join(far, ", ") + " (the CPU's host bridge or beyond), so GDR traffic crosses the root complex; "
                 "check the GPU-NIC placement (InfiniBand.GpuHasLocalRailNic) and that the override is intended",
             "", "", "NCCL_NET_GDR_LEVEL defaults to PXB"});
      } else if (nccl_says_enabled) {
        measurements.push_back({node + ".gdr_warning",
                                "GPU Direct RDMA is enabled under " + override_text +
                                    ", above NCCL's default PXB; the log does not show the GPU-NIC path types "
                                    "(NCCL_DEBUG_SUBSYS=GRAPH), so whether the default would enable it is unknown",
                                "", "", "NCCL_NET_GDR_LEVEL defaults to PXB"});
      }
      break;
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::infiniband
