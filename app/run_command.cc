#include "app/run_command.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "app/judge_pipeline.h"
#include "app/terminal_printer.h"
#include "baseline/regression.h"
#include "fleet/drain_step.h"
#include "harness/atomic_file.h"
#include "harness/case_filter.h"
#include "harness/gather.h"
#include "harness/hostlist.h"
#include "harness/launch_ranks_file.h"
#include "harness/live_source.h"
#include "harness/node_coverage.h"
#include "harness/profile.h"
#include "harness/read_file.h"
#include "harness/snapshot_gaps.h"
#include "harness/snapshot_source.h"
#include "harness/suite_registry.h"
#include "harness/text_util.h"
#include "harness/timestamp.h"
#include "harness/version.h"
#include "history/history_store.h"
#include "reports/json_report.h"
#include "reports/report_sinks.h"

namespace gpuconform {

namespace {

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
  if (!profile.checkpoint) profile.checkpoint = CheckpointExpectation{};
  if (!command.checkpoint_dir.empty()) profile.checkpoint->dir = command.checkpoint_dir;
  if (!command.checkpoint_temp_dir.empty()) profile.checkpoint->temp_dir = command.checkpoint_temp_dir;
}

// Every rank gathers; rank 0 ends up with the raw outputs of all.
struct Gathered {
  ClusterRaw raw;
  std::vector<RankInfo> ranks;
  std::string mode;
  std::map<std::string, std::string> manifest;  // a snapshot's manifest.yaml
};

Result<Gathered> GatherRaw(const CommandLine& command, const RunOptions& options, const World& world,
                           const std::vector<ProbeSpec>& probes, const Profile& profile) {
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
      GatherLive(world, live, probes, [&](const std::string& line) { Progress(world, line); }, &profile);
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

int RunVerbAlone(const CommandLine& command, const RunOptions& options, const std::string& world_problem) {
  return RunVerbWith(command, options, World::Single(), world_problem);
}

namespace {

int RunVerbWith(const CommandLine& command, const RunOptions& options, const World& world,
                const std::string& world_problem) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started_utc = UtcIso8601();
  auto profile = LoadProfile(options.profile);
  if (!profile) {
    if (world.is_root()) std::cerr << "gpuconform: " << profile.error() << "\n";
    return 2;
  }
  ApplyCheckpointOptions(command, profile.value());
  // A run given up on says why in Launch.WorldFormed, whatever the filter: without it the
  // report would show only rank 0's own checks, passing.
  const std::string filter =
      world_problem.empty() ? command.filter : FilterAlsoSelecting(command.filter, "Launch.WorldFormed");
  const auto suites = SelectedSuites(filter);
  auto gathered = GatherRaw(command, options, world, ProbesOf(suites), *profile);
  if (!gathered) {
    if (world.is_root()) std::cerr << "gpuconform: " << gathered.error() << "\n";
    return 2;
  }
  if (!world.is_root()) return 0;  // rank 0 judges and reports; its exit status is the step's
  // Kept before judging: evaluation releases each node's outputs once it is judged.
  if (!command.keep_snapshot.empty()) {
    auto kept = WriteLiveSnapshot(gathered->raw, gathered->ranks, ProbesOf(suites), command.keep_snapshot, *profile);
    if (!kept) {
      std::cerr << "gpuconform: " << kept.error() << "\n";
      return 2;
    }
    Progress(world, "kept the raw outputs as a snapshot: " + command.keep_snapshot + " (" + std::to_string(*kept) +
                        " files)");
  }
  Progress(world, "profile " + profile->name + ", " + std::to_string(gathered->raw.nodes.size()) + " node(s): " +
                      ShortHostlist(gathered->raw.nodes) + " (" + gathered->mode + ")");

  // Read before judging: a baseline that cannot be read costs the comparison, not the report,
  // which is written without it (exit 2, saying why).
  std::optional<Baseline> baseline;
  int problem_status = 0;
  if (!command.baseline.empty()) {
    if (auto loaded = LoadBaseline(command.baseline, options)) {
      baseline = std::move(*loaded);
    } else {
      std::cerr << "gpuconform: " << loaded.error() << "; the reports below have no baseline comparison\n";
      problem_status = 2;
    }
  }

  Run run;
  run.record = StartRecord(started_utc, profile->name, LocalHostname(), gathered->mode, command.filter,
                           options.slurm_job_id, gathered->raw.nodes);
  run.record.snapshot_manifest = gathered->manifest;
  for (const auto& tag : command.tags) {
    const auto equals = tag.find('=');
    run.record.tags.emplace_back(tag.substr(0, equals), tag.substr(equals + 1));
  }
  if (baseline) {
    run.record.baseline_origin = baseline->origin;
    run.record.baseline_run_ids = baseline->run_ids;
  }

  JudgementSteps steps;
  // Select: the filter, once; the capture's profile noted on the cases a replay could not
  // judge; and nodes the controller lists but the run had no task on, not covered rather than
  // errors.
  steps.select = [&](Run& judged) {
    judged.cases = SelectCases(std::move(judged.cases), filter);
    if (judged.cases.empty()) {
      std::cerr << "gpuconform: the filter '" << command.filter << "' selects no check; see `gpuconform list`\n";
    }
    if (const auto captured_under = gathered->manifest.find("profile"); captured_under != gathered->manifest.end()) {
      NoteCaptureProfile(judged.cases, profile->name, captured_under->second);
    }
    CoverageSplit covered = SplitByCoverage(std::move(judged.cases), gathered->raw.nodes, command.require_all_nodes);
    judged.cases = std::move(covered.results);
    judged.record.not_covered = std::move(covered.coverage.not_covered);
  };
  if (baseline) {
    steps.compare = [&](Run& judged) {
      judged.cases = CompareWithBaseline(std::move(judged.cases), *baseline, profile->regression);
      Progress(world, "compared with the baseline " + command.baseline + " (" +
                          std::to_string(baseline->metrics.size()) + " metrics, " +
                          std::to_string(baseline->run_ids.size()) + " run(s))");
    };
  }
  if (const DrainRequest drain = DrainRequestFor(command, *gathered); WantsDrainStep(drain)) {
    steps.act = [&, drain](Run& judged) {
      return DecideDrains(drain, gathered->raw.nodes, judged.cases, judged.record);
    };
  }

  run.junit_properties = {{"nodes", Join(gathered->raw.nodes, ",")}, {"world", world.Describe()},
                          {"filter", command.filter}};
  if (baseline) run.junit_properties.push_back({"baseline", baseline->origin});

  // A snapshot's counters were read when it was captured, not when it is replayed.
  if (const auto captured = gathered->manifest.find("captured_at"); captured != gathered->manifest.end()) {
    run.record.facts_read_utc = captured->second;
  }
  const CounterHistory counter_history = PreviousCountersFor(command, options, run.record);
  const SuiteContext context{gathered->raw, *profile, gathered->ranks, command.snapshot.empty(), world_problem, options,
                             counter_history};
  std::vector<CheckResult> evaluated = EvaluateSuites(suites, context);
  run.junit_properties.push_back(
      {"elapsed_s", std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())});
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
