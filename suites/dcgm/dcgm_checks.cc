#include "suites/dcgm/dcgm_checks.h"

#include <set>
#include <vector>

#include "harness/core/gpu_applicability.h"
#include "harness/util/text_util.h"
#include "probes/dcgm/dcgm_profile.h"

namespace gpuconform::dcgm_suite {

using dcgm::DcgmDiagReport;
using dcgm::DiagMessage;
using dcgm::DiagState;
using dcgm::DiagTest;
using dcgm::EnvironmentEvidence;
using dcgm::EnvironmentFailure;

namespace {

std::string Quoted(const DiagMessage& message) {
  return (message.error_name.empty() ? "" : message.error_name + " ") + "\"" + message.text + "\"";
}

std::string GpuEntity(const std::string& node, int gpu) { return node + "/gpu" + std::to_string(gpu); }

// The GPUs the run covered: those dcgmi listed device ids for, and any a result or message names.
std::set<int> GpusOf(const DcgmDiagReport& report) {
  std::set<int> gpus;
  for (std::size_t i = 0; i < report.gpu_device_ids.size(); ++i) gpus.insert(static_cast<int>(i));
  for (const auto& test : report.tests) {
    for (const auto& entity : test.entities) {
      if (entity.entity_group == "GPU") gpus.insert(entity.entity_id);
    }
    for (const auto& warning : test.warnings) {
      if (warning.gpu) gpus.insert(*warning.gpu);
    }
  }
  return gpus;
}

// What DCGM said about `gpu` in `test`: its own result's messages and those naming it; where
// there are none, the test's messages that name no GPU.
std::vector<std::string> MessagesAbout(const DiagTest& test, int gpu) {
  std::vector<std::string> quoted;
  for (const auto& entity : test.entities) {
    if (entity.entity_group != "GPU" || entity.entity_id != gpu) continue;
    for (const auto& warning : entity.warnings) quoted.push_back(Quoted(warning));
  }
  for (const auto& warning : test.warnings) {
    if (warning.gpu == gpu) quoted.push_back(Quoted(warning));
  }
  if (!quoted.empty()) return quoted;
  for (const auto& warning : test.warnings) {
    if (!warning.gpu) quoted.push_back(Quoted(warning));
  }
  return quoted;
}

std::string TestName(const DiagTest& test) {
  return "'" + test.name + "'" + (test.category.empty() ? "" : " (" + test.category + ")");
}

std::string Said(const std::vector<std::string>& quoted) {
  return quoted.empty() ? "DCGM gave no message" : "DCGM: " + Join(quoted, "; ");
}

// Every environment failure of one kind: the tests and GPUs it was seen in, and the first
// message verbatim.
struct Evidence {
  std::set<std::string> tests;
  std::set<int> gpus;
  std::string first;
};

Evidence EvidenceOf(const DcgmDiagReport& report, EnvironmentFailure kind) {
  Evidence evidence;
  for (const EnvironmentEvidence& seen : report.environment_failures) {
    if (seen.failure != kind) continue;
    if (!seen.test.empty()) evidence.tests.insert(seen.test);
    if (seen.gpu) evidence.gpus.insert(*seen.gpu);
    if (evidence.first.empty()) evidence.first = seen.evidence;
  }
  return evidence;
}

std::string Where(const Evidence& evidence) {
  std::vector<std::string> gpus;
  for (int gpu : evidence.gpus) gpus.push_back(std::to_string(gpu));
  std::string where;
  if (!evidence.tests.empty()) {
    where += " in test " + Join(std::vector<std::string>(evidence.tests.begin(), evidence.tests.end()), ", ");
  }
  if (!gpus.empty()) where += (gpus.size() == 1 ? " on GPU " : " on GPUs ") + Join(gpus, ", ");
  return where;
}

void AddState(std::vector<Measurement>& measurements, const std::string& name, DiagState state) {
  measurements.push_back({name, dcgm::DiagStateName(state), "", "", ""});
}

// dcgmi ran but found no host engine to talk to: the tooling's fault, with DCGM's words.
CheckResult HostEngineUnreachable(const std::string& node, const std::string& evidence) {
  return Errored("dcgm-host-engine", node + ": dcgmi could not reach DCGM's host engine, so no diagnostic ran; "
                                            "start nv-hostengine (systemctl start nvidia-dcgm) and rerun: " +
                                            evidence);
}

}  // namespace

std::optional<std::string> DiagnosticsSkipReason(const Profile& profile) {
  if (auto reason = GpuSkipReason(profile, "there is no GPU for DCGM to diagnose")) return reason;
  if (!profile.Get<dcgm::DcgmExpectation>()) {
    return "profile " + profile.name + " has no dcgm section, so no diagnostic level is chosen (add dcgm: {level, "
           "source}, see docs/profiles.md)";
  }
  return std::nullopt;
}

CheckResult CheckDiagnosticsPass(const std::string& node, const DcgmDiagReport& report) {
  const Evidence cuda = EvidenceOf(report, EnvironmentFailure::kCudaNotInitialized);
  if (!cuda.first.empty()) {
    return Failed({{"dcgm-fabric-not-ready", node,
                    node + ": CUDA could not start on the node" + Where({{}, cuda.gpus, ""}) +
                        " ('system not yet initialized'): Fabric Manager has not set up the NVSwitch fabric, so "
                        "DCGM's failures say nothing about the GPUs; start nvidia-fabricmanager and rerun. DCGM: \"" +
                        cuda.first + "\""}});
  }
  const Evidence engine = EvidenceOf(report, EnvironmentFailure::kHostEngineUnreachable);
  if (!engine.first.empty()) {
    return HostEngineUnreachable(node, "DCGM: \"" + engine.first + "\"");
  }
  const Evidence internal = EvidenceOf(report, EnvironmentFailure::kDcgmInternalError);

  CheckResult result = Passed();
  std::vector<Finding> findings;
  if (report.level) result.measurements.push_back({node + ".dcgm.level", std::to_string(*report.level), "", "", ""});
  const std::set<int> gpus = GpusOf(report);
  for (const DiagTest& test : report.tests) {
    if (internal.tests.count(test.name) > 0) {
      result.measurements.push_back({node + ".dcgm." + test.name, "inconclusive (DCGM internal error)", "", "", ""});
      continue;
    }
    bool failed_a_gpu = false;
    for (int gpu : gpus) {
      const auto state = test.GpuState(gpu);
      if (!state || *state == DiagState::kPass) continue;
      if (*state != DiagState::kFail) {
        AddState(result.measurements, GpuEntity(node, gpu) + ".dcgm." + test.name, *state);
        continue;
      }
      failed_a_gpu = true;
      findings.push_back({"dcgm-diag-failed", GpuEntity(node, gpu),
                          node + " GPU " + std::to_string(gpu) + ": DCGM's " + TestName(test) +
                              " test failed. " + Said(MessagesAbout(test, gpu)) +
                              "; follow DCGM's suggestion, rerun the test after a GPU reset and reseat or RMA the GPU "
                              "if it fails again"});
    }
    if (test.overall == DiagState::kFail && !failed_a_gpu) {
      std::vector<std::string> quoted;
      for (const auto& warning : test.warnings) quoted.push_back(Quoted(warning));
      findings.push_back({"dcgm-diag-failed", node,
                          node + ": DCGM's " + TestName(test) + " test failed naming no GPU. " + Said(quoted)});
    } else if (test.overall && *test.overall != DiagState::kPass && *test.overall != DiagState::kFail &&
               test.entities.empty() && !test.all_gpus) {
      AddState(result.measurements, node + ".dcgm." + test.name, *test.overall);  // a node-wide test's skip or warn
    }
  }
  if (!findings.empty()) {
    CheckResult failed = Failed(std::move(findings));
    failed.measurements = std::move(result.measurements);
    return failed;
  }
  if (!internal.first.empty()) {
    return Errored("dcgm-internal-error",
                   node + ": DCGM failed inside itself" + Where(internal) +
                       ", so the run is inconclusive and no GPU is judged by it; rerun with the node to itself (sbatch "
                       "--exclusive, or as root outside a Slurm step). DCGM: \"" + internal.first + "\"");
  }
  if (!report.runtime_errors.empty()) {
    return Errored("unavailable", node + ": dcgmi did not complete the diagnostic: \"" +
                                      Join(report.runtime_errors, "; ") + "\"");
  }
  if (!report.complete) {
    return Errored("unparseable", node + ": " + report.origin +
                                      ": the diagnostic's table is cut off before its end, so a failure may be missing");
  }
  if (report.tests.empty()) {
    return Errored("not-reported", node + ": " + report.origin + ": the diagnostic lists no test");
  }
  return result;
}

CheckResult DiagnosticsUnread(const std::string& node, bool tool_missing, const std::string& problem) {
  if (tool_missing) {
    return Errored("tool-missing",
                   node + ": dcgmi is not installed, so DCGM's diagnostic cannot run (" + problem +
                       "); install DCGM - NVIDIA's datacenter-gpu-manager package from the CUDA repository - and "
                       "start its host engine (systemctl enable --now nvidia-dcgm), or name dcgmi in the profile's "
                       "dcgm.dcgmi");
  }
  if (dcgm::ClassifyEnvironment(problem) == EnvironmentFailure::kHostEngineUnreachable) {
    return HostEngineUnreachable(node, problem);
  }
  return Errored("unavailable", problem);
}

}  // namespace gpuconform::dcgm_suite
