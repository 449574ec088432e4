#include "probes/slurm/srun_parse.h"

#include <regex>

#include "harness/text_util.h"

namespace gpuconform::slurm {

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

}  // namespace gpuconform::slurm
