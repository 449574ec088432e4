// Fuzzes what srun prints on stderr while `gpuconform launch` runs a step
// (probes/slurm/srun_parse.h): the refusals in the whole text, and each line fed to the watch
// for tasks that end before the world formed, with the nodes and srun's words read back.
#include "fuzz/fuzz_support.h"
#include "harness/util/text_util.h"
#include "probes/slurm/srun_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  for (const auto& node : slurm::ParseSrunLaunchRefusals(text)) fuzz::Keep(node.node + node.slurm_error);
  slurm::StartFailureWatch watch;
  for (const auto line : SplitLines(text)) {
    watch.Feed(line);
    fuzz::Keep(std::to_string(slurm::IsSrunTaskExit(line)));
  }
  for (const auto& node : watch.ExitedAtStart()) fuzz::Keep(node.node + node.slurm_error);
  fuzz::Keep(std::to_string(watch.world_formed()));
  return 0;
}
