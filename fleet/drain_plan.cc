#include "fleet/drain_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/util/hostlist.h"
#include "harness/util/text_util.h"

namespace gpuconform {

namespace {

// A finding about the node's Slurm state itself: draining for it would only repeat the state.
bool RepeatsSlurmState(std::string_view code) { return code == "node-unusable"; }

bool DrainsFor(const Finding& finding) {
  const FaultClass fault_class = finding.code.entry().fault_class;
  return fault_class != FaultClass::kTooling && !RepeatsSlurmState(finding.code.code()) &&
         finding.code.code() != "not-applicable" && finding.code.code() != "metric-regression";
}

// The node a finding is about: the case's node, or the first part of the finding's entity
// ("node3/gpu2" -> node3) when a cluster-wide check names one of the run's nodes.
std::string NodeOf(const CheckResult& result, const Finding& finding, const std::set<std::string>& nodes) {
  if (!result.node.empty()) return result.node;
  const std::string first = finding.entity.substr(0, finding.entity.find('/'));
  return nodes.count(first) ? first : "";
}

bool HasFlag(const std::string& state, std::string_view flag) {
  std::size_t start = 0;
  while (start <= state.size()) {
    const std::size_t end = std::min(state.find('+', start), state.size());
    std::string bare = state.substr(start, end - start);
    start = end + 1;
    while (!bare.empty() && (bare.back() == '*' || bare.back() == '~' || bare.back() == '#')) bare.pop_back();
    if (bare == flag) return true;
  }
  return false;
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '"' || c == '\''; }), text.end());
  return text;
}

}  // namespace

int DrainCap::LimitFor(int judged_nodes) const {
  if (count) return *count;
  if (percent) return static_cast<int>(std::floor(*percent / 100.0 * judged_nodes));
  return judged_nodes;
}

Result<DrainCap> ParseDrainCap(const std::string& text) {
  DrainCap cap;
  cap.text = text;
  const bool is_percent = !text.empty() && text.back() == '%';
  const std::string number = is_percent ? text.substr(0, text.size() - 1) : text;
  if (number.empty() ||
      !std::all_of(number.begin(), number.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) ||
      std::count(number.begin(), number.end(), '.') > (is_percent ? 1 : 0) || number.size() > 9) {
    return Error{"--max-drain '" + text + "': give a node count (5) or a percentage of the judged nodes (10%)"};
  }
  if (is_percent) {
    cap.percent = std::stod(number);
    if (*cap.percent > 100) return Error{"--max-drain '" + text + "': a percentage is at most 100%"};
  } else {
    cap.count = std::stoi(number);
  }
  return cap;
}

bool SlurmNodeState::Drained() const {
  return HasFlag(state, "DRAIN") || HasFlag(state, "DRAINED") || HasFlag(state, "DRAINING") || HasFlag(state, "DOWN") ||
         HasFlag(state, "FAIL") || HasFlag(state, "FAILING") || HasFlag(state, "NOT_RESPONDING");
}

bool SlurmNodeState::OursToResume() const { return Drained() && reason.rfind(kDrainReasonPrefix, 0) == 0; }

const char* DrainActionName(DrainAction action) {
  switch (action) {
    case DrainAction::kDrain:
      return "drain";
    case DrainAction::kKeepReason:
      return "keep-reason";
    case DrainAction::kAlreadyOurs:
      return "already-drained";
    case DrainAction::kHeldBack:
      return "held-back";
    case DrainAction::kNotInSlurm:
      return "not-in-slurm";
    case DrainAction::kResume:
      return "resume";
  }
  return "drain";
}

std::vector<std::string> DrainPlan::NodesWith(DrainAction action) const {
  std::vector<std::string> nodes;
  for (const auto& decision : decisions) {
    if (decision.action == action) nodes.push_back(decision.node);
  }
  return nodes;
}

std::vector<DrainCause> DrainCauses(const std::vector<CheckResult>& results, const std::vector<std::string>& nodes) {
  const std::set<std::string> known(nodes.begin(), nodes.end());
  std::map<std::string, DrainCause> first_cause;
  for (const auto& result : results) {
    if (result.verdict != Verdict::kFail) continue;
    for (const auto& finding : result.findings) {
      if (!DrainsFor(finding)) continue;
      const std::string node = NodeOf(result, finding, known);
      if (node.empty() || !known.count(node) || first_cause.count(node)) continue;
      first_cause[node] =
          DrainCause{node, finding.code.str(), std::string(FaultClassName(finding.code.entry().fault_class)),
                     result.TestName(), finding.message};
    }
  }
  std::vector<DrainCause> causes;
  // Hardware first (an RMA waits longest), then by node name, so a cap keeps the worst.
  for (const auto& [node, cause] : first_cause) causes.push_back(cause);
  std::stable_sort(causes.begin(), causes.end(), [](const DrainCause& a, const DrainCause& b) {
    return (a.fault_class == "hardware") > (b.fault_class == "hardware");
  });
  return causes;
}

std::vector<std::string> ConformingNodes(const std::vector<CheckResult>& results,
                                         const std::vector<std::string>& nodes) {
  const std::set<std::string> known(nodes.begin(), nodes.end());
  std::set<std::string> troubled;
  for (const auto& result : results) {
    if (result.verdict == Verdict::kPass || result.verdict == Verdict::kSkip) continue;
    // "node2 is drained" is the state a resume ends, not a reason to keep it.
    if (!result.findings.empty() && std::all_of(result.findings.begin(), result.findings.end(),
                                                [](const Finding& f) { return RepeatsSlurmState(f.code.code()); })) {
      continue;
    }
    if (!result.node.empty()) {
      troubled.insert(result.node);
      continue;
    }
    for (const auto& finding : result.findings) {
      const std::string node = NodeOf(result, finding, known);
      if (!node.empty()) troubled.insert(node);
    }
  }
  std::vector<std::string> conforming;
  for (const auto& node : nodes) {
    if (!troubled.count(node)) conforming.push_back(node);
  }
  return conforming;
}

std::string DrainReasonFor(const DrainCause& cause, const std::string& run_id) {
  const std::string tail = " run=" + run_id.substr(0, 8);
  std::string reason = std::string(kDrainReasonPrefix) + " " + cause.code + ": " + OneLine(cause.message);
  const std::size_t room = kMaxDrainReasonChars - tail.size();
  if (reason.size() > room) reason = reason.substr(0, room - 3) + "...";
  return reason + tail;
}

DrainPlan PlanDrain(const std::vector<CheckResult>& results, const DrainPlanInputs& inputs) {
  DrainPlan plan;
  plan.run_id = inputs.run_id;
  std::map<std::string, const SlurmNodeState*> slurm;
  if (inputs.slurm) {
    for (const auto& node : *inputs.slurm) slurm[node.name] = &node;
  }
  const int limit = inputs.cap ? inputs.cap->LimitFor(static_cast<int>(inputs.judged_nodes.size()))
                               : static_cast<int>(inputs.judged_nodes.size());
  int drains = 0;
  std::vector<std::string> held;
  for (const auto& cause : DrainCauses(results, inputs.judged_nodes)) {
    DrainDecision decision{cause.node, DrainAction::kDrain, "", "", cause};
    const auto known = slurm.find(cause.node);
    if (inputs.slurm && known == slurm.end()) {
      decision.action = DrainAction::kNotInSlurm;
      decision.why = "the controller does not list " + cause.node;
    } else if (known != slurm.end() && known->second->OursToResume()) {
      decision.action = DrainAction::kAlreadyOurs;
      decision.why = "already out of service with gpuconform's reason \"" + known->second->reason + "\"";
    } else if (known != slurm.end() && known->second->Drained()) {
      decision.action = DrainAction::kKeepReason;
      decision.why = "already " + known->second->state + " for another reason (\"" + known->second->reason +
                     "\"): that reason is kept";
    } else if (drains >= limit) {
      decision.action = DrainAction::kHeldBack;
      decision.why = "held back by --max-drain " + inputs.cap->text;
      held.push_back(cause.node);
    } else {
      ++drains;
      decision.slurm_reason = DrainReasonFor(cause, inputs.run_id);
      decision.why = cause.check + ": " + cause.code + " (" + cause.fault_class + ")";
    }
    plan.decisions.push_back(std::move(decision));
  }
  if (!held.empty()) {
    plan.cap_note = "--max-drain " + inputs.cap->text + " allows " + std::to_string(limit) + " drain(s) of " +
                    std::to_string(inputs.judged_nodes.size()) + " judged node(s); held back " +
                    std::to_string(held.size()) + ": " + CompressHostlist(held) +
                    " (many failing nodes at once often means one shared cause: read the findings first)";
  }
  if (inputs.resume_passed && inputs.slurm) {
    for (const auto& node : ConformingNodes(results, inputs.judged_nodes)) {
      const auto known = slurm.find(node);
      if (known == slurm.end() || !known->second->OursToResume()) continue;
      plan.decisions.push_back({node,
                                DrainAction::kResume,
                                "",
                                "conforms now; drained by gpuconform (\"" + known->second->reason + "\")",
                                {}});
    }
  }
  return plan;
}

std::string ExcludeHostlist(const DrainPlan& plan) {
  std::vector<std::string> nodes;
  for (const auto& decision : plan.decisions) {
    if (decision.action != DrainAction::kResume && decision.action != DrainAction::kNotInSlurm) {
      nodes.push_back(decision.node);
    }
  }
  return nodes.empty() ? "" : CompressHostlist(nodes);
}

std::string RenderDrainPlanText(const DrainPlan& plan, bool applying) {
  std::string text = applying ? "Drain actions:\n" : "Drain plan (dry run; --apply-drain acts on it):\n";
  if (plan.decisions.empty()) text += "  nothing to drain or resume\n";
  for (const auto& decision : plan.decisions) {
    text += "  " + decision.node + ": " + DrainActionName(decision.action) + " — " + decision.why + "\n";
    if (decision.action == DrainAction::kDrain) text += "      Reason=\"" + decision.slurm_reason + "\"\n";
  }
  if (!plan.cap_note.empty()) text += "  " + plan.cap_note + "\n";
  const auto drains = plan.NodesWith(DrainAction::kDrain);
  if (!drains.empty()) text += "  srun --exclude=" + CompressHostlist(drains) + " keeps jobs off them\n";
  return text;
}

}  // namespace gpuconform
