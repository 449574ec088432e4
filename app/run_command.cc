#include "app/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "app/judge_pipeline.h"
#include "app/terminal_printer.h"
#include "app/terminated_cases.h"
#include "baseline/regression.h"
#include "fleet/drain_step.h"
#include "harness/core/case_filter.h"
#include "harness/core/live_source.h"
#include "harness/core/node_coverage.h"
#include "harness/core/profile.h"
#include "harness/core/snapshot_gaps.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "harness/core/termination.h"
#include "harness/util/atomic_file.h"
#include "harness/util/hostlist.h"
#include "harness/util/read_file.h"
#include "harness/util/text_util.h"
#include "harness/util/timestamp.h"
#include "harness/util/version.h"
#include "harness/world/gather.h"
#include "harness/world/launch_ranks_file.h"
#include "history/history_store.h"
#include "probes/checkpoint_writer/checkpoint_profile.h"
#include "probes/slurm/slurm_parse.h"
#include "reports/json_report.h"
#include "reports/report_sinks.h"
#include "suites/launch/launch_checks.h"

namespace gpuconform {

namespace {

// The case that says why the ranks did not form a world: "Launch.WorldFormed".
std::string WorldFormedCase() { return std::string(launch::kSuite) + "." + launch::kWorldFormed; }

bool UseColor(const RunOptions& options) {
  if (options.color == "always") return true;
  if (options.color == "never") return false;
  return isatty(STDOUT_FILENO) && options.term && *options.term != "dumb" && !options.no_color;
}

void Progress(const World& world, const std::string& line) {
  if (world.is_root()) std::cerr << "gpuconform: " << line << std::endl;
}

// --checkpoint-dir and --checkpoint-temp-dir name the Checkpoint suite's storage; naming it
// on the command line asks for the suite even where the profile has no checkpoint section.
// The probe takes the directory from RunOptions::checkpoint_dir, where the CLI beats the environment.
void ApplyCheckpointOptions(const CommandLine& command, Profile& profile) {
  if (command.checkpoint_dir.empty() && command.checkpoint_temp_dir.empty()) return;
  checkpoint::CheckpointExpectation expect = profile.GetOrDefault<checkpoint::CheckpointExpectation>();
  if (!command.checkpoint_dir.empty()) expect.dir = command.checkpoint_dir;
  if (!command.checkpoint_temp_dir.empty()) expect.temp_dir = command.checkpoint_temp_dir;
  profile.Set(expect);
}

// Every rank gathers; rank 0 ends up with the raw outputs of all.
struct Gathered {
  ClusterRaw raw;
  std::vector<RankInfo> ranks;
  std::string mode;
  std::map<std::string, std::string> manifest;  // a snapshot's manifest.yaml
};

Result<Gathered> GatherRaw(const CommandLine& command, const RunOptions& options, const World& world,
                           const std::vector<ProbeSpec>& probes, const Profile& profile, GatherProgress* so_far) {
  if (!command.snapshot.empty()) {
    auto snapshot = OpenSnapshot(command.snapshot);
    if (!snapshot) return Error{snapshot.error()};
    std::shared_ptr<SnapshotSource> source = std::move(snapshot).value();
    Gathered gathered{ReplayLazily(source, probes), {}, "snapshot " + command.snapshot, source->manifest().fields};
    if (gathered.raw.nodes.empty() && gathered.raw.cluster.empty()) {
      return Error{command.snapshot + ": snapshot holds no node and no cluster outputs"};
    }
    // The capture's launch facts, where it kept them: the Launch suite judges them as live.
    const std::string ranks_path = (std::filesystem::path(command.snapshot) / kLaunchRanksFile).string();
    std::error_code absent;
    if (std::filesystem::exists(ranks_path, absent)) {
      auto text = ReadTextFile(ranks_path, "launch facts");
      if (!text) return Error{text.error()};
      auto ranks = ParseLaunchRanks(*text, ranks_path);
      if (!ranks) return Error{ranks.error()};
      gathered.ranks = std::move(*ranks);
    }
    return gathered;
  }
  LiveSource live(LocalHostname(), &profile, options);
  GatheredRun run =
      GatherLive(world, live, probes, [&](const std::string& line) { Progress(world, line); }, &profile, so_far);
  return Gathered{std::move(run.raw), std::move(run.ranks), "live", {}};
}

// Only the suites the filter may select are probed and evaluated.
std::vector<const SuiteDefinition*> SelectedSuites(const std::string& filter) {
  std::vector<const SuiteDefinition*> selected;
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    for (const auto& check : suite->checks) {
      if (FilterMaySelect(filter, suite->name, check.name)) {
        selected.push_back(suite);
        break;
      }
    }
  }
  return selected;
}

int RunVerbWith(const CommandLine& command, const RunOptions& options, const World& world,
                const std::string& world_problem);

// Cases of several evaluations in the order of `suites` (the registry's), each suite's cases
// in the order they were judged.
void InSuiteOrder(std::vector<CheckResult>& cases, const std::vector<const SuiteDefinition*>& suites) {
  std::map<std::string, std::size_t> order;
  for (std::size_t i = 0; i < suites.size(); ++i) order.emplace(suites[i]->name, i);
  std::stable_sort(cases.begin(), cases.end(), [&](const CheckResult& a, const CheckResult& b) {
    const auto ia = order.find(a.suite), ib = order.find(b.suite);
    return (ia == order.end() ? order.size() : ia->second) < (ib == order.end() ? order.size() : ib->second);
  });
}

// What one run judges, the same in each of its phases: who asked, against what, and since when.
struct RunScope {
  const CommandLine& command;
  const RunOptions& options;
  const World& world;
  const Profile& profile;
  const std::vector<const SuiteDefinition*>& suites;  // every suite the filter may select
  const std::string& filter;
  std::chrono::steady_clock::time_point start;
  std::string started_utc;
  std::string world_problem;
};

std::vector<CheckResult> EvaluateGathered(const RunScope& scope, const std::vector<const SuiteDefinition*>& suites,
                                          const Gathered& gathered);
int JudgeGathered(const RunScope& scope, const std::vector<const SuiteDefinition*>& to_evaluate,
                  std::vector<CheckResult> judged_before, Gathered& gathered, const std::string& ending_note,
                  int ending_status, const std::optional<CutShort>& cut = std::nullopt);

// Who ends a live run: the main thread once its gather is done (it judges), or the termination
// handler while the gather is still under way (it judges what was taken). Whichever claims
// first; the other waits for the process to end. Held for the process's life: the handler
// thread may outlive the run's own frames.
struct RunEnding {
  enum Phase { kGathering, kJudging, kTerminating };
  std::atomic<int> phase{kGathering};
  std::atomic<bool> reported{false};
  std::atomic<int> status{0};
  GatherProgress so_far;
  // The suites judged from the first gather (the node probes), before the measurements ran;
  // set by the main thread before it starts the measurements, read by the handler after.
  std::mutex early_mutex;
  bool early_judged = false;
  std::vector<CheckResult> early_cases;
  // Judges them beside the measurements, so the other ranks never wait for rank 0's judging in
  // the measurements' first exchange (a fleet's judging takes longer than its deadline).
  std::thread early_judge;
  // Set by a live run before its gather: ends it when a collective passes its deadline.
  std::function<std::optional<int>(const std::string& problem)> past_deadline;

  bool Claim(Phase by) {
    int expected = kGathering;
    return phase.compare_exchange_strong(expected, by);
  }
};

RunEnding& TheRunEnding() {
  static RunEnding* ending = new RunEnding();  // never freed: the handler thread may read it last
  return *ending;
}

// Rank 0's last step of a live run, by whichever claimed its end: the suites judged from the
// first gather keep their cases, and the others (all, where that judging had not finished) are
// judged from `taken`.
int JudgeTheRest(RunEnding& ending, const RunScope& scope, const std::vector<const SuiteDefinition*>& late,
                 Gathered& taken, const std::string& ending_note, int ending_status,
                 const std::optional<CutShort>& cut = std::nullopt) {
  std::vector<CheckResult> judged_before;
  bool early_judged = false;
  {
    std::lock_guard<std::mutex> lock(ending.early_mutex);
    early_judged = ending.early_judged;
    judged_before = std::move(ending.early_cases);  // one caller only: it claimed the run's end
  }
  return JudgeGathered(scope, early_judged ? late : scope.suites, std::move(judged_before), taken, ending_note,
                       ending_status, cut);
}

// Suites judged from node probes alone (none of their probes is a collective measurement): a
// live run judges them as soon as the node probes are gathered, before the measurements run,
// so a run killed during the measurements still reports them.
bool NeedsNoMeasurement(const SuiteDefinition& suite) {
  for (const auto& spec : ProbesOf({&suite})) {
    if (spec.method == ProbeMethod::kCollective) return false;
  }
  return true;
}

// The report a run leaves if it is killed outright (SIGKILL past Slurm's KillWait, srun given
// SIGTERM, which kills its tasks at once, its node lost). Rank 0 writes it for the JUnit and
// JSON files asked for: once the ranks are known, and again with the suites judged from the
// node probes before the measurements start. Every case not judged yet is an error
// "run-incomplete"; the run's final report replaces the file (each write is atomic). A reader
// tells it by complete=false.
void WriteProvisionalReports(const RunScope& scope, const std::vector<std::string>& hosts,
                             std::vector<CheckResult> judged, const std::vector<const SuiteDefinition*>& unjudged) {
  ReportSinks sinks;
  if (!scope.command.junit.empty()) sinks.push_back(JunitFileSink(scope.command.junit));
  if (!scope.command.json_out.empty()) sinks.push_back(ResultsJsonSink(scope.command.json_out));
  if (sinks.empty()) return;
  Run run;
  run.record = StartRecord(scope.started_utc, scope.profile.name, LocalHostname(), "live", scope.command.filter,
                           scope.options.slurm_job_id, hosts);
  run.record.ended_utc = UtcIso8601();
  run.record.incomplete = "the run started at " + scope.started_utc + " had judged " +
                          std::to_string(scope.suites.size() - unjudged.size()) + " of its " +
                          std::to_string(scope.suites.size()) +
                          " suites when this provisional report was written, and was killed before it could "
                          "replace it (SIGKILL past Slurm's KillWait, srun given SIGTERM, or its node lost)";
  run.record.exit_status = 137;
  const std::string why = "not judged: the run was killed before it judged this check (provisional report)";
  run.cases = std::move(judged);
  for (const auto* suite : unjudged) {
    for (const auto& check : suite->checks) {
      for (const auto& node : check.per_node ? hosts : std::vector<std::string>{""}) {
        run.cases.push_back(
            Errored(suite->name, check.name, node, "run-incomplete", (node.empty() ? "" : node + ": ") + why));
      }
    }
  }
  InSuiteOrder(run.cases, scope.suites);
  run.cases = SelectCases(std::move(run.cases), scope.filter);
  run.stated_properties = {{"nodes", Join(hosts, ",")}, {"filter", scope.command.filter}};
  for (const auto& sink : sinks) {
    if (auto written = sink->Write(run); !written) std::cerr << "gpuconform: " << written.error() << "\n";
  }
}

// The reports the command line asks for, in the order they are written.
ReportSinks ReportSinksFor(const CommandLine& command, const RunOptions& options) {
  ReportSinks sinks;
  if (!command.junit.empty()) sinks.push_back(JunitFileSink(command.junit));
  if (!command.junit_dir.empty()) sinks.push_back(JunitDirSink(command.junit_dir));
  if (!command.json_out.empty()) sinks.push_back(ResultsJsonSink(command.json_out));
  if (!command.prometheus_dir.empty()) sinks.push_back(PrometheusSink(command.prometheus_dir));
  if (!command.html.empty()) sinks.push_back(HtmlSink(command.html));
  if (!command.history.empty()) {
    sinks.push_back(HistorySink(command.history, std::chrono::seconds(options.history_lock_timeout_s)));
  }
  if (!command.summary_md.empty()) sinks.push_back(MarkdownSummarySink(command.summary_md));
  return sinks;
}

// The drain step (fleet/drain_step.h): a live run reads the controller's states now and may
// apply the plan; a snapshot run judges against the snapshot's scontrol output, as a dry run.
DrainRequest DrainRequestFor(const CommandLine& command, const Gathered& gathered) {
  DrainRequest request;
  request.plan_file = command.drain_plan;
  request.apply_drain = command.apply_drain;
  request.resume_passed = command.resume_passed;
  request.max_drain = command.max_drain;
  if (!command.snapshot.empty()) {
    request.states_from_controller = false;
    request.captured_states = gathered.raw.ClusterOutput("scontrol-show-node");
    request.why_dry_run =
        "--apply-drain and --resume-passed act on a live run only; a snapshot may be old. The plan below is a dry run";
  }
  return request;
}

// --baseline FILE: a results document, a baseline document, or history:FILE.sqlite[:last-pass].
Result<Baseline> LoadBaseline(const std::string& path, const RunOptions& options) {
  if (auto from_history = BaselineFromHistorySpec(path, std::chrono::seconds(options.history_lock_timeout_s))) {
    return std::move(*from_history);
  }
  auto text = ReadTextFile(path, "baseline (a results document from run --json, or gpuconform baseline --out)");
  if (!text) return Error{text.error()};
  return ParseBaseline(*text, path);
}
// Each node's link error counters in its previous run in the --history database, for the
// counter checks' rates. A history that cannot be read costs the rates, not the run: the
// history sink says the same when it cannot append.
CounterHistory PreviousCountersFor(const CommandLine& command, const RunOptions& options, const RunRecord& record) {
  if (command.history.empty()) return {};
  auto store = HistoryStore::Open(command.history, std::chrono::seconds(options.history_lock_timeout_s));
  auto previous = store ? (*store)->PreviousCounters(record.nodes, record.facts_read_utc)
                        : Result<CounterHistory>(Error{store.error()});
  if (!previous) {
    std::cerr << "gpuconform: " << previous.error() << "; link error counters are judged without their rates\n";
    return {};
  }
  return std::move(*previous);
}

// The raw outputs of a live gather as a snapshot directory, with the run's launch facts:
// the number of files written.
Result<int> WriteLiveSnapshot(const ClusterRaw& raw, const std::vector<RankInfo>& ranks,
                              const std::vector<ProbeSpec>& probes, const std::string& dir, const Profile& profile) {
  const std::map<std::string, std::string> manifest = {
      {"captured_at", UtcIso8601()}, {"captured_on", LocalHostname()}, {"gpuconform_version", kVersion},
      {"profile", profile.name}, {"nodes", Join(raw.nodes, ",")}};
  auto written = WriteSnapshot(raw, probes, dir, manifest);
  if (!written) return written;
  const std::string ranks_path = (std::filesystem::path(dir) / kLaunchRanksFile).string();
  if (auto saved = WriteFileAtomically(ranks_path, FormatLaunchRanks(ranks)); !saved) return Error{saved.error()};
  return *written + 1;
}

}  // namespace

int RunVerb(const CommandLine& command, const RunOptions& options, const World& world) {
  return RunVerbWith(command, options, world, "");
}

namespace {
// What every output a world that never formed could not take says.
constexpr char kNeverFormed[] = "the ranks never formed one world, so no measurement across nodes ran";
}  // namespace

std::optional<int> EndGatherPastDeadline(const std::string& problem) {
  RunEnding& ending = TheRunEnding();
  if (!ending.past_deadline) return std::nullopt;
  return ending.past_deadline(problem);
}

namespace {
// The run's profile with the command line's checkpoint options applied; nullopt (rank 0 says
// why) where it cannot be read.
std::optional<Profile> RunProfile(const CommandLine& command, const RunOptions& options, const World& world) {
  auto profile = LoadProfile(options.profile);
  if (!profile) {
    if (world.is_root()) std::cerr << "gpuconform: " << profile.error() << "\n";
    return std::nullopt;
  }
  ApplyCheckpointOptions(command, profile.value());
  return std::move(profile).value();
}
}  // namespace

void PrepareRunRendezvous(const World& unformed) {
  if (!unformed.is_root() || unformed.size() < 2) return;
  const std::string inbox = TheRunEnding().so_far.OpenInbox();
  if (inbox.empty()) return;
  if (auto published = unformed.PublishRendezvous(inbox); !published) {
    std::cerr << "gpuconform: " << published.error() << "; a rank that cannot meet the others cannot report\n";
  }
}

int RunVerbUnformed(const CommandLine& command, const RunOptions& options, const World& unformed,
                    const std::string& world_problem) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started_utc = UtcIso8601();
  auto profile = RunProfile(command, options, unformed);
  if (!profile) return 2;
  const std::string filter = FilterAlsoSelecting(command.filter, WorldFormedCase());
  const auto suites = SelectedSuites(filter);
  // Only what one node measures alone: a measurement across nodes needs the world.
  std::vector<ProbeSpec> alone;
  for (const auto& spec : ProbesOf(suites)) {
    if (spec.method != ProbeMethod::kCollective) alone.push_back(spec);
  }
  const std::string host = LocalHostname();
  std::string inbox;
  if (!unformed.is_root()) {
    // Where rank 0 listens, from its PMIx server, before the probes: without it nothing can be sent.
    auto fetched = unformed.RendezvousOfRoot(10);
    if (!fetched || fetched->empty()) {
      std::cerr << "gpuconform: " << host << ": cannot reach rank 0 to report this node: "
                << (fetched ? "it published no inbox" : fetched.error()) << "\n";
      return 3;
    }
    inbox = *fetched;
  }
  LiveSource live(host, &*profile, options);
  const World single = World::Single();
  GatheredRun own = GatherLive(single, live, alone, [](const std::string&) {}, &*profile);
  if (!unformed.is_root()) {
    auto sent = GatherProgress::SendToInbox(inbox, unformed.rank(), host, own.raw, options, std::chrono::seconds(20));
    if (!sent) std::cerr << "gpuconform: " << sent.error() << "\n";
    return 3;
  }
  // Rank 0: every part that arrives while the other ranks take their own probes.
  GatherProgress& so_far = TheRunEnding().so_far;
  so_far.Start(0, unformed.size(), {host}, "", ProbesOf(suites), options);
  for (const auto& [id, out] : own.raw.node[host]) so_far.KeepNode(host, id, out);
  for (const auto& [id, out] : own.raw.cluster) so_far.KeepCluster(id, out);
  GatheredRun all = so_far.CollectWhatWeHave(std::chrono::seconds(15), kNeverFormed);
  // The nodes of the step that never sent: named, with what is known of why.
  std::vector<std::string> never_joined;
  for (const auto& [name, value] : options.launch_environment) {
    if (name != "SLURM_STEP_NODELIST") continue;
    if (auto step_nodes = slurm::ExpandHostlist(value)) {
      for (const auto& node : *step_nodes) {
        if (!std::binary_search(all.raw.nodes.begin(), all.raw.nodes.end(), node)) never_joined.push_back(node);
      }
    }
  }
  std::string problem = world_problem;
  if (!never_joined.empty()) {
    problem = ShortHostlist(never_joined) + ": its gpuconform never joined the other ranks (" + world_problem +
              "). The task did not start, or died or hung before the ranks met: srun's error for the task says "
              "why (`gpuconform launch` reads it, names the cause and reruns the step without the node). The "
              "other " + std::to_string(all.raw.nodes.size()) + " node(s) were judged from their own probes; no "
              "measurement across nodes ran";
  }
  const RunScope scope{command, options, unformed, *profile, suites, filter, start, started_utc, problem};
  Gathered taken{std::move(all.raw), std::move(all.ranks), "live", {}};
  return JudgeGathered(scope, suites, {}, taken, "", 0, CutShort{kNeverFormed, "world-not-formed", kNeverFormed});
}

int RunVerbAlone(const CommandLine& command, const RunOptions& options, const std::string& world_problem) {
  return RunVerbWith(command, options, World::Single(), world_problem);
}

namespace {

int RunVerbWith(const CommandLine& command, const RunOptions& options, const World& world,
                const std::string& world_problem) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started_utc = UtcIso8601();
  auto profile = RunProfile(command, options, world);
  if (!profile) return 2;
  // A run given up on says why in Launch.WorldFormed, whatever the filter: without it the
  // report would show only rank 0's own checks, passing.
  const std::string filter =
      world_problem.empty() ? command.filter : FilterAlsoSelecting(command.filter, WorldFormedCase());
  const auto suites = SelectedSuites(filter);
  const RunScope scope{command, options, world, *profile, suites, filter, start, started_utc, world_problem};
  if (!command.snapshot.empty() || !world_problem.empty()) {
    auto gathered = GatherRaw(command, options, world, ProbesOf(suites), *profile, nullptr);
    if (!gathered) {
      if (world.is_root()) std::cerr << "gpuconform: " << gathered.error() << "\n";
      return 2;
    }
    if (!world.is_root()) return 0;
    Gathered taken = std::move(gathered).value();
    return JudgeGathered(scope, suites, {}, taken, "", 0);
  }

  // A live run. The suites that need no measurement are judged from a first gather of the node
  // probes, before the measurements run (not with --keep-snapshot, whose snapshot holds every
  // output of one gather); the others from the last gather.
  std::vector<const SuiteDefinition*> early;
  std::vector<const SuiteDefinition*> late;
  for (const auto* suite : suites) {
    (command.keep_snapshot.empty() && NeedsNoMeasurement(*suite) ? early : late).push_back(suite);
  }
  RunEnding& ending = TheRunEnding();
  GatherProgress& so_far = ending.so_far;
  for (const auto& spec : ProbesOf(early)) so_far.early_probe_ids.insert(spec.id);
  for (const auto& spec : ProbesOf(late)) so_far.final_probe_ids.insert(spec.id);
  so_far.on_hosts_known = [&scope, &suites](const std::vector<std::string>& hosts) {
    WriteProvisionalReports(scope, hosts, {}, suites);
  };
  so_far.on_early_gathered = [&scope, &early, &late, &ending](GatheredRun first) {
    ending.early_judge = std::thread([&scope, &early, &late, &ending, first = std::move(first)]() mutable {
      Gathered taken{std::move(first.raw), std::move(first.ranks), "live", {}};
      std::vector<CheckResult> judged = EvaluateGathered(scope, early, taken);
      std::lock_guard<std::mutex> lock(ending.early_mutex);
      // A run being terminated writes its own report: this one must not replace it.
      if (ending.phase.load() == RunEnding::kTerminating) return;
      WriteProvisionalReports(scope, taken.raw.nodes, judged, late);
      ending.early_cases = std::move(judged);
      ending.early_judged = true;
    });
  };
  // A signal (or the run's deadline) while the probes run: stop them, and rank 0 judges what
  // the ranks took so far and writes every report, within a few seconds (termination.h).
  OnTermination([&scope, &late, &ending](const TerminationNotice& notice) {
    const World& world = scope.world;
    // Within Slurm's KillWait (30 s by default, 5 s on small test clusters): the measurements
    // in flight are told to stop at once, the reports come next, the leftovers are killed last.
    if (world.is_root()) std::cerr << "gpuconform: " << notice.Describe() << "; ending the run" << std::endl;
    TerminateChildGroups();
    if (!world.is_root()) {
      ending.so_far.SendWhatWeHave(std::chrono::seconds(3));
      StopChildGroups(std::chrono::milliseconds(1000));
      ProbesParked(std::chrono::milliseconds(1500));  // a probe writing into a run directory stops first
      RemoveRunDirectories();
      std::_Exit(notice.ExitStatus());
    }
    if (ending.Claim(RunEnding::kTerminating)) {
      GatheredRun partial = ending.so_far.CollectWhatWeHave(std::chrono::seconds(3), notice.Describe());
      Gathered taken{std::move(partial.raw), std::move(partial.ranks), "live", {}};
      const int status = JudgeTheRest(ending, scope, late, taken, notice.Describe(), notice.ExitStatus(),
                                      CutShort{kTerminatedMarker, "run-terminated", notice.Describe()});
      std::cout.flush();
      StopChildGroups(std::chrono::milliseconds(1000));
      ProbesParked(std::chrono::milliseconds(1500));  // a probe writing into a run directory stops first
      RemoveRunDirectories();
      std::_Exit(status);
    }
    // The gather had ended: the main thread is judging, which takes seconds; let it finish.
    for (int waited_ms = 0; !ending.reported.load() && waited_ms < 8000; waited_ms += 50) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::cout.flush();
    std::_Exit(ending.reported.load() ? ending.status.load() : notice.ExitStatus());
  });
  // A collective of the gather passed its deadline (EndGatherPastDeadline): a rank was killed or
  // stopped, or its node lost. The ranks that still answer end the run as a terminated one does,
  // and the report names each node that sent nothing.
  ending.past_deadline = [&scope, &late, &ending](const std::string& problem) -> std::optional<int> {
    if (!scope.world.is_root()) {
      ending.so_far.SendWhatWeHave(std::chrono::seconds(3));
      return 3;
    }
    if (!ending.Claim(RunEnding::kTerminating)) return std::nullopt;  // the gather had ended
    TerminateChildGroups();
    // Longer than a signal's: the other ranks' deadlines pass a little after this one's.
    GatheredRun partial = ending.so_far.CollectWhatWeHave(std::chrono::seconds(5), problem);
    const std::vector<std::string> silent = NodesThatSentNothing(partial);
    const std::string note =
        silent.empty() ? problem
                       : ShortHostlist(silent) + ": its gpuconform stopped answering during the measurements and sent "
                         "nothing to rank 0 (" + problem + "): it was killed or stopped, or its node was lost. The "
                         "other " + std::to_string(partial.raw.nodes.size() - silent.size()) +
                         " node(s) were judged from what they took";
    std::cerr << "gpuconform: " << note << std::endl;
    Gathered taken{std::move(partial.raw), std::move(partial.ranks), "live", {}};
    const int status = JudgeTheRest(ending, scope, late, taken, note, 3, CutShort{problem, "world-stalled", note});
    std::cout.flush();
    StopChildGroups(std::chrono::milliseconds(1000));
    ending.status = status;
    ending.reported = true;
    return status;
  };
  auto gathered = GatherRaw(command, options, world, ProbesOf(suites), *profile, &so_far);
  if (!ending.Claim(RunEnding::kJudging)) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the termination handler ends the process
  }
  if (!gathered) {
    if (world.is_root()) std::cerr << "gpuconform: " << gathered.error() << "\n";
    return 2;
  }
  if (!world.is_root()) return 0;  // rank 0 judges and reports; its exit status is the step's
  Gathered taken = std::move(gathered).value();
  if (ending.early_judge.joinable()) ending.early_judge.join();
  const int status = JudgeTheRest(ending, scope, late, taken, "", 0);
  ending.status = status;
  ending.reported = true;
  return status;
}

// The suites' cases from what was gathered: the facts each check reads, once.
std::vector<CheckResult> EvaluateGathered(const RunScope& scope, const std::vector<const SuiteDefinition*>& suites,
                                          const Gathered& gathered) {
  RunRecord record = StartRecord(scope.started_utc, scope.profile.name, LocalHostname(), gathered.mode,
                                 scope.command.filter, scope.options.slurm_job_id, gathered.raw.nodes);
  // A snapshot's counters were read when it was captured, not when it is replayed.
  if (const auto captured = gathered.manifest.find("captured_at"); captured != gathered.manifest.end()) {
    record.facts_read_utc = captured->second;
  }
  const CounterHistory counter_history = PreviousCountersFor(scope.command, scope.options, record);
  const SuiteContext context{gathered.raw,          scope.profile, gathered.ranks, scope.command.snapshot.empty(),
                             scope.world_problem, scope.options, counter_history};
  return EvaluateSuites(suites, context);
}

// Rank 0's last step: judges `to_evaluate` from what was gathered, with the cases judged before
// (the suites judged from the node probes), and writes every report. `ending_note` is empty for
// a run that gathered everything, else RunRecord::incomplete, and `ending_status` the exit
// status that says how it ended.
int JudgeGathered(const RunScope& scope, const std::vector<const SuiteDefinition*>& to_evaluate,
                  std::vector<CheckResult> judged_before, Gathered& gathered, const std::string& ending_note,
                  int ending_status, const std::optional<CutShort>& cut) {
  const CommandLine& command = scope.command;
  const RunOptions& options = scope.options;
  const World& world = scope.world;
  const Profile* profile = &scope.profile;
  // Kept before judging: evaluation releases each node's outputs once it is judged.
  if (!command.keep_snapshot.empty() && ending_note.empty()) {
    auto kept =
        WriteLiveSnapshot(gathered.raw, gathered.ranks, ProbesOf(scope.suites), command.keep_snapshot, *profile);
    if (!kept) {
      std::cerr << "gpuconform: " << kept.error() << "\n";
      return 2;
    }
    Progress(world, "kept the raw outputs as a snapshot: " + command.keep_snapshot + " (" + std::to_string(*kept) +
                        " files)");
  }
  Progress(world, "profile " + profile->name + ", " + std::to_string(gathered.raw.nodes.size()) + " node(s): " +
                      ShortHostlist(gathered.raw.nodes) + " (" + gathered.mode + ")");

  // Read before judging: a baseline that cannot be read costs the comparison, not the report,
  // which is written without it (exit 2, saying why).
  std::optional<Baseline> baseline;
  int problem_status = ending_status;
  if (!command.baseline.empty()) {
    if (auto loaded = LoadBaseline(command.baseline, options)) {
      baseline = std::move(*loaded);
    } else {
      std::cerr << "gpuconform: " << loaded.error() << "; the reports below have no baseline comparison\n";
      if (problem_status == 0) problem_status = 2;
    }
  }

  Run run;
  run.record = StartRecord(scope.started_utc, profile->name, LocalHostname(), gathered.mode, command.filter,
                           options.slurm_job_id, gathered.raw.nodes);
  run.record.snapshot_manifest = gathered.manifest;
  run.record.incomplete = ending_note;
  for (const auto& tag : command.tags) {
    const auto equals = tag.find('=');
    run.record.tags.emplace_back(tag.substr(0, equals), tag.substr(equals + 1));
  }
  if (baseline) {
    run.record.baseline_origin = baseline->origin;
    run.record.baseline_run_ids = baseline->run_ids;
  }

  // A terminated run: the suites whose outputs were cut short (read before evaluation releases them).
  const std::set<std::string> cut_suites =
      cut ? SuitesCutShort(to_evaluate, ProbesNotTaken(gathered.raw, cut->marker)) : std::set<std::string>{};
  // A run with a deadline: the probes it did not start for lack of time (gather.cc NoTimeFor).
  const CutShort no_time{kNoTimeMarker, "run-terminated", "the run's own deadline left no time for it"};
  const std::set<std::string> no_time_suites =
      TerminationTime() ? SuitesCutShort(to_evaluate, ProbesNotTaken(gathered.raw, no_time.marker))
                        : std::set<std::string>{};
  JudgementSteps steps;
  // Select: the filter, once; the capture's profile noted on the cases a replay could not
  // judge; and nodes the controller lists but the run had no task on, not covered rather than
  // errors.
  steps.select = [&](Run& judged) {
    judged.cases = SelectCases(std::move(judged.cases), scope.filter);
    if (cut) MarkCutCases(judged.cases, cut_suites, *cut);
    if (TerminationTime()) MarkCutCases(judged.cases, no_time_suites, no_time);
    if (judged.cases.empty()) {
      std::cerr << "gpuconform: the filter '" << command.filter << "' selects no check; see `gpuconform list`\n";
    }
    if (const auto captured_under = gathered.manifest.find("profile"); captured_under != gathered.manifest.end()) {
      NoteCaptureProfile(judged.cases, profile->name, captured_under->second);
    }
    CoverageSplit covered = SplitByCoverage(std::move(judged.cases), gathered.raw.nodes, command.require_all_nodes);
    judged.cases = std::move(covered.results);
    judged.record.not_covered = std::move(covered.coverage.not_covered);
  };
  if (baseline) {
    steps.compare = [&](Run& judged) {
      judged.cases = CompareWithBaseline(std::move(judged.cases), *baseline, profile->GetOrDefault<RegressionTolerance>());
      Progress(world, "compared with the baseline " + command.baseline + " (" +
                          std::to_string(baseline->metrics.size()) + " metrics, " +
                          std::to_string(baseline->run_ids.size()) + " run(s))");
    };
  }
  if (const DrainRequest drain = DrainRequestFor(command, gathered); WantsDrainStep(drain)) {
    steps.act = [&, drain](Run& judged) { return DecideDrains(drain, gathered.raw.nodes, judged.cases, judged.record); };
  }

  run.stated_properties = {{"nodes", Join(gathered.raw.nodes, ",")}, {"world", world.Describe()},
                          {"filter", command.filter}};
  if (baseline) run.stated_properties.push_back({"baseline", baseline->origin});
  if (const auto captured = gathered.manifest.find("captured_at"); captured != gathered.manifest.end()) {
    run.record.facts_read_utc = captured->second;
  }
  std::vector<CheckResult> evaluated = EvaluateGathered(scope, to_evaluate, gathered);
  if (!judged_before.empty()) {
    evaluated.insert(evaluated.end(), std::make_move_iterator(judged_before.begin()),
                     std::make_move_iterator(judged_before.end()));
    InSuiteOrder(evaluated, scope.suites);
  }
  run.stated_properties.push_back(
      {"elapsed_s",
       std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - scope.start).count())});
  const auto terminal = TerminalSink(std::cout, {UseColor(options), command.quiet}, command.require_all_nodes);
  return JudgeAndReport(std::move(evaluated), steps, std::move(run), *terminal, ReportSinksFor(command, options),
                        problem_status);
}

}  // namespace

int CaptureVerb(const CommandLine& command, const RunOptions& options, const World& world) {
  auto profile = LoadProfile(options.profile);
  if (!profile) {
    if (world.is_root()) std::cerr << "gpuconform: " << profile.error() << "\n";
    return 2;
  }
  ApplyCheckpointOptions(command, profile.value());
  const auto probes = SuiteRegistry::Instance().AllProbes();
  const std::string host = LocalHostname();
  LiveSource live(host, &*profile, options);
  GatheredRun run =
      GatherLive(world, live, probes, [&](const std::string& line) { Progress(world, line); }, &*profile);
  if (!world.is_root()) return 0;
  auto written = WriteLiveSnapshot(run.raw, run.ranks, probes, command.out, *profile);
  if (!written) {
    std::cerr << "gpuconform: " << written.error() << "\n";
    return 2;
  }
  std::cout << "snapshot: " << command.out << " (" << *written << " files from " << run.raw.nodes.size()
            << " node(s)); judge it with: gpuconform run --snapshot " << command.out << " --profile NAME\n";
  return 0;
}

int ListVerb() {
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    std::cout << suite->name << " — " << suite->summary << "\n";
    for (const auto& check : suite->checks) {
      std::cout << "  " << suite->name << "." << check.name << (check.per_node ? "/<node>" : "") << "\n      "
                << check.requirement << "\n";
    }
  }
  return 0;
}

int ProfilesVerb() {
  for (const auto& builtin : BuiltinProfiles()) {
    auto profile = ParseProfile(builtin.yaml, builtin.file);
    std::cout << builtin.name << "\t" << (profile ? profile->description : "INVALID: " + profile.error()) << "\n";
  }
  std::cout << "Use one with --profile NAME, or pass --profile FILE for your own (copy one of "
               "share/gpuconform/profiles/*.yaml where installed, topologies/*.yaml in the source, as a start).\n";
  return 0;
}

}  // namespace gpuconform
