#include "suites/pcie/pcie_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "facts/ib_port_facts.h"
#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"

namespace gpuconform::pcie {

namespace {

// An idle GPU may drop its link to a lower generation to save power (the width stays), so a
// low generation in a power-saving performance state gets that hint next to the fix.
std::string IdleHint(const GpuRecord& gpu) {
  if (gpu.performance_state.empty() || gpu.performance_state == "P0") return "";
  return " (the GPU was in " + gpu.performance_state +
         ": an idle GPU may lower its link generation to save power; if it stays low under load, it is a fault)";
}

// ---- AER ----

using kernel_log::AerEvent;
using kernel_log::AerSeverity;
using pcie_aer::AerDevice;
using pcie_aer::DeviceKind;
using pcie_aer::Severity;
using pcie_aer::SeverityCounts;

constexpr Severity kSeverities[] = {Severity::kFatal, Severity::kNonFatal, Severity::kCorrectable};

const char* SeverityKey(Severity severity) {
  switch (severity) {
    case Severity::kCorrectable: return "correctable";
    case Severity::kNonFatal: return "nonfatal";
    case Severity::kFatal: return "fatal";
  }
  return "correctable";
}

// As messages spell it.
const char* SeverityLabel(Severity severity) {
  return severity == Severity::kNonFatal ? "non-fatal" : SeverityKey(severity);
}

// What is wrong with a device, worst first: each severity has its code.
struct Blame {
  Severity worst = Severity::kCorrectable;
  DeviceKind kind = DeviceKind::kOther;
  std::vector<std::string> evidence;
};

bool Worse(Severity a, Severity b) { return static_cast<int>(a) > static_cast<int>(b); }

ReasonCode CodeOf(Severity severity) {
  switch (severity) {
    case Severity::kCorrectable: return "pcie-aer-correctable";
    case Severity::kNonFatal: return "pcie-aer-nonfatal";
    case Severity::kFatal: return "pcie-aer-fatal";
  }
  return "pcie-aer-correctable";
}

// A device the kernel log names, by its driver: the counters' class is better where there is one.
DeviceKind KindOfDriver(const std::string& driver) {
  if (driver == "nvidia" || driver == "nouveau" || driver == "amdgpu") return DeviceKind::kGpu;
  if (driver == "pcieport") return DeviceKind::kBridge;
  if (driver.starts_with("mlx") || driver == "bnxt_en" || driver == "ice" || driver == "i40e" || driver == "ixgbe") {
    return DeviceKind::kNic;
  }
  return DeviceKind::kOther;
}

std::string Describe(const std::string& address, DeviceKind kind, const std::map<std::string, std::string>& gpu_names) {
  const auto gpu = gpu_names.find(address);
  if (gpu != gpu_names.end()) return gpu->second + " (" + address + ")";
  return std::string(pcie_aer::KindName(kind)) + " " + address;
}

// "non-fatal 3 (CmpltTO 3) > 0": the file's total, its non-zero errors and the limit.
std::string CountsText(Severity severity, const SeverityCounts& counts, std::uint64_t limit, bool flags_only) {
  std::vector<std::string> errors;
  for (const auto& [name, value] : counts.errors) {
    if (value > 0) errors.push_back(flags_only ? name : fmt::format("{} {}", name, value));
  }
  if (flags_only) {
    return fmt::format("{} status flags set: {} (lspci: each at least once) > {}", SeverityLabel(severity),
                       Join(errors, " "), limit);
  }
  return fmt::format("{} {}{} > {}", SeverityLabel(severity), counts.total,
                     errors.empty() ? "" : " (" + Join(errors, ", ") + ")", limit);
}

std::string Meaning(Severity worst) {
  switch (worst) {
    case Severity::kFatal:
      return "a fatal PCIe error: the link or the device stopped working and needs a reset";
    case Severity::kNonFatal:
      return "uncorrected PCIe errors: transactions were lost on the link (the driver may have recovered)";
    case Severity::kCorrectable:
      return "the link's signal is marginal (errors the link layer corrected by replaying)";
  }
  return "";
}

std::string NextStep(DeviceKind kind, const std::vector<std::string>& below) {
  switch (kind) {
    case DeviceKind::kGpu:
      return "drain the node, reseat the GPU (its baseboard or riser cable on an SXM board) and check the slot; "
             "RMA the GPU if the errors come back after the reseat";
    case DeviceKind::kNic:
      return "drain the node, reseat the NIC (or its riser) and check the slot; RMA the NIC if the errors come "
             "back after the reseat";
    case DeviceKind::kBridge:
      return "a root or switch port counts the errors of its link to the device below it" +
             (below.empty() ? std::string(" (lspci -t shows which)") : " (" + Join(below, ", ") + ")") +
             ": drain the node, reseat that device and its riser or cable and check the slot; RMA it if the "
             "errors come back";
    case DeviceKind::kOther:
      return "drain the node, reseat the device and check its slot; RMA it if the errors come back";
  }
  return "";
}

Severity SeverityOfReport(AerSeverity severity) {
  switch (severity) {
    case AerSeverity::kCorrected: return Severity::kCorrectable;
    case AerSeverity::kNonFatal: return Severity::kNonFatal;
    case AerSeverity::kFatal: return Severity::kFatal;
  }
  return Severity::kCorrectable;
}

// One uncorrected report about `target`, with the port that logged it where that is another device.
std::string ReportText(const AerEvent& event, const std::string& target) {
  std::string errors = event.errors.empty() ? "error" : Join(event.errors, ", ");
  std::string text = fmt::format("the kernel log has a {} AER report at line {}: {}{} ({})",
                                 kernel_log::AerSeverityName(event.severity), event.line,
                                 event.device.address == target ? "" : "port " + event.device.address + ": ", errors,
                                 event.layer.empty() ? "layer not logged" : event.layer);
  if (event.SurpriseDown()) {
    text += fmt::format("; the link from {} to {} dropped and the device is lost until a reset or reboot",
                        event.device.address, target);
  }
  return text;
}

// The corrected reports on the same link before an uncorrected one (a replay timer timeout
// before a Surprise Down): its warning signs, named in the failure.
std::string Precursors(const std::vector<const AerEvent*>& corrected, const AerEvent& event) {
  std::vector<std::string> signs;
  for (const AerEvent* earlier : corrected) {
    if (earlier->device.address != event.device.address) continue;
    signs.push_back(fmt::format("{} ({}) at line {}", earlier->errors.empty() ? "an error" : Join(earlier->errors, ", "),
                                earlier->layer.empty() ? "layer not logged" : earlier->layer, earlier->line));
  }
  if (signs.empty()) return "";
  return ", after corrected " + Join(signs, "; ") + " on " + event.device.address;
}

}  // namespace

std::optional<std::string> GpuLinksSkipReason(const Profile& profile) {
  return GpuSkipReason(profile, "there is nothing to check");
}

std::optional<std::string> NicLinksSkipReason(const Profile& profile) {
  if (!profile.infiniband) return "profile " + profile.name + " has no infiniband section, so it expects no rail NICs";
  if (!profile.infiniband->present) {
    return "profile " + profile.name +
           " has no InfiniBand (infiniband.present: false), so there is no rail NIC to check";
  }
  return std::nullopt;
}

CheckResult CheckLinksAtMaxGenAndWidth(const std::string& node, const GpuInventory& inventory, const Profile&) {
  if (inventory.gpus.empty()) {
    return Errored("no-gpus",
                   node + ": neither NVML nor nvidia-smi -q -x lists a GPU, so no PCIe link could be judged");
  }
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  for (const auto& gpu : inventory.gpus) {
    const PcieLink& link = gpu.pcie;
    const std::string entity = node + "/gpu" + std::to_string(gpu.index);
    if (!link.max_gen || !link.current_gen || !link.max_width || !link.current_width) {
      unreported.push_back(GpuDisplayName(gpu));
      continue;
    }
    if (*link.current_width < *link.max_width) {
      findings.push_back({"pcie-width", entity,
                          node + ": " + GpuDisplayName(gpu) + " PCIe link is x" + std::to_string(*link.current_width) +
                              ", expected x" + std::to_string(*link.max_width) +
                              " (its maximum): the link trained down; reseat the GPU or its riser/cable, and look "
                              "for AER errors in `dmesg` and LnkSta in `lspci -vv -s " + gpu.bus_id + "`"});
    }
    if (*link.current_gen < *link.max_gen) {
      findings.push_back({"pcie-gen", entity,
                          node + ": " + GpuDisplayName(gpu) + " PCIe link is Gen" + std::to_string(*link.current_gen) +
                              ", expected Gen" + std::to_string(*link.max_gen) +
                              " (its maximum): signal integrity or a BIOS/slot setting limits the speed; check "
                              "`lspci -vv -s " + gpu.bus_id + "` LnkSta and the slot's PCIe setting in the BIOS" +
                              IdleHint(gpu)});
    }
  }
  if (findings.empty() && !unreported.empty()) {
    std::string names;
    for (const auto& name : unreported) names += (names.empty() ? "" : ", ") + name;
    return Errored("not-reported",
                   node + ": the GPU listing (NVML or nvidia-smi -q -x) reports no PCIe generation/width for " + names +
                       " (N/A or missing <pci_gpu_link_info>), so the link could not be judged");
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckNicLinksAtMaxGenAndWidth(const std::string& node, const NicPcieReport& nics,
                                          const ib_tools::IbPortReport* ports, const Profile& profile) {
  if (nics.nics.empty()) {
    return Errored("no-nics",
                   node + ": sysfs lists no RDMA NIC (" + nics.sysfs_root +
                       "/class/infiniband is empty or absent), so no NIC PCIe link could be judged; RailNicsPresent "
                       "says which rails are missing");
  }
  std::set<std::string> rails;
  if (ports) {
    for (const auto* port : facts::RailPorts(*ports, *profile.infiniband)) rails.insert(port->ca);
  }
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  int judged = 0;
  for (const auto& nic : nics.nics) {
    if (!rails.empty() && !rails.count(nic.name)) continue;
    ++judged;
    const std::string entity = node + "/" + nic.name;
    if (!nic.current_gen || !nic.max_gen || !nic.current_width || !nic.max_width) {
      unreported.push_back(nic.DisplayName());
      continue;
    }
    const std::string lspci = nic.bus_id.empty() ? "lspci -vv" : "lspci -vv -s " + nic.bus_id;
    if (*nic.current_width < *nic.max_width) {
      findings.push_back({"pcie-width", entity,
                          node + ": rail NIC " + nic.DisplayName() + " PCIe link is x" + std::to_string(*nic.current_width) +
                              ", expected x" + std::to_string(*nic.max_width) +
                              " (its maximum): the link trained down and caps the NIC below its line rate; reseat "
                              "the HCA or its riser/cable, and look for AER errors in `dmesg` and LnkSta in `" + lspci + "`"});
    }
    if (*nic.current_gen < *nic.max_gen) {
      findings.push_back({"pcie-gen", entity,
                          node + ": rail NIC " + nic.DisplayName() + " PCIe link is Gen" + std::to_string(*nic.current_gen) +
                              " (" + nic.current_speed + "), expected Gen" + std::to_string(*nic.max_gen) + " (" +
                              nic.max_speed + ", its maximum): signal integrity or a BIOS/slot setting limits the "
                              "speed; check LnkSta in `" + lspci + "` and the slot's PCIe setting in the BIOS"});
    }
  }
  if (judged == 0) {
    return Errored("no-rails",
                   node + ": none of the rail NICs of the port listing appears in sysfs, so no NIC PCIe link could "
                          "be judged");
  }
  if (findings.empty() && !unreported.empty()) {
    std::string names;
    for (const auto& name : unreported) names += (names.empty() ? "" : ", ") + name;
    return Errored("not-reported",
                   node + ": sysfs reports no PCIe generation/width for " + names +
                       " (unreadable or \"Unknown\" link attributes), so the link could not be judged");
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".rail_nics_judged", std::to_string(judged), "", "", ""});
  return result;
}

std::optional<std::string> AerSkipReason(const Profile& profile) {
  if (!GpuSkipReason(profile, "") || !NicLinksSkipReason(profile)) return std::nullopt;
  return "profile " + profile.name +
         " has no GPUs and no InfiniBand (gpu.present and infiniband.present are not true), so no GPU or rail NIC "
         "PCIe link to watch for AER errors";
}

CheckResult CheckAerErrorsWithinLimits(const std::string& node, const pcie_aer::AerReport& counters,
                                       const kernel_log::KernelLog* log,
                                       const std::map<std::string, std::string>& gpu_names, const AerLimits& limits,
                                       const LinkCounterRates& rates, const NodeCounterReadings* previous) {
  const bool logged = log != nullptr && !log->aer_events.empty();
  if (counters.devices.empty() && !logged) {
    return Skipped("no PCIe AER counters in sysfs on " + node + " (" + counters.origin +
                   "): the kernel exposes them only for devices with AER (none on a VM, veth or a machine "
                   "whose devices lack the capability), and its log has no AER report");
  }
  CheckResult result = Passed();
  std::map<std::string, Blame> blamed;  // by address
  std::map<std::string, DeviceKind> kinds;
  std::map<std::string, std::vector<std::string>> below;  // bridge -> the devices under it
  for (const AerDevice& device : counters.devices) kinds[device.address] = device.kind;
  for (const AerDevice& device : counters.devices) {
    if (!device.parent.empty()) below[device.parent].push_back(Describe(device.address, device.kind, gpu_names));
  }
  const std::string flag_note = counters.flags_only ? " (lspci status flags: 1 = at least once since cleared)" : "";
  const std::string check = std::string(kSuite) + "." + kAerErrorsWithinLimits;
  std::vector<Finding> rising;
  for (const AerDevice& device : counters.devices) {
    const std::string entity = node + "/" + device.address;
    if (!counters.flags_only) {
      const std::string metric = device.address + ".aer_correctable";
      const double total = static_cast<double>(device.Counts(Severity::kCorrectable).total);
      const CounterRise rise = JudgeCounterRise(previous, check, metric, total, false, rates.pcie_correctable_per_hour);
      if (auto rate = RiseMeasurement(entity + ".aer_correctable", rise, rates.pcie_correctable_per_hour, rates.source)) {
        result.measurements.push_back(std::move(*rate));
      }
      if (rise.kind == CounterRise::Kind::kOver) {
        rising.push_back({"pcie-aer-error-rate", entity,
                          fmt::format("{}: {}: correctable errors rising: {} ({:.2f}/h > {:g}/h; now {:g}): the link "
                                      "is degrading; {}",
                                      node, Describe(device.address, device.kind, gpu_names), rise.note, rise.per_hour,
                                      rates.pcie_correctable_per_hour, total, NextStep(device.kind, below[device.address]))});
      }
    }
    for (const Severity severity : kSeverities) {
      const SeverityCounts& counts = device.Counts(severity);
      const std::uint64_t limit = severity == Severity::kCorrectable ? limits.correctable : 0;
      const std::string threshold = "<= " + std::to_string(limit);
      const std::string key = std::string("aer_") + SeverityKey(severity);
      if (counts.total > 0) {
        result.measurements.push_back(
            {entity + "." + key, std::to_string(counts.total), "errors", threshold, limits.source + flag_note});
      }
      for (const auto& [name, value] : counts.errors) {
        if (value == 0) continue;
        result.measurements.push_back({entity + "." + key + "_" + Lowercase(name), std::to_string(value), "errors",
                                       threshold, limits.source + flag_note});
      }
      if (counts.total <= limit) continue;
      Blame& blame = blamed[device.address];
      if (blame.evidence.empty() || Worse(severity, blame.worst)) blame.worst = severity;
      blame.kind = device.kind;
      blame.evidence.push_back(CountsText(severity, counts, limit, counters.flags_only));
    }
  }
  if (logged) {
    std::map<std::string, int> corrected;  // device -> reports
    std::vector<const AerEvent*> earlier_corrected;
    for (const AerEvent& event : log->aer_events) {
      if (event.severity == AerSeverity::kCorrected) {
        ++corrected[event.device.address];
        earlier_corrected.push_back(&event);
        if (!kinds.count(event.device.address)) kinds[event.device.address] = KindOfDriver(event.device.driver);
        continue;
      }
      // A Surprise Down is the port's report of the device below it going away: blame that device.
      std::vector<kernel_log::LoggedDevice> targets = {event.device};
      if (event.SurpriseDown() && !event.affected.empty()) targets = event.affected;
      for (const auto& target : targets) {
        Blame& blame = blamed[target.address];
        const Severity severity = event.SurpriseDown() ? Severity::kFatal : SeverityOfReport(event.severity);
        if (blame.evidence.empty() || Worse(severity, blame.worst)) blame.worst = severity;
        const auto known = kinds.find(target.address);
        blame.kind = known != kinds.end() ? known->second : KindOfDriver(target.driver);
        blame.evidence.push_back(ReportText(event, target.address) + Precursors(earlier_corrected, event));
      }
    }
    for (const auto& [address, count] : corrected) {
      result.measurements.push_back({node + "/" + address + ".aer_log_corrected", std::to_string(count), "reports",
                                     "", "the kernel log since boot: corrected AER reports are counted, not judged "
                                         "(the aer_dev_correctable counters are)"});
    }
  }
  std::vector<Finding> findings = std::move(rising);
  for (const auto& [address, blame] : blamed) {
    findings.push_back({CodeOf(blame.worst), node + "/" + address,
                        fmt::format("{}: {}: {}: {}; {}", node, Describe(address, blame.kind, gpu_names),
                                    Join(blame.evidence, "; "), Meaning(blame.worst),
                                    NextStep(blame.kind, below[address]))});
  }
  if (findings.empty()) return result;
  CheckResult failed = Failed(std::move(findings));
  failed.measurements = std::move(result.measurements);
  return failed;
}

AerLimits AerLimitsOf(const LinkCounterRates& rates) {
  if (const auto limit = rates.CountLimit("aer_correctable")) return {*limit, rates.source};
  return {};
}

}  // namespace gpuconform::pcie
