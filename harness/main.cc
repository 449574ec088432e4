// gpuconform: parse the command line, start the world, run the verb.
#include <cstdlib>
#include <iostream>

#include "harness/cli.h"
#include "harness/live_source.h"
#include "harness/run_command.h"
#include "harness/start_watchdog.h"
#include "harness/world.h"

namespace {

// The rank the launcher gave this process, read before MPI is up.
int LauncherRank() {
  for (const char* name : {"PMIX_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

// MPI_Init did not return: rank 0 writes the report it can, every rank ends the process.
[[noreturn]] void GiveUpOnWorld(const gpuconform::CommandLine& command, std::chrono::seconds deadline) {
  using namespace gpuconform;
  const std::string problem =
      LocalHostname() + ": the ranks did not form one MPI world within " + std::to_string(deadline.count()) +
      " s (MPI_Init under the launcher's PMIx did not return): a node of this step is not answering — a dead "
      "slurmd or slurmstepd, a node down, or a firewall between nodes; see SlurmNodes below, and "
      "`scontrol show node` (GPUCONFORM_WORLD_TIMEOUT_S sets this deadline)";
  std::cerr << "gpuconform: " << problem << "\n";
  int status = 3;
  if (command.verb == Verb::kRun && LauncherRank() == 0) status = RunVerbAlone(command, problem);
  std::cout.flush();
  std::_Exit(status == 0 ? 3 : status);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuconform;
  const ParsedCommandLine parsed = ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.command) {
    (parsed.exit_status == 0 ? std::cout : std::cerr) << parsed.message;
    return parsed.exit_status;
  }
  const CommandLine& command = *parsed.command;
  switch (command.verb) {
    case Verb::kList: return ListVerb();
    case Verb::kProfiles: return ProfilesVerb();
    case Verb::kVersion: std::cout << "gpuconform " << GPUCONFORM_VERSION << "\n"; return 0;
    case Verb::kRun:
    case Verb::kCapture: break;
  }
  const auto deadline = WorldStartDeadline();
  StartWatchdog watchdog(deadline, [&] { GiveUpOnWorld(command, deadline); });
  auto world = World::Start(&argc, &argv);
  watchdog.Cancel();
  if (!world) {
    std::cerr << "gpuconform: " << world.error() << "\n";
    return 2;
  }
  const int status = command.verb == Verb::kRun ? RunVerb(command, *world) : CaptureVerb(command, *world);
  if (world->broken()) world->FinishBroken(status);
  world->Finish();
  return status;
}
