#include "suites/gpu_health/gpu_health_checks.h"

#include <functional>
#include <map>
#include <set>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"
#include "probes/kernel_log/xid_catalogue.h"

namespace gpuconform::gpu_health {

using kernel_log::GpuHealthExpectation;
using nvidia_smi::GpuDisplayName;
using nvidia_smi::GpuRecord;

namespace {

std::string Entity(const std::string& node, const GpuRecord& gpu) { return node + "/gpu" + std::to_string(gpu.index); }

std::string Lead(const std::string& node, const GpuRecord& gpu) { return node + ": " + GpuDisplayName(gpu) + " "; }

std::string Count(std::optional<long long> value) { return value ? std::to_string(*value) : "N/A"; }

// The error of a check that judges each GPU where nvidia-smi lists none, or nullopt to go on.
std::optional<CheckResult> NoGpuListed(const std::string& node, const GpuInventory& inventory) {
  if (!inventory.gpus.empty()) return std::nullopt;
  const std::string lost = inventory.inaccessible_bus_ids.empty()
                               ? ""
                               : " (it could not open " + Join(inventory.inaccessible_bus_ids, ", ") +
                                     ": see GpuHealth.GpusAtExpectedPcieAddresses)";
  return Errored("no-gpu-listed", node + ": nvidia-smi -q lists no GPU" + lost + ", so no GPU's health could be judged");
}

// Judges each GPU: `judge` adds its findings and returns false when the GPU does not report
// the fields the check reads (`fields` names them for the message).
using GpuJudge = std::function<bool(const GpuRecord&, std::vector<Finding>&)>;

CheckResult JudgeGpus(const std::string& node, const GpuInventory& inventory, const std::string& fields,
                      const GpuJudge& judge) {
  if (auto error = NoGpuListed(node, inventory)) return *error;
  std::vector<Finding> findings;
  std::vector<std::string> unreported;
  for (const GpuRecord& gpu : inventory.gpus) {
    if (!judge(gpu, findings)) unreported.push_back(GpuDisplayName(gpu));
  }
  if (findings.empty() && !unreported.empty()) {
    return Errored("not-reported", node + ": nvidia-smi -q reports no " + fields + " for " + Join(unreported, ", ") +
                                       " (N/A or missing), so it could not be judged");
  }
  return FromFindings(std::move(findings));
}

bool Over(std::optional<long long> value, long long max) { return value && *value > max; }

// A finding about one GPU: its entity, and a message that starts with the node and the GPU.
void Add(std::vector<Finding>& findings, ReasonCode code, const std::string& node, const GpuRecord& gpu,
         const std::string& text) {
  findings.push_back({code, Entity(node, gpu), Lead(node, gpu) + text});
}

}  // namespace

std::optional<std::string> GpuHealthSkipReason(const Profile& profile) {
  if (auto reason = GpuSkipReason(profile, "there is nothing to check")) return reason;
  if (!profile.Get<GpuHealthExpectation>()) {
    return "profile " + profile.name + " has no gpu_health section, so it states no GPU health limits";
  }
  return std::nullopt;
}

std::optional<std::string> EccEnabledSkipReason(const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  if (health && !health->ecc_required && profile.ExpectsGpus()) {
    return "profile " + profile.name + " does not require ECC (gpu_health.ecc_required: false)";
  }
  return GpuHealthSkipReason(profile);
}

CheckResult CheckEccEnabled(const std::string& node, const GpuInventory& inventory, const Profile& profile) {
  return JudgeGpus(node, inventory, "ECC mode", [&](const GpuRecord& gpu, auto& findings) {
    if (gpu.ecc_mode.empty() || gpu.ecc_mode == "N/A") return false;
    if (gpu.ecc_mode != "Enabled") {
      Add(findings, "ecc-disabled", node, gpu,
          "has ECC mode " + gpu.ecc_mode + ", expected Enabled (profile " + profile.name +
              "): memory errors go undetected; run nvidia-smi -i " + std::to_string(gpu.index) +
              " -e 1 and reset the GPU or reboot");
    }
    return true;
  });
}

CheckResult CheckNoVolatileUncorrectableEcc(const std::string& node, const GpuInventory& inventory, const Profile&) {
  return JudgeGpus(
      node, inventory, "volatile ECC error counts",
      [&](const GpuRecord& gpu, auto& findings) {
        const auto total = gpu.volatile_ecc.Uncorrectable();
        if (!total) return false;
        if (*total > 0) {
          Add(findings, "ecc-uncorrectable", node, gpu,
              "has " + std::to_string(*total) + " uncorrectable ECC errors since the driver loaded (SRAM " +
                  Count(gpu.volatile_ecc.sram_uncorrectable) + ", DRAM " + Count(gpu.volatile_ecc.dram_uncorrectable) +
                  "), expected 0: drain the node and reset the GPU (nvidia-smi -r); "
                  "RMA it if errors return");
        }
        return true;
      });
}

CheckResult CheckSramEccHealthy(const std::string& node, const GpuInventory& inventory,
                                const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  const long long max = health ? health->aggregate_sram_correctable_max : 0;
  return JudgeGpus(
      node, inventory, "SRAM ECC error counts", [&](const GpuRecord& gpu, auto& findings) {
        const auto& vol = gpu.volatile_ecc;
        const auto& agg = gpu.aggregate_ecc;
        if (!vol.sram_uncorrectable && !agg.sram_uncorrectable && !vol.sram_correctable && !agg.sram_correctable) {
          return false;
        }
        std::vector<std::string> problems;
        if (Over(vol.sram_uncorrectable, 0) || Over(agg.sram_uncorrectable, 0)) {
          problems.push_back("uncorrectable SRAM errors " + Count(vol.sram_uncorrectable) + " volatile / " +
                             Count(agg.sram_uncorrectable) + " aggregate, expected 0");
        }
        if (gpu.sram_threshold_exceeded.value_or(false)) {
          problems.push_back("the driver reports SRAM Threshold Exceeded");
        }
        if (Over(vol.sram_correctable, max) || Over(agg.sram_correctable, max)) {
          problems.push_back("correctable SRAM errors " + Count(vol.sram_correctable) + " volatile / " +
                             Count(agg.sram_correctable) + " aggregate, limit " + std::to_string(max));
        }
        if (!problems.empty()) {
          Add(findings, "sram-ecc", node, gpu,
              "has " + Join(problems, "; ") +
                  ": on-chip memory cannot be remapped; drain the node, run dcgmi diag "
                  "-r 3 and RMA the GPU if it persists");
        }
        return true;
      });
}

CheckResult CheckAggregateEccWithinLimits(const std::string& node, const GpuInventory& inventory,
                                          const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  const long long max = health ? health->aggregate_dram_errors_max : 0;
  return JudgeGpus(node, inventory, "DRAM ECC error counts",
                   [&](const GpuRecord& gpu, auto& findings) {
                     const std::vector<std::pair<std::string, std::optional<long long>>> counts = {
                         {"volatile correctable", gpu.volatile_ecc.dram_correctable},
                         {"volatile uncorrectable", gpu.volatile_ecc.dram_uncorrectable},
                         {"aggregate correctable", gpu.aggregate_ecc.dram_correctable},
                         {"aggregate uncorrectable", gpu.aggregate_ecc.dram_uncorrectable},
                     };
                     bool reported = false;
                     std::vector<std::string> over;
                     for (const auto& [name, value] : counts) {
                       reported = reported || value.has_value();
                       if (Over(value, max)) over.push_back(name + " " + std::to_string(*value));
                     }
                     if (!over.empty()) {
                       Add(findings, "ecc-aggregate-high", node, gpu,
                           "has DRAM ECC errors past the profile's limit of " + std::to_string(max) + " (" +
                               Join(over, ", ") +
                               "): the memory is wearing out; drain the node, run dcgmi diag -r 3 and RMA the GPU "
                               "if the count keeps rising");
                     }
                     return reported;
                   });
}

CheckResult CheckRowRemappingHealthy(const std::string& node, const GpuInventory& inventory,
                                     const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  const long long max = health ? health->remapped_rows_uncorrectable_max : 0;
  return JudgeGpus(
      node, inventory, "remapped rows (nor retired pages)",
      [&](const GpuRecord& gpu, auto& findings) {
        const auto& rows = gpu.remapped_rows;
        if (!rows.pending && !rows.failure && !rows.uncorrectable) {
          // Before Ampere the GPU retires pages instead; RetiredPagesHealthy judges those.
          return gpu.retired_pages.pending.has_value() || gpu.retired_pages.double_bit_pages.has_value();
        }
        if (rows.failure.value_or(false)) {
          Add(findings, "row-remap-failure", node, gpu,
              "reports Remapping Failure Occurred: Yes (" + Count(rows.uncorrectable) +
                  " rows remapped for uncorrectable errors): it is out of spare rows; drain the "
                  "node and RMA the GPU");
        }
        if (rows.pending.value_or(false)) {
          Add(findings, "row-remap-pending", node, gpu,
              "has a row remap pending (" + Count(rows.uncorrectable) + " uncorrectable, " + Count(rows.correctable) +
                  " correctable rows): the faulty row stays in use until the GPU is reset; drain "
                  "the node and reset the GPU (nvidia-smi -r, or reboot)");
        }
        if (Over(rows.uncorrectable, max)) {
          Add(findings, "row-remap-count", node, gpu,
              "has " + std::to_string(*rows.uncorrectable) + " rows remapped for uncorrectable errors, limit " +
                  std::to_string(max) + ": its spare rows are running out; drain the node and RMA the GPU");
        }
        return true;
      });
}

CheckResult CheckRetiredPagesHealthy(const std::string& node, const GpuInventory& inventory,
                                     const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  const long long max = health ? health->retired_pages_max : 0;
  return JudgeGpus(node, inventory, "retired pages (nor remapped rows)",
                   [&](const GpuRecord& gpu, auto& findings) {
                     const auto& pages = gpu.retired_pages;
                     if (!pages.pending && !pages.single_bit_pages && !pages.double_bit_pages) {
                       // Ampere and later remap rows instead (retired pages N/A); RowRemappingHealthy judges those.
                       return gpu.remapped_rows.pending.has_value() || gpu.remapped_rows.uncorrectable.has_value();
                     }
                     const long long total = pages.single_bit_pages.value_or(0) + pages.double_bit_pages.value_or(0);
                     const std::string counted = std::to_string(total) + " retired pages (" +
                                                 Count(pages.single_bit_pages) + " for single-bit, " +
                                                 Count(pages.double_bit_pages) + " for double-bit errors)";
                     if (pages.pending.value_or(false)) {
                       Add(findings, "retired-pages-pending", node, gpu,
                           "has a page retirement pending, " + counted +
                               ": the bad pages stay in use until the driver reloads; drain the node and reboot "
                               "it (or reset the GPU)");
                     }
                     if (total > max) {
                       Add(findings, "retired-pages-count", node, gpu,
                           "has " + counted + ", limit " + std::to_string(max) +
                               ": its retirement table is nearly full; drain the node and RMA the GPU");
                     }
                     return true;
                   });
}

CheckResult CheckNoClockSlowdown(const std::string& node, const GpuInventory& inventory, const Profile&) {
  return JudgeGpus(node, inventory, "clock event (throttle) reasons",
                   [&](const GpuRecord& gpu, auto& findings) {
                     const auto& events = gpu.clock_events;
                     const std::vector<std::pair<std::string, std::optional<bool>>> reasons = {
                         {"HW Slowdown", events.hw_slowdown},
                         {"HW Thermal Slowdown", events.hw_thermal_slowdown},
                         {"HW Power Brake Slowdown", events.hw_power_brake_slowdown},
                         {"SW Thermal Slowdown", events.sw_thermal_slowdown},
                     };
                     bool reported = false;
                     std::vector<std::string> active;
                     for (const auto& [name, value] : reasons) {
                       reported = reported || value.has_value();
                       if (value.value_or(false)) active.push_back(name);
                     }
                     if (!active.empty()) {
                       Add(findings, "clock-slowdown", node, gpu,
                           "has its clocks held down: " + Join(active, ", ") +
                               " Active, expected none: a power brake comes from the chassis or PSU (check the "
                               "BMC event log), a thermal slowdown from cooling (check fans, inlet temperature "
                               "and nvidia-smi -q -d TEMPERATURE); drain the node until it clears");
                     }
                     return reported;
                   });
}

CheckResult CheckPersistenceMode(const std::string& node, const GpuInventory& inventory,
                                 const Profile& profile) {
  const GpuHealthExpectation* health = profile.Get<GpuHealthExpectation>();
  const bool want_enabled = !health || health->persistence_mode_enabled;
  const std::string expected = want_enabled ? "Enabled" : "Disabled";
  return JudgeGpus(
      node, inventory, "persistence mode", [&](const GpuRecord& gpu, auto& findings) {
        const auto enabled = nvidia_smi::FlagValue(gpu.persistence_mode);
        if (!enabled) return false;
        if (*enabled != want_enabled) {
          Add(findings, "persistence-mode", node, gpu,
              "has persistence mode " + gpu.persistence_mode + ", expected " + expected + " (profile " + profile.name +
                  "): without it the driver tears the GPU down between jobs and each "
                  "job pays its start-up; systemctl enable --now nvidia-persistenced");
        }
        return true;
      });
}

CheckResult CheckGpusAtExpectedPcieAddresses(const std::string& node, const GpuInventory& inventory,
                                             const kernel_log::KernelLog* log, const Profile& profile) {
  std::vector<Finding> findings;
  std::set<std::string> named;
  for (const std::string& bus_id : inventory.inaccessible_bus_ids) {
    named.insert(bus_id);
    findings.push_back({"gpu-inaccessible", node + "/" + bus_id,
                        node + ": nvidia-smi cannot open the GPU at " + bus_id +
                            " (\"Unable to determine the device handle\"): it has fallen off the bus; drain the node, "
                            "reboot it, check the GPU's power and seating; RMA it if it repeats"});
  }
  std::set<std::string> listed;
  for (const GpuRecord& gpu : inventory.gpus) listed.insert(nvidia_smi::CanonicalBusId(gpu.bus_id));
  // The kernel log names a GPU that fell off the bus even when nvidia-smi no longer lists it.
  if (log) {
    for (const auto& event : log->events) {
      if (event.xid != 79 || event.bus_id.empty() || listed.count(event.bus_id) || named.count(event.bus_id)) continue;
      named.insert(event.bus_id);
      findings.push_back({"gpu-inaccessible", node + "/" + event.bus_id,
                          node + ": the kernel log says the GPU at " + event.bus_id + " has fallen off the bus (line " +
                              std::to_string(event.line) +
                              ") and nvidia-smi does not list it: drain the node, reboot it, check the GPU's power "
                              "and seating; RMA it if it repeats"});
    }
  }
  const auto& expected_ids = profile.Get<GpuHealthExpectation>()->pcie_bus_ids;
  for (const std::string& expected : expected_ids) {
    const std::string bus_id = nvidia_smi::CanonicalBusId(expected);
    if (listed.count(bus_id) || named.count(bus_id)) continue;
    findings.push_back({"gpu-not-at-address", node + "/" + bus_id,
                        node + ": no GPU at " + bus_id + " (gpu_health.pcie_bus_ids of profile " + profile.name +
                            "); nvidia-smi lists " + std::to_string(listed.size()) +
                            " GPUs: run lspci -d 10de: and dmesg | grep -i xid; reseat or RMA the GPU"});
  }
  const int expected_count = profile.gpu->count_per_node;
  const int seen = static_cast<int>(listed.size());
  if (expected_ids.empty() && seen < expected_count && named.empty()) {
    findings.push_back({"gpu-count", node,
                        node + ": nvidia-smi lists " + std::to_string(seen) + " GPUs, expected " +
                            std::to_string(expected_count) + " (profile " + profile.name +
                            "), and neither nvidia-smi nor the kernel log names the missing one: run lspci -d 10de: "
                            "and dmesg | grep -i xid; reseat or RMA the missing GPU"});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".gpus_listed", std::to_string(seen), "GPUs",
                                 ">= " + std::to_string(expected_count), profile.gpu->source});
  return result;
}

CheckResult CheckNoHardwareXids(const std::string& node, const kernel_log::KernelLog& log, const Profile&) {
  using kernel_log::XidClass;
  // One finding per GPU and XID, with the count and the last occurrence: a burst of a thousand
  // identical lines is one fault.
  struct Seen {
    int count = 0;
    const kernel_log::XidEvent* last = nullptr;
  };
  std::map<std::pair<std::string, int>, Seen> seen;
  int application = 0;
  int unlisted = 0;
  for (const auto& event : log.events) {
    const XidClass xid_class = kernel_log::LookUpXid(event.xid).xid_class;
    if (xid_class == XidClass::kApplication) ++application;
    if (xid_class == XidClass::kUnlisted) ++unlisted;
    if (xid_class != XidClass::kHardware && xid_class != XidClass::kDriver) continue;
    Seen& entry = seen[{event.bus_id, event.xid}];
    ++entry.count;
    entry.last = &event;
  }
  std::vector<Finding> findings;
  for (const auto& [key, entry] : seen) {
    const auto& [bus_id, xid] = key;
    const kernel_log::XidEntry info = kernel_log::LookUpXid(xid);
    const kernel_log::XidEvent& last = *entry.last;
    const std::string gpu = bus_id.empty() ? "a GPU" : "the GPU at " + bus_id;
    const std::string when = last.timestamp.empty() ? "" : ", last at " + last.timestamp;
    findings.push_back({info.xid_class == XidClass::kHardware ? ReasonCode("xid-hardware") : ReasonCode("xid-driver"),
                        node + (bus_id.empty() ? "" : "/" + bus_id),
                        node + ": XID " + std::to_string(xid) + " on " + gpu + " (" + std::to_string(entry.count) +
                            (entry.count == 1 ? " time" : " times") + when + ", kernel log line " +
                            std::to_string(last.line) + "): " + std::string(info.meaning) + " (" +
                            std::string(XidClassName(info.xid_class)) +
                            "); NVIDIA's action: " + std::string(info.action)});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + ".xid_events", std::to_string(log.events.size()), "events", "", ""});
  result.measurements.push_back({node + ".application_xid_events", std::to_string(application), "events", "", ""});
  result.measurements.push_back({node + ".unlisted_xid_events", std::to_string(unlisted), "events", "", ""});
  return result;
}

}  // namespace gpuconform::gpu_health
