#include "suites/slurm/slurm_checks.h"

#include <algorithm>
#include <map>

#include "harness/util/text_util.h"

namespace gpuconform::slurm {

namespace {

std::string ResumeFix(const std::string& node) {
  return "then `scontrol update nodename=" + node + " state=resume`";
}

long long ConfiguredGpus(const SlurmNode& node, std::string& problem) {
  auto gres = ParseGres(node.Field("Gres"));
  if (!gres) {
    problem = node.name + ": cannot read Gres='" + node.Field("Gres") + "': " + gres.error();
    return -1;
  }
  return GpuCount(*gres);
}

}  // namespace

CheckResult CheckGresMatchesProfile(const SlurmNode& node, const Profile& profile) {
  const SlurmExpectation* slurm = profile.Get<SlurmExpectation>();
  if (!slurm) return Skipped("profile " + profile.name + " has no slurm section");
  std::string problem;
  const long long configured = ConfiguredGpus(node, problem);
  if (configured < 0) return Errored("unparseable", problem);
  auto expected = ParseGres(slurm->gres);
  if (!expected) {
    return Errored("bad-profile", profile.file + ": slurm.gres: " + expected.error());
  }
  std::vector<Finding> findings;
  if (configured != GpuCount(*expected)) {
    findings.push_back({"gres-count", node.name,
                        node.name + ": Slurm advertises Gres=" + node.Field("Gres") + " (" + std::to_string(configured) +
                            " GPUs), expected " + slurm->gres + " (profile " + profile.name +
                            "): set Gres=" + slurm->gres + " for " + node.name +
                            " in slurm.conf and gres.conf, restart slurmd"});
  } else {
    auto actual = ParseGres(node.Field("Gres"));
    for (const auto& want : *expected) {
      if (want.name != "gpu" || want.type.empty()) continue;
      bool typed = false;
      for (const auto& have : *actual) typed = typed || (have.name == "gpu" && have.type == want.type);
      if (!typed) {
        findings.push_back({"gres-type", node.name,
                            node.name + ": Slurm advertises Gres=" + node.Field("Gres") + ", expected GPU type '" +
                                want.type + "' (" + slurm->gres + "): jobs asking for --gpus=" + want.type +
                                ":N will not run here; add Type=" + want.type + " in gres.conf"});
      }
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({"configured_gpus", std::to_string(configured), "GPUs",
                                 "== " + std::to_string(GpuCount(*expected)), slurm->source});
  return result;
}

CheckResult CheckGresRegistered(const SlurmNode& node) {
  const auto flags = node.StateFlags();
  const bool invalid = flags.count("INVAL") || flags.count("INVALID_REG") || flags.count("INVALID");
  const bool gres_reason = Contains(node.reason(), "gres/");
  if (!invalid && !gres_reason) return Passed();
  std::string message = node.name + ": slurmctld rejected the node's GRES registration (State=" + node.state();
  if (!node.reason().empty()) message += ", Reason=\"" + node.reason() + "\"";
  message += "): the node is drained and jobs that need it pend; make gres.conf on " + node.name +
             " match the GPUs and slurm.conf's Gres=, restart slurmd there, " + ResumeFix(node.name);
  return Failed({{"gres-registration-rejected", node.name, message}});
}

CheckResult CheckGresConfMatchesSlurmConf(const SlurmNode& node, const GresConf& conf, const std::string& conf_origin) {
  std::string problem;
  const long long configured = ConfiguredGpus(node, problem);
  if (configured < 0) return Errored("unparseable", problem);
  const long long declared = conf.GpusFor(node.name);
  if (declared < 0) {
    if (!conf.autodetect.empty() && conf.autodetect != "off") {
      return Skipped("gres.conf autodetects GPUs (AutoDetect=" + conf.autodetect + "); GresMatchesHardware covers it");
    }
    if (configured == 0) return Passed();
    return Failed({{"gres-conf-missing", node.name,
                    node.name + ": slurm.conf says Gres=" + node.Field("Gres") + " but " + conf_origin +
                        " declares no GPU for it: slurmd drops file-less GPUs and the node goes INVAL; add "
                        "'NodeName=" + node.name + " Name=gpu File=/dev/nvidia[0-" + std::to_string(configured - 1) +
                        "]'"}});
  }
  if (declared == configured) {
    // Counts agree; where both sides name types, the types must agree too, or jobs that
    // ask for --gpus=<type>:N pend on a node that has the GPUs.
    const auto declared_types = conf.GpuTypesFor(node.name);
    const auto configured_types = GpuCountByType(*ParseGres(node.Field("Gres")));
    const bool both_typed = !declared_types.count("") && !configured_types.count("");
    if (!both_typed || declared_types == configured_types) return Passed();
    auto describe = [](const std::map<std::string, long long>& types) {
      std::vector<std::string> parts;
      for (const auto& [type, count] : types) parts.push_back(type + ":" + std::to_string(count));
      return Join(parts, ",");
    };
    return Failed({{"gres-conf-types", node.name,
                    node.name + ": " + conf_origin + " declares GPU types " + describe(declared_types) +
                        ", slurm.conf says Gres=" + node.Field("Gres") +
                        ": make Type= in gres.conf match the types in slurm.conf, restart slurmd on " + node.name}});
  }
  return Failed({{"gres-conf-count", node.name,
                  node.name + ": " + conf_origin + " declares " + std::to_string(declared) +
                      " GPUs, slurm.conf says Gres=" + node.Field("Gres") + " (" + std::to_string(configured) +
                      "): make them agree (fix the File= range or Count=), restart slurmd on " + node.name + ", " +
                      ResumeFix(node.name)}});
}

CheckResult CheckGresMatchesHardware(const SlurmNode& node, const HardwareGpus& hardware) {
  std::string problem;
  const long long configured = ConfiguredGpus(node, problem);
  if (configured < 0) return Errored("unparseable", problem);
  if (!hardware.count) return Errored("no-gpu-count", hardware.problem);
  CheckResult result = Passed();
  if (*hardware.count != configured) {
    const bool fewer = configured < *hardware.count;
    result = Failed({{"gres-vs-hardware", node.name,
                      node.name + ": Slurm advertises " + std::to_string(configured) + " GPUs (Gres=" +
                          node.Field("Gres") + ") but " + hardware.evidence +
                          (fewer ? ": jobs can use only part of the node; raise Gres= and gres.conf"
                                 : ": a GPU is missing or fell off the bus (check nvidia-smi, dmesg for Xid 79), or "
                                   "Gres= is too high") +
                          ", restart slurmd"}});
  }
  result.measurements.push_back({"hardware_gpus", std::to_string(*hardware.count), "GPUs",
                                 "== " + std::to_string(configured), "Slurm Gres="});
  return result;
}

CheckResult CheckNodeUsable(const SlurmNode& node) {
  const auto flags = node.StateFlags();
  struct Bad {
    const char* flag;
    const char* meaning;
    const char* fix;
  };
  static const Bad kBad[] = {
      {"NOT_RESPONDING", "slurmd does not answer the controller",
       "check that slurmd runs on the node, that it reaches the controller, and that its MUNGE key matches"},
      {"DOWN", "the node is down", "find the cause in slurmd.log / slurmctld.log, fix it"},
      {"DRAIN", "the node is drained and takes no new jobs", "fix the cause in the reason"},
      {"DRAINED", "the node is drained and takes no new jobs", "fix the cause in the reason"},
      {"DRAINING", "the node is draining", "fix the cause in the reason"},
      {"FAIL", "the node is failed", "fix the cause in the reason"},
      {"FAILING", "the node is failing", "fix the cause in the reason"},
      {"INVAL", "the node's registration was rejected", "fix the configuration in the reason, restart slurmd"},
      {"INVALID_REG", "the node's registration was rejected", "fix the configuration in the reason, restart slurmd"},
      {"UNKNOWN", "the node never registered with the controller",
       "start slurmd on it; if it runs, check its MUNGE key and slurm.conf against the controller's"},
      {"MAINT", "the node is reserved for maintenance", "end the maintenance reservation"},
  };
  std::vector<std::string> meanings;
  std::string fix;
  for (const auto& bad : kBad) {
    if (!flags.count(bad.flag)) continue;
    meanings.push_back(bad.meaning);
    if (fix.empty()) fix = bad.fix;
  }
  if (meanings.empty()) return Passed();
  std::string message = node.name + ": State=" + node.state();
  if (!node.reason().empty()) message += ", Reason=\"" + node.reason() + "\"";
  message += ": " + Join(meanings, "; ") + "; " + fix + ", " + ResumeFix(node.name);
  return Failed({{"node-unusable", node.name, message}});
}

CheckResult CheckSlurmdReachable(const std::string& node, const SlurmdProbeResult* probe) {
  if (!probe) return Errored("not-probed", node + ": the controller lists no address for " + node);
  if (probe->reachable) return Passed();
  return Failed({{"slurmd-unreachable", node,
                  node + ": slurmd at " + probe->endpoint + " refuses connections (" + probe->error +
                      "): running steps go on, but no new job step can start there and the controller will "
                      "mark the node DOWN after SlurmdTimeout; restart slurmd on " + node +
                      " and read its slurmd.log (or open the port if a firewall blocks it)"}});
}

CheckResult CheckNoJobsPendingOnBrokenNodes(const std::vector<PendingJob>& jobs) {
  static const char* kBrokenNodeReasons[] = {"ReqNodeNotAvail", "NodeDown", "Nodes required for job are DOWN",
                                             "BadConstraints", "Nodes_required_for_job_are_DOWN"};
  std::vector<Finding> findings;
  for (const auto& job : jobs) {
    for (const char* reason : kBrokenNodeReasons) {
      if (!Contains(job.reason, reason)) continue;
      findings.push_back({"job-pending-on-broken-node", "job" + job.job_id,
                          "job " + job.job_id + " (user " + job.user + ", partition " + job.partition +
                              ") is pending: " + job.reason +
                              ": it waits on nodes that are down or drained; see SlurmNodes.NodeUsable"});
      break;
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({"pending_jobs", std::to_string(jobs.size()), "jobs", "", ""});
  return result;
}

CheckResult CheckAllocationGivesGpus(const std::vector<AllocationTask>& tasks, const std::vector<std::string>& nodes,
                                     int gpus_per_node) {
  std::map<std::string, std::string> by_host;
  for (const auto& task : tasks) by_host[task.host] = task.visible_devices;
  std::vector<Finding> findings;
  for (const auto& node : nodes) {
    auto it = by_host.find(node);
    if (it == by_host.end()) {
      findings.push_back({"no-task", node,
                          node + ": `srun --gpus-per-node=" + std::to_string(gpus_per_node) +
                              "` started no task here, so no GPUs were handed out on it"});
      continue;
    }
    const std::string& devices = it->second;
    const int count = devices == "unset" || devices.empty()
                          ? 0
                          : static_cast<int>(std::count(devices.begin(), devices.end(), ',')) + 1;
    if (count != gpus_per_node) {
      findings.push_back({"allocation-gpus", node,
                          node + ": `srun --gpus-per-node=" + std::to_string(gpus_per_node) +
                              "` set CUDA_VISIBLE_DEVICES=" + devices + " (" + std::to_string(count) +
                              " GPUs), expected " + std::to_string(gpus_per_node) +
                              ": check GresTypes=gpu in slurm.conf and the node's gres.conf File= lines"});
    }
  }
  return FromFindings(std::move(findings));
}

}  // namespace gpuconform::slurm
