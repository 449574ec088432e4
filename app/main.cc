// gpuconform: parse the command line, start the world, run the verb.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <iostream>
#include <thread>

#include "app/cli.h"
#include "app/document_verbs.h"
#include "app/gather_bench_verb.h"
#include "app/health_check_verb.h"
#include "app/launch_verb.h"
#include "app/reasons_command.h"
#include "app/run_command.h"
#include "harness/core/live_source.h"
#include "harness/core/run_options.h"
#include "harness/core/termination.h"
#include "harness/util/child_verbs.h"
#include "harness/util/start_watchdog.h"
#include "harness/util/version.h"
#include "harness/world/collective_deadline.h"
#include "harness/world/world.h"

namespace {

// The final gather alone, for bench/gather-traffic (registered here: the app library is not
// linked whole, so a registration in its own file would be dropped).
const gpuconform::ChildVerbRegistration kGatherBench(gpuconform::kGatherBenchVerb, gpuconform::GatherBenchMain);

// A collective (or forming the world) did not complete: rank 0 writes the report it can make
// (from what the ranks still answering took, during a live run's gather; else alone), then ends
// the job; the launcher then kills every rank, stopped ones included.
[[noreturn]] void GiveUp(const gpuconform::CommandLine& command, const gpuconform::RunOptions& options,
                         const std::string& problem, const gpuconform::World* world) {
  using namespace gpuconform;
  std::cerr << "gpuconform: " << problem << "\n";
  int status = 3;
  const std::optional<int> ended = command.verb == Verb::kRun ? EndGatherPastDeadline(problem) : std::nullopt;
  if (options.launch.rank == 0) {
    if (ended) {
      status = *ended;
    } else if (command.verb == Verb::kRun) {
      status = RunVerbAlone(command, options, problem);
    }
    std::cout.flush();
    if (world != nullptr) world->AbortJob(status == 0 ? 3 : status, problem);
  } else {
    // Leave rank 0 time to write its report; its abort ends us sooner.
    std::this_thread::sleep_for(std::chrono::seconds(30));
  }
  std::_Exit(status == 0 ? 3 : status);
}

// The world never formed, but this node's PMIx server answered: the ranks that started report
// without the ones that did not join (RunVerbUnformed); rank 0's exit status is the step's.
[[noreturn]] void GiveUpUnformed(const gpuconform::CommandLine& command, const gpuconform::RunOptions& options,
                                 const std::string& problem, const gpuconform::World& unformed) {
  using namespace gpuconform;
  std::cerr << "gpuconform: " << problem << "\n";
  const int status = RunVerbUnformed(command, options, unformed, problem);
  std::cout.flush();
  std::_Exit(status == 0 ? 3 : status);
}

std::string WorldNotFormed(std::chrono::seconds deadline) {
  return gpuconform::LocalHostname() + ": the ranks did not form one world within " + std::to_string(deadline.count()) +
         " s (the launcher's PMIx server did not answer): a node of this step is not answering — a dead "
         "slurmd or slurmstepd, a node down, or a firewall between nodes; see SlurmNodes below, and "
         "`scontrol show node` (GPUCONFORM_WORLD_TIMEOUT_S sets this deadline)";
}

// The run's own deadline (termination.h): --deadline from now, or the job's end time where
// Slurm states it, whichever comes first; the reports are written 15 s before it.
void ArmOwnDeadline(const gpuconform::RunOptions& options) {
  using namespace gpuconform;
  std::optional<std::chrono::seconds> left;
  std::string cause;
  if (options.deadline_s > 0) {
    left = std::chrono::seconds(options.deadline_s);
    cause = "its own deadline (--deadline " + std::to_string(options.deadline_s) + " s)";
  }
  if (options.slurm_job_end_time > 0) {
    const auto to_end = std::chrono::seconds(options.slurm_job_end_time - static_cast<long long>(std::time(nullptr)));
    if (!left || to_end < *left) {
      left = to_end;
      cause = "the job's end time (SLURM_JOB_END_TIME)";
    }
  }
  if (left) ArmRunDeadline(*left, std::chrono::seconds(15), cause);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuconform;
  // A probe's child process (the checkpoint writer, the NCCL worker): no world, no MPI.
  if (argc >= 2) {
    if (ChildVerbMain child = FindChildVerb(argv[1])) return child(std::vector<std::string>(argv + 2, argv + argc));
  }
  const ParsedCommandLine parsed = ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.command) {
    (parsed.exit_status == 0 ? std::cout : std::cerr) << parsed.message;
    return parsed.exit_status;
  }
  const CommandLine& command = *parsed.command;
  switch (command.verb) {
    case Verb::kList: return ListVerb();
    case Verb::kProfiles: return ProfilesVerb();
    case Verb::kReasons: return ReasonsVerb(command.json);
    case Verb::kExplain: return ExplainVerb(command.reason_code);
    case Verb::kVersion: std::cout << "gpuconform " << kVersion << "\n"; return 0;
    case Verb::kBaseline:
      return BaselineVerb(command);
    case Verb::kDiff:
      return DiffVerb(command);
    case Verb::kReport:
      return ReportVerb(command);
    case Verb::kHistory:
      return HistoryVerb(command);
    case Verb::kMerge:
      return MergeVerb(command);
    case Verb::kRun:
    case Verb::kHealthCheck:
    case Verb::kCapture:
    case Verb::kLaunch: break;
  }
  // The one read of the environment: everything below takes its settings from `options`.
  const RunOptions options = BuildRunOptions(SettingsOf(command), ReadEnvironment(environ));
  // Slurm's HealthCheckProgram: one node, no MPI, no world to form.
  if (command.verb == Verb::kHealthCheck) return HealthCheckVerb(command, options);
  if (command.verb == Verb::kLaunch) return LaunchMain(LaunchRequestOf(command), options);
  // SIGTERM, SIGINT and SIGHUP end the run in order (termination.h): until the run installs its
  // own handler, which writes the report, stopping the children is all there is to do.
  InstallTerminationSignals();
  OnTermination([](const TerminationNotice& notice) {
    std::cerr << "gpuconform: " << notice.Describe() << "; ending" << std::endl;
    StopChildGroups(std::chrono::milliseconds(1500));
    ProbesParked(std::chrono::milliseconds(1500));  // a probe writing into a run directory stops first
    RemoveRunDirectories();
    std::_Exit(notice.ExitStatus());
  });
  if (command.verb == Verb::kRun && command.snapshot.empty()) ArmOwnDeadline(options);
  const std::chrono::seconds deadline(options.world_timeout_s);
  const bool live_run = command.verb == Verb::kRun && command.snapshot.empty();
  // Set once this node's PMIx server answered: past the deadline, the ranks that did start
  // still report, without the one that never joined.
  std::atomic<const World*> unformed{nullptr};
  StartWatchdog watchdog(deadline, [&] {
    const World* connected = unformed.load();
    if (connected != nullptr && live_run) GiveUpUnformed(command, options, WorldNotFormed(deadline), *connected);
    GiveUp(command, options, WorldNotFormed(deadline), nullptr);
  });
  auto world = World::Connect(options.launch);
  Result<bool> formed = true;
  if (world) {
    if (live_run) PrepareRunRendezvous(*world);
    unformed = &*world;
    formed = world->Form();
  }
  watchdog.Cancel();
  SetGiveUpHandler([&](const std::string& problem) { GiveUp(command, options, problem, world ? &*world : nullptr); });
  if (!world || !formed) {
    std::cerr << "gpuconform: " << (world ? formed.error() : world.error()) << "\n";
    return 2;
  }
  const int status =
      command.verb == Verb::kRun ? RunVerb(command, options, *world) : CaptureVerb(command, options, *world);
  world->Finish(status, std::chrono::seconds(options.collective_timeout_s));
  return status;
}
