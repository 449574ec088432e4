#include "harness/run_command.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>


#include "baseline/regression.h"
#include "fleet/drain_step.h"
#include "harness/atomic_file.h"
#include "harness/gather.h"
#include "harness/gtest_glue.h"
#include "harness/hostlist.h"
#include "harness/launch_ranks_file.h"
#include "harness/live_source.h"
#include "harness/node_coverage.h"
#include "harness/profile.h"
#include "harness/read_file.h"
#include "harness/snapshot_gaps.h"
#include "harness/snapshot_source.h"
#include "harness/suite_registry.h"
#include "harness/terminal_printer.h"
#include "harness/text_util.h"
#include "harness/timestamp.h"
#include "history/history_store.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_writer.h"
#include "reports/markdown_summary.h"
#include "reports/prometheus_textfile.h"

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

// A report written says where; one that could not be written says why, and the run exits 2.
template <typename T>
void Announce(const Result<T>& written, const std::string& where, int& status) {
  if (written) {
    std::cout << where << "\n";
  } else {
    std::cerr << "gpuconform: " << written.error() << "\n";
    status = 2;
  }
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
// The raw outputs of a live gather as a snapshot directory, with the run's launch facts:
// the number of files written.
Result<int> WriteLiveSnapshot(const ClusterRaw& raw, const std::vector<RankInfo>& ranks,
                              const std::vector<ProbeSpec>& probes, const std::string& dir, const Profile& profile) {
  const std::map<std::string, std::string> manifest = {
      {"captured_at", UtcIso8601()}, {"captured_on", LocalHostname()}, {"gpuconform_version", GPUCONFORM_VERSION},
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

  const SuiteContext context{gathered->raw, *profile, gathered->ranks, command.snapshot.empty(), world_problem, options};
  // The evaluated results move through the filter, never copied: at 10,000 nodes they are
  // some 300,000 cases.
  std::vector<CheckResult> ran = RunAsGtests(EvaluateSuites(suites, context), filter);
  if (const auto captured_under = gathered->manifest.find("profile"); captured_under != gathered->manifest.end()) {
    NoteCaptureProfile(ran, profile->name, captured_under->second);
  }
  if (ran.empty() && world.is_root()) {
    std::cerr << "gpuconform: the filter '" << command.filter << "' selects no check; see `gpuconform list`\n";
  }
  // Read once the run is over: a baseline that cannot be read costs the comparison, not the
  // report, which is written without it (exit 2, saying why).
  std::optional<Baseline> baseline;
  std::string baseline_problem;
  if (!command.baseline.empty()) {
    auto loaded = LoadBaseline(command.baseline, options);
    if (loaded) {
      baseline = std::move(*loaded);
      ran = CompareWithBaseline(std::move(ran), *baseline, profile->regression);
      Progress(world, "compared with the baseline " + command.baseline + " (" +
                          std::to_string(baseline->metrics.size()) + " metrics, " +
                          std::to_string(baseline->run_ids.size()) + " run(s))");
    } else {
      baseline_problem = loaded.error();
    }
  }

  // Nodes the controller lists but the run had no task on: not covered, rather than errors.
  CoverageSplit covered = SplitByCoverage(std::move(ran), gathered->raw.nodes, command.require_all_nodes);
  ran = std::move(covered.results);

  int status = ExitStatusFor(ran);
  if (!baseline_problem.empty()) {
    std::cerr << "gpuconform: " << baseline_problem << "; the reports below have no baseline comparison\n";
    status = 2;
  }
  if (world.is_root()) {
    const TerminalStyle style{UseColor(options), command.quiet};
    const auto capture_profile = gathered->manifest.find("profile");
    std::cout << RenderTerminalReport(ran, style)
              << RenderSnapshotGaps(ran, profile->name,
                                    capture_profile == gathered->manifest.end() ? "" : capture_profile->second, style)
              << RenderSummary(CountChecks(ran), style);
    if (const std::string line = CoverageLine(covered.coverage, command.require_all_nodes); !line.empty()) {
      std::cout << line << "\n";
    }
    ReportMeta meta{LocalHostname(), UtcIso8601(), profile->name, GPUCONFORM_VERSION, gathered->mode, {}};
    meta.properties.push_back({"nodes", Join(gathered->raw.nodes, ",")});
    meta.properties.push_back({"world", world.Describe()});
    meta.properties.push_back({"filter", command.filter});
    if (baseline) meta.properties.push_back({"baseline", baseline->origin});
    meta.properties.push_back(
        {"elapsed_s", std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())});
    if (!command.junit.empty()) {
      Announce(WriteJunitFile(command.junit, ran, meta), "JUnit report: " + command.junit, status);
    }
    if (!command.junit_dir.empty()) {
      Announce(WriteJunitDir(command.junit_dir, ran, meta), "JUnit reports (one per suite): " + command.junit_dir,
               status);
    }
    RunRecord record{.run_id = NewRunId(),
                     .started_utc = started_utc,
                     .ended_utc = UtcIso8601(),
                     .gpuconform_version = GPUCONFORM_VERSION,
                     .profile = profile->name,
                     .hostname = meta.hostname,
                     .mode = gathered->mode,
                     .filter = command.filter,
                     .slurm_job_id = options.slurm_job_id,
                     .nodes = gathered->raw.nodes,
                     .snapshot_manifest = gathered->manifest,
                     .tags = {},
                     .exit_status = status,
                     .baseline_origin = std::nullopt,
                     .baseline_run_ids = {},
                     .not_covered = {},
                     .node_actions = {}};
    for (const auto& tag : command.tags) {
      const auto equals = tag.find('=');
      record.tags.emplace_back(tag.substr(0, equals), tag.substr(equals + 1));
    }
    record.not_covered = covered.coverage.not_covered;
    if (const DrainRequest drain = DrainRequestFor(command, *gathered); WantsDrainStep(drain)) {
      if (!DecideDrains(drain, gathered->raw.nodes, ran, record)) status = 2;
      record.exit_status = status;
    }
    if (baseline) {
      record.baseline_origin = baseline->origin;
      record.baseline_run_ids = baseline->run_ids;
    }
    if (!command.json_out.empty()) {
      Announce(WriteResultsJson(command.json_out, ran, record), "Results (JSON): " + command.json_out, status);
    }
    if (!command.prometheus_dir.empty()) {
      Announce(WritePrometheusTextfile(command.prometheus_dir, record, ran),
               "Prometheus textfile: " + command.prometheus_dir + "/" + kPrometheusTextfileName, status);
    }
    if (!command.html.empty()) {
      Announce(WriteHtmlReport(command.html, record, ran, {}), "HTML report: " + command.html, status);
    }
    if (!command.history.empty()) {
      auto store = HistoryStore::Open(command.history, std::chrono::seconds(options.history_lock_timeout_s));
      Result<bool> appended = store ? (*store)->AppendRun(record, ran) : Result<bool>(Error{store.error()});
      Announce(appended, "History: " + command.history + " (run " + record.run_id + " appended)", status);
    }
    if (!command.summary_md.empty()) {
      const auto manifest_profile = gathered->manifest.find("profile");
      const SummaryHeading heading{profile->name, gathered->mode, static_cast<int>(gathered->raw.nodes.size()), status,
                                   manifest_profile == gathered->manifest.end() ? "" : manifest_profile->second};
      Announce(WriteFileAtomically(command.summary_md, RenderMarkdownSummary(ran, heading)),
               "Summary (Markdown): " + command.summary_md, status);
    }
  }
  return status;
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
               "topologies/*.yaml as a start).\n";
  return 0;
}

}  // namespace gpuconform
