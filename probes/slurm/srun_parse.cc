#include "probes/slurm/srun_parse.h"

#include <regex>

#include "harness/util/text_util.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform::slurm {

namespace {

// srun's _task_finish (Slurm's launch plugin): "HOSTS: task|tasks IDS: " then "Exited with
// exit code N", "Out Of Memory", or strsignal's name of the signal, " (core dumped)" after it.
// A clean exit is only verbose ("Completed"); the Open MPI port error is lowercase words.
const std::regex& TaskExitPrefix() {
  static const std::regex prefix(R"(^srun: error: ([A-Za-z0-9._\-\[\],]+): tasks? [0-9,\-]+: )");
  return prefix;
}

bool IsExitDescription(const std::string& text) {
  static const std::regex description(R"(Exited with exit code [0-9]+|Out Of Memory|[A-Z][A-Za-z0-9 \-]*( \(core dumped\))?)");
  return std::regex_match(text, description);
}

// A line a task printed, fit for a report: control characters shown as '?', at most 300 bytes.
std::string Printable(std::string_view line) {
  std::string text(Trim(line).substr(0, 300));
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

constexpr std::size_t kMaxTaskLines = 4;

}  // namespace

std::vector<RefusedNode> ParseSrunLaunchRefusals(const std::string& srun_stderr) {
  // Slurm 20.11 and later say "StepId=J.S"; older ones "step J.S"; both name the node.
  static const std::regex kTaskLaunchFailed(R"(Task launch for (?:StepId=|step )?\S+ failed on node ([^\s:]+): (.*))");
  std::vector<RefusedNode> refused;
  for (const auto line : SplitLines(srun_stderr)) {
    const std::string text(Trim(line));
    std::smatch match;
    if (!std::regex_search(text, match, kTaskLaunchFailed)) continue;
    const std::string node = match[1].str();
    if (!IsRefused(node, refused)) refused.push_back({node, text});
  }
  return refused;
}

std::optional<SrunTaskExit> ParseSrunTaskExit(std::string_view line) {
  const std::string text(Trim(line));
  std::smatch match;
  if (!std::regex_search(text, match, TaskExitPrefix())) return std::nullopt;
  if (!IsExitDescription(match.suffix().str())) return std::nullopt;
  auto nodes = ExpandHostlist(match[1].str());
  if (!nodes || nodes->empty()) return std::nullopt;
  return SrunTaskExit{*nodes, text};
}

bool IsSrunTaskExit(std::string_view srun_words) {
  const std::string text(srun_words);
  return std::regex_search(text, TaskExitPrefix());
}

void StartFailureWatch::Feed(std::string_view line) {
  if (world_formed_) return;
  const std::string_view text = Trim(line);
  if (StartsWith(text, kWorldFormedMarker)) {
    world_formed_ = true;
    return;
  }
  if (Contains(text, "Job step aborted") || Contains(text, "Application launch failed") ||
      (Contains(text, "Task launch for") && Contains(text, "failed on node"))) {
    step_aborted_ = true;
    return;
  }
  if (auto exit = ParseSrunTaskExit(text)) {
    if (step_aborted_) return;
    for (const auto& node : exit->nodes) {
      if (!IsRefused(node, exited_)) exited_.push_back({node, exit->words});
    }
    return;
  }
  if (text.empty() || StartsWith(text, "srun: ")) return;
  if (task_lines_.size() < kMaxTaskLines) task_lines_.push_back(Printable(text));
}

std::vector<RefusedNode> StartFailureWatch::ExitedAtStart() const {
  std::vector<RefusedNode> exited = exited_;
  if (exited.size() == 1 && !task_lines_.empty()) {
    exited[0].slurm_error += "; the task printed: " + Join(task_lines_, " / ");
  }
  return exited;
}

}  // namespace gpuconform::slurm
