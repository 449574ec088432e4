// gpuconform: parse the command line, start the world, run the verb.
#include <iostream>

#include "harness/cli.h"
#include "harness/run_command.h"
#include "harness/world.h"

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
  auto world = World::Start(&argc, &argv);
  if (!world) {
    std::cerr << "gpuconform: " << world.error() << "\n";
    return 2;
  }
  const int status = command.verb == Verb::kRun ? RunVerb(command, *world) : CaptureVerb(command, *world);
  world->Finish();
  return status;
}
