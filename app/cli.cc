#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "app/completion_words.h"
#include "app/health_check_verb.h"
#include "fleet/drain_plan.h"
#include "harness/util/version.h"

namespace gpuconform {

namespace {

constexpr char kDescription[] =
    "gpuconform — conformance tests for multi-node GPU clusters.\n"
    "Asserts cluster properties (NVSwitch connectivity, NCCL transport, Slurm GRES, MUNGE keys,\n"
    "allreduce bandwidth, software versions, ...) and writes JUnit reports for CI.\n\n"
    "Run it on every node of an allocation, one task per node:\n"
    "  srun --ntasks-per-node=1 gpuconform run --profile h100-sxm-8 --junit report.xml\n"
    "or let it start that step, and rerun without nodes whose task cannot start:\n"
    "  gpuconform launch -N4 -- --profile h100-sxm-8 --junit report.xml\n"
    "or offline, from a snapshot of raw command outputs captured on a cluster:\n"
    "  gpuconform run --snapshot snap/ --profile h100-sxm-8\n\n"
    "Exit status: 0 all evaluated checks conform, 1 non-conformance found,\n"
    "4 conforms but a metric is worse than the baseline (--baseline), 3 no non-conformance\n"
    "but some check could not be evaluated, 2 bad invocation or input. When several apply:\n"
    "2, then 1, then 4, then 3.";

constexpr char kRunFooter[] =
    "Examples:\n"
    "  gpuconform run --profile local                      live, this node only\n"
    "  srun -N4 --ntasks-per-node=1 gpuconform run --junit r.xml   every node of the allocation\n"
    "  gpuconform run --snapshot snap/ --filter 'Software.*:Munge.*'   two suites, offline\n"
    "  gpuconform run --filter 'SlurmGres.GresMatchesHardware'        a check on every node\n"
    "  gpuconform run --filter '*-Software.*'              all but one suite\n"
    "Filters use GoogleTest syntax over Suite.Check; per-node cases are Suite.Check/<node>.";

void AddCheckpointOptions(CLI::App& verb, CommandLine& command);

void AddReportOptions(CLI::App& verb, CommandLine& command) {
  verb.add_option("--profile", command.profile,
                  "built-in profile NAME (see `gpuconform profiles`) or a YAML FILE; default: $GPUCONFORM_PROFILE, else " +
                      std::string(kDefaultProfile));
  verb.add_option("--filter", command.filter, "GoogleTest filter over Suite.Check, e.g. 'Munge.*:SlurmGres.*'");
  AddCheckpointOptions(verb, command);
}

void AddCheckpointOptions(CLI::App& verb, CommandLine& command) {
  verb.add_option("--checkpoint-dir", command.checkpoint_dir,
                  "Checkpoint suite: a directory on the shared storage the training jobs write to; the suite works "
                  "only in its own run directory there and removes it (default: $GPUCONFORM_CHECKPOINT_DIR, the "
                  "profile's checkpoint.dir, else $SLURM_SUBMIT_DIR/checkpoints)");
  verb.add_option("--checkpoint-temp-dir", command.checkpoint_temp_dir,
                  "Checkpoint suite: where the jobs write temporary files before renaming them into place "
                  "(default: the checkpoint directory itself); a different filesystem is reported (EXDEV)");
}

// What `gpuconform` alone prints: a few lines, not the whole help (which --help gives).
std::string ShortUsage(const CLI::App& app) {
  std::string verbs;
  for (const std::string& verb : VisibleVerbs(app)) verbs += (verbs.empty() ? "" : ", ") + verb;
  return "Usage: gpuconform VERB [OPTIONS]\n"
         "Verbs: " + verbs + "\n"
         "Example: gpuconform run --snapshot snap/ --profile h100-sxm-8\n"
         "Run `gpuconform --help` for the whole help, `gpuconform VERB --help` for a verb's.\n";
}

}  // namespace

ParsedCommandLine ParseCommandLine(const std::vector<std::string>& args) {
  CommandLine command;
  CLI::App app(kDescription, "gpuconform");
  app.require_subcommand(1);
  app.footer("Verbs have their own --help, e.g. `gpuconform run --help`.");
  app.set_version_flag("--version", std::string("gpuconform ") + kVersion, "print the gpuconform version and exit");

  CLI::App* run = app.add_subcommand("run", "evaluate the suites live on this node (every node under srun/mpirun) or from --snapshot");
  AddReportOptions(*run, command);
  run->add_option("--snapshot", command.snapshot, "judge a snapshot directory (layout v1) instead of probing live")
      ->check(CLI::ExistingDirectory);
  run->add_option("--deadline", command.deadline,
                  "end the run with its reports by then, a duration from its start: 600, 90s, 45m, 2h, 1h30m. "
                  "Inside a job whose end time Slurm states (SLURM_JOB_END_TIME) the sooner of the two counts. "
                  "At the deadline (15 s before it, to write the reports) the measurements still running are "
                  "stopped and their checks are errors `run-terminated`; the checks judged stand (exit 124)")
      ->check([](const std::string& text) {
        return ParseDeadlineSeconds(text) ? "" : "--deadline wants a duration such as 600, 90s, 45m, 2h or 1h30m";
      });
  run->add_option("--keep-snapshot", command.keep_snapshot,
                  "also write the raw outputs this live run judged as a snapshot directory (rank 0), the evidence "
                  "behind its verdicts: `run --snapshot DIR` gives the same verdicts anywhere")
      ->excludes("--snapshot");
  run->add_option("--junit", command.junit, "write a JUnit XML report to FILE (rank 0 only)");
  run->add_option("--junit-dir", command.junit_dir, "also write one Surefire-style TEST-<suite>.xml per suite to DIR");
  run->add_option("--json", command.json_out,
                  "write the results document to FILE (rank 0 only): run metadata, and per check and node the "
                  "verdict, reason codes and metrics; schemas/results.schema.json describes it");
  run->add_option(
      "--summary-md", command.summary_md,
      "write a short Markdown summary to FILE for CI job pages, e.g. --summary-md \"$GITHUB_STEP_SUMMARY\"");
  run->add_option("--html", command.html,
                  "write a self-contained HTML report to FILE (rank 0 only): heatmap, distributions, busbw curves, "
                  "changes against the baseline, version drift, every finding with its next step");
  run->add_option("--prometheus-dir", command.prometheus_dir,
                  "write gpuconform.prom there (rank 0; atomically) for node_exporter's textfile collector: each "
                  "check's success per node, verdict counts, measured bandwidths (bytes/s) and times (s), last run "
                  "and last success timestamps");
  run->add_option("--baseline", command.baseline,
                  "compare every metric with a reference run: a results document (--json of an earlier run), a "
                  "baseline (gpuconform baseline), or history:FILE.sqlite[:last-pass] (the newest run there, or the "
                  "newest that conformed); a metric worse by more than the profile's tolerance is a regression "
                  "(exit 4 when nothing fails)");
  run->add_option("--history", command.history,
                  "append the run to this SQLite database (created when absent; rank 0 writes; a writer waits for "
                  "another's lock, see GPUCONFORM_HISTORY_LOCK_TIMEOUT_S); read it with gpuconform history");
  run->add_option("--tag", command.tags,
                  "KEY=VALUE recorded in the results document, e.g. --tag image=ngc-24.05 (repeatable)")
      ->check([](const std::string& tag) {
        const auto equals = tag.find('=');
        return equals == std::string::npos || equals == 0 ? "a tag is KEY=VALUE, e.g. image=ngc-24.05" : "";
      });
  run->add_option("--drain-plan", command.drain_plan,
                  "write the drain plan to FILE (JSON; dry run unless --apply-drain): each node with a hardware or "
                  "configuration failure, the Slurm reason it gets, and what the guards decided; exclude.hostlist "
                  "beside FILE holds those nodes for srun --exclude")
      ->group("Fleet actions (Slurm)");
  run->add_flag("--apply-drain", command.apply_drain,
                "scontrol update State=DRAIN the plan's nodes with Reason=\"gpuconform: <code>: <message> run=<id>\"; "
                "never for tooling errors or skips; a node out of service for another reason keeps it")
      ->group("Fleet actions (Slurm)");
  run->add_option("--max-drain", command.max_drain,
                  "drain at most N nodes, or P% of the judged nodes, in this run; the plan names those held back")
      ->check([](const std::string& text) {
        auto cap = ParseDrainCap(text);
        return cap ? "" : cap.error();
      })
      ->group("Fleet actions (Slurm)");
  run->add_flag("--resume-passed", command.resume_passed,
                "resume nodes whose drain reason starts with gpuconform: and that conform in this run")
      ->group("Fleet actions (Slurm)");
  run->add_flag("--require-all-nodes", command.require_all_nodes,
                "treat nodes the controller lists but the run had no task on as errors (acceptance runs), instead "
                "of reporting them as not covered");
  run->add_flag("-q,--quiet", command.quiet, "print only non-conforming checks, errors and the summary");
  run->add_option("--color", command.color, "colour the terminal report: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  run->add_flag("--launched", command.launched, "set by gpuconform launch")->group("");
  run->add_option("--launch-refused", command.launch_refused, "set by gpuconform launch: NODE=srun's error")
      ->group("");
  run->add_flag("--launch-no-task", command.launch_no_task, "set by gpuconform launch: Slurm started no task")
      ->group("");
  run->footer(kRunFooter);

  CLI::App* launch = app.add_subcommand(
      "launch", "start `gpuconform run` on the allocation's nodes with srun; rerun without nodes whose task cannot start");
  launch->add_option("-N,--nodes", command.launch_nodes,
                     "nodes for the step (default: every node of the allocation, $SLURM_JOB_NUM_NODES)");
  launch->add_option("-w,--nodelist", command.launch_nodelist, "srun --nodelist: these nodes");
  launch->add_option("-p,--partition", command.launch_partition, "srun --partition, outside an allocation");
  launch->add_option("--immediate-s", command.launch_immediate_s,
                     "srun --immediate: give up after S seconds when nodes are not free, rather than wait in the "
                     "queue")
      ->check(CLI::PositiveNumber);
  launch->add_option("--gpus-per-node", command.launch_gpus_per_node,
                     "GPUs per node to ask salloc and srun for: N, or none (0). Default: the run's profile's "
                     "slurm.gpus_per_node (the profile of --profile after --, else the default)")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            if (value == "none" || (!value.empty() && value.size() <= 4 &&
                                    value.find_first_not_of("0123456789") == std::string::npos)) {
              return "";
            }
            return "a GPU count (0-9999) or none, not '" + value + "'";
          },
          "N|none"));
  launch->add_option("run-options", command.run_args, "after --: the options of `gpuconform run`");
  launch->footer(
      "Run it where srun works: a login or head node (it takes the allocation with salloc --immediate -N),\n"
      "or inside sbatch or salloc. It starts one `gpuconform run` per node (srun --ntasks-per-node=1),\n"
      "with the profile's GPUs per node (srun --gpus-per-node; see --gpus-per-node).\n"
      "When Slurm cannot start the task on a node (its slurmd or munged does not answer), or the task\n"
      "ends before the ranks meet (gpuconform cannot start in that node's image: exit 127, a missing\n"
      "library, a crash), it ends the step and runs it again without that node, and the report fails\n"
      "Launch.TaskStarted/<node>, quoting srun's words. Exit status as `run`'s.\n"
      "Example:\n"
      "  gpuconform launch -N3 -- --profile local --junit report.xml");

  CLI::App* capture = app.add_subcommand(
      "capture", "record this node's (under srun: every node's) raw probe outputs as a snapshot directory");
  capture->add_option("--out", command.out, "snapshot directory to write (created; files are replaced)")->required();
  capture->add_option("--profile", command.profile,
                      "profile whose sizes and counts the active probes use (allreduce sweep, srun --gpus-per-node); "
                      "default: $GPUCONFORM_PROFILE, else " + std::string(kDefaultProfile));
  AddCheckpointOptions(*capture, command);
  capture->footer("Then judge it anywhere: gpuconform run --snapshot DIR --profile NAME");

  CLI::App* list = app.add_subcommand("list", "list the suites and their checks");
  CLI::App* profiles = app.add_subcommand("profiles", "list the built-in profiles");
  CLI::App* reasons = app.add_subcommand("reasons", "list every reason code a report can carry, with its meaning and next step");
  reasons->add_flag("--json", command.json,
                    "print a JSON array of objects with keys code, fault_class, meaning, next_step");
  reasons->footer(
      "Fault classes: hardware (RMA, reseat, recable), configuration (Slurm, MUNGE, NCCL, profile),\n"
      "tooling (a missing tool, a timeout, unreadable output: the fact could not be obtained).\n"
      "The code is the type= attribute of a JUnit <failure> or <error>.");
  CLI::App* explain = app.add_subcommand("explain", "explain one reason code: its fault class, meaning and next step");
  explain->add_option("code", command.reason_code, "the code, e.g. link-inactive (the type= of a JUnit <failure>)")
      ->required();
  explain->footer("Exit status 2 for a code the catalogue does not have; `gpuconform reasons` lists them all.");
  CLI::App* version = app.add_subcommand("version", "print the gpuconform version");
  // Hidden (no group): the bash completion script asks it for verbs, options, profiles, reasons.
  std::vector<std::string> completion_request;
  CLI::App* complete = app.add_subcommand("complete", "words for shell completion (app/completion_words.h)");
  complete->group("");
  complete->add_option("request", completion_request, "verbs | options VERB | profiles | reasons")->required();

  CLI::App* baseline = app.add_subcommand(
      "baseline", "write a baseline from one or more results documents: per metric, the median across nodes and runs");
  baseline->add_option("--from", command.baseline_from, "results documents (run --json FILE) to summarise")
      ->required()
      ->check(CLI::ExistingFile);
  baseline->add_option("--out", command.out, "the baseline document to write")->required();
  baseline->footer(
      "Each node keeps its own median across the runs; a node that is new in a later run is compared\n"
      "with the fleet median. Use it with: gpuconform run --baseline FILE ...\n"
      "Example, after three runs of the last good image:\n"
      "  gpuconform baseline --from good1.json good2.json good3.json --out baseline.json");

  CLI::App* diff = app.add_subcommand("diff", "what changed between two results documents: verdicts, metrics, nodes");
  diff->add_option("old", command.diff_old, "the earlier results document (run --json FILE)")
      ->required()
      ->check(CLI::ExistingFile);
  diff->add_option("new", command.diff_new, "the later one")->required()->check(CLI::ExistingFile);
  diff->add_option("--profile", command.profile,
                   "whose regression tolerances to use (default: the new run's profile, when it is built in)");
  diff->footer(
      "Exit status is the new run's, judged with the old one as its baseline: 1 when it has\n"
      "non-conforming checks, else 4 when a metric regressed, else 3 when a check errored, else 0.\n"
      "Example: gpuconform diff last-good.json candidate.json");

  CLI::App* report = app.add_subcommand("report", "render a results document as a self-contained HTML report");
  report
      ->add_option("input", command.report_input,
                   "a results document (run --json FILE), or a history database (run --history FILE): its newest "
                   "run, with each metric's trend over the last runs")
      ->required()
      ->check(CLI::ExistingFile);
  report->add_option("--html", command.html, "the HTML file to write")->required();
  report->footer("Example: gpuconform report results.json --html report.html   (open it in any browser, offline)");

  CLI::App* history = app.add_subcommand("history", "list the runs of a history database and each metric's trend");
  history->add_option("database", command.history, "the SQLite database that run --history FILE appends to")
      ->required()
      ->check(CLI::ExistingFile);
  history->add_option("--node", command.history_node, "trends of this node's metrics (default: the fleet median)");
  history->add_option("--metric", command.history_metric,
                      "only metrics whose \"Suite.Check metric\" contains this text, e.g. busbw");
  history->add_option("--last", command.history_last, "how many of the newest runs (default 10)")
      ->check(CLI::PositiveNumber);
  history->footer(
      "Each trend line shows the metric in each run, oldest first, and marks with * the runs where\n"
      "a --tag (e.g. image=...) or a Software version changed. Example:\n"
      "  gpuconform history fleet.sqlite --metric busbw --last 20");

  CLI::App* merge = app.add_subcommand(
      "merge", "combine results documents of several runs (partitions, racks, days) into one: each node's newest wins");
  merge->add_option("inputs", command.merge_inputs, "results documents (run --json FILE)")
      ->required()
      ->check(CLI::ExistingFile);
  merge->add_option("--json", command.json_out, "the merged results document to write")->required();
  merge->add_option("--junit", command.junit, "also write the merged JUnit report");
  merge->add_option("--html", command.html, "also write the merged HTML report");
  merge->add_option("--history", command.history, "also append the merged run to this SQLite database");
  merge->add_option("--drain-plan", command.drain_plan,
                    "write the fleet's drain plan to FILE (JSON, always a dry run), judged against the controller's "
                    "node states read now, with exclude.hostlist beside it; drains are applied by the runs "
                    "themselves (run --apply-drain), which judged their nodes moments before");
  merge->add_option("--max-drain", command.max_drain, "as run's: the plan drains at most N nodes, or P% of the judged")
      ->check([](const std::string& text) {
        auto cap = ParseDrainCap(text);
        return cap ? "" : cap.error();
      });
  merge->footer(
      "A node's cases come from the newest run (by end time) that judged it; an older run that gave\n"
      "one of them another verdict is listed as a conflict. A cluster-wide case keeps the worst verdict\n"
      "among the runs, with every run's findings. Exit status as run's, for the merged results.\n"
      "Example, after one job per partition (share/gpuconform/slurm/gpuconform-fleet submits them and the merge):\n"
      "  gpuconform merge gpuconform-*.json --json fleet.json --html fleet.html --drain-plan fleet-drain.json");

  CLI::App* health = app.add_subcommand(
      "health-check", "Slurm HealthCheckProgram mode: this node's quick checks within a budget; drains it on a fault");
  health->add_option("--profile", command.profile,
                     "built-in profile NAME or a YAML FILE; its health_check section lists the quick checks");
  health->add_option("--budget", command.budget,
                     "the whole run's deadline, e.g. 45s (slurmd kills the program at 60 s); each check gets a share, "
                     "and a check still running when the budget ends is named")
      ->check([](const std::string& text) {
        return BudgetSeconds(text) > 0 ? "" : "a budget is whole seconds, e.g. 45s";
      });
  health->add_flag("--no-drain", command.no_drain, "report only; do not drain or resume this node");
  health->add_option("--junit", command.junit, "also write a JUnit report to FILE");
  health->add_option("--json", command.json_out, "also write the results document to FILE");
  health->footer(
      "Runs on one node, without MPI. Only the checks the profile marks quick (cheap and passive: GPU\n"
      "count and model, GRES against the device files, link states, MUNGE daemon and key mode, ...).\n"
      "On a hardware or configuration failure it drains its own node (scontrol update State=DRAIN\n"
      "Reason=\"gpuconform: ...\"), since Slurm ignores the program's exit status; a node it drained\n"
      "and that conforms again is resumed; a node drained for another reason is left alone.\n"
      "In slurm.conf (HealthCheckProgram takes no arguments: point it at a wrapper script):\n"
      "  HealthCheckProgram=/etc/slurm/gpuconform-health-check\n"
      "  HealthCheckInterval=300\n"
      "  HealthCheckNodeState=ANY,CYCLE\n"
      "with the wrapper share/gpuconform/slurm/gpuconform-health-check (installed; set its profile),\n"
      "which runs:  gpuconform health-check --profile h100-sxm-8 --budget 45s\n"
      "Exit status as run's (0 conforms, 1 fault, 3 a check could not be evaluated, 2 bad invocation).");

  ParsedCommandLine parsed;
  if (args.empty()) {
    parsed.message = ShortUsage(app);
    parsed.exit_status = 2;
    return parsed;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForVersion& e) {
    parsed.message = std::string(e.what()) + "\n";
    parsed.exit_status = 0;
    return parsed;
  } catch (const CLI::CallForHelp&) {
    // `--help` after a verb asks for that verb's help.
    CLI::App* target = &app;
    for (CLI::App* verb :
         {run, capture, launch, list, profiles, reasons, explain, version, baseline, diff, report, history, health, merge}) {
      if (verb->parsed()) target = verb;
    }
    // A verb's usage line names the program too: "Usage: gpuconform run [OPTIONS]".
    parsed.message = target == &app ? app.help() : target->help(app.get_name());
    parsed.exit_status = 0;
    return parsed;
  } catch (const CLI::ParseError& e) {
    parsed.message = std::string("gpuconform: ") + e.what() + "\nRun `gpuconform --help` for usage.\n";
    parsed.exit_status = 2;
    return parsed;
  }
  if (complete->parsed()) {
    const auto words = CompletionWords(app, completion_request);
    parsed.message = words ? *words : "gpuconform complete: ask for verbs, options VERB, profiles or reasons\n";
    parsed.exit_status = words ? 0 : 2;
    return parsed;
  }
  if (run->parsed()) command.verb = Verb::kRun;
  if (capture->parsed()) command.verb = Verb::kCapture;
  if (launch->parsed()) command.verb = Verb::kLaunch;
  if (list->parsed()) command.verb = Verb::kList;
  if (profiles->parsed()) command.verb = Verb::kProfiles;
  if (reasons->parsed()) command.verb = Verb::kReasons;
  if (explain->parsed()) command.verb = Verb::kExplain;
  if (version->parsed()) command.verb = Verb::kVersion;
  if (baseline->parsed()) command.verb = Verb::kBaseline;
  if (diff->parsed()) command.verb = Verb::kDiff;
  if (report->parsed()) command.verb = Verb::kReport;
  if (history->parsed()) command.verb = Verb::kHistory;
  if (health->parsed()) command.verb = Verb::kHealthCheck;
  if (merge->parsed()) command.verb = Verb::kMerge;
  parsed.command = command;
  return parsed;
}

LaunchRequest LaunchRequestOf(const CommandLine& command) {
  std::optional<int> gpus_per_node;
  if (command.launch_gpus_per_node == "none") {
    gpus_per_node = 0;
  } else if (!command.launch_gpus_per_node.empty()) {
    gpus_per_node = std::atoi(command.launch_gpus_per_node.c_str());
  }
  return {command.launch_nodes,       command.launch_nodelist, command.launch_partition,
          command.launch_immediate_s, command.run_args,        gpus_per_node};
}

CommandLineSettings SettingsOf(const CommandLine& command) {
  CommandLineSettings settings{command.profile,  command.color,          command.checkpoint_dir,
                               command.launched, command.launch_no_task, command.launch_refused};
  if (const auto deadline = ParseDeadlineSeconds(command.deadline)) settings.deadline_s = *deadline;
  return settings;
}

}  // namespace gpuconform
