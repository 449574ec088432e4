#include "suites/checkpoint/checkpoint_checks.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "harness/core/os_error.h"
#include "harness/util/text_util.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::checkpoint {

namespace {

using Nodes = std::vector<const NodeCheckpointReport*>;

std::string Gb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f GB", bytes / 1e9);
  return text;
}

std::string Fixed(double value, int digits = 3) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", digits, value);
  return text;
}

std::optional<double> Number(const RecordLine& record, const std::string& key) { return WholeNumber(record.Get(key)); }

long long Int(const RecordLine& record, const std::string& key) {
  return static_cast<long long>(Number(record, key).value_or(-1));
}

// Problems the probe itself hit in a stage ("publish", "torture atomic", ...), by node.
std::vector<std::string> StageErrors(const Nodes& nodes, const std::string& stage) {
  std::vector<std::string> problems;
  for (const auto* node : nodes) {
    for (const auto* error : node->All("error")) {
      if (error->Get("stage") == stage) problems.push_back(node->node + ": " + error->Get("problem"));
    }
  }
  return problems;
}

// The faults of the node among "node: problem" lines: an OS error the node's storage gave
// (harness/core/os_error.h: read-only, full, quota, permission, stale, disconnected, I/O), or an
// exhausted resource of the node (probes/resource_limits, the one classifier of worker deaths:
// open files, memory, /dev/shm), each a finding of its own class naming the node, the path or
// resource, and the catalogue's fix.
std::optional<Finding> NodeFault(const std::string& problem) {
  const std::string node = problem.substr(0, problem.find(':'));
  const std::string said = problem.substr(std::min(problem.size(), node.size() + 2));
  if (const auto exhausted = resource_limits::ClassifyDeath({std::nullopt, std::nullopt, false, {said}}, {});
      exhausted && exhausted->resource != resource_limits::Resource::kDisk &&
      exhausted->resource != resource_limits::Resource::kDiskQuota) {
    return Finding{exhausted->code, node, resource_limits::DescribeExhaustion(node, *exhausted)};
  }
  const auto error_number = ErrnoIn(problem);
  if (!error_number || !IsStorageFault(*error_number)) return std::nullopt;
  const ReasonCode code = StorageFaultCode(*error_number);
  return Finding{code, node,
                 problem + ": the checkpoint storage on " + node + " refuses what training jobs do there; " +
                     std::string(code.entry().next_step)};
}

std::vector<Finding> StorageFaults(const std::vector<std::string>& problems) {
  std::vector<Finding> findings;
  for (const auto& problem : problems) {
    if (auto fault = NodeFault(problem)) findings.push_back(std::move(*fault));
  }
  return findings;
}

// One finding per problem ("node: ..."): a fleet whose snapshot has no checkpoint.txt reads as
// one line with a hostlist, not 10,000 problems joined into one 200 KB message. A problem
// that is a fault of the node (its storage refusing, a resource exhausted: NodeFault) is a failure of
// that class instead: a fact about the node, not one that could not be obtained.
CheckResult ErroredWith(ReasonCode code, const std::vector<std::string>& problems) {
  if (auto faults = StorageFaults(problems); !faults.empty()) return Failed(std::move(faults));
  return ErroredEach(code, problems);
}

// Fails with the findings, passes without; the measurements are kept either way.
CheckResult WithFindings(std::vector<Finding> findings, std::vector<Measurement> measurements) {
  CheckResult result = FromFindings(std::move(findings));
  result.measurements = std::move(measurements);
  return result;
}

// The node that ran rank 0 (it holds the writer's records).
const NodeCheckpointReport* WriterNode(const Nodes& nodes, const std::string& record) {
  for (const auto* node : nodes) {
    if (node->First(record) != nullptr) return node;
  }
  return nullptr;
}

CheckResult JudgeTargetShared(const Nodes& nodes) {
  std::vector<Finding> findings;
  CheckResult result;
  for (const auto* node : nodes) {
    const RecordLine* shared = node->First("shared");
    if (shared == nullptr) {
      findings.push_back({"no-observation", node->node,
                          node->node + ": " + node->origin + " has no 'shared' record (the probe output is truncated)"});
    } else if (shared->Get("sees_token") != "yes") {
      const RecordLine* target = node->First("target");
      findings.push_back(
          {"target-not-shared", node->node,
           node->node + ": does not see rank 0's token in " + (target ? target->Get("run_dir") : "the run directory") +
               " (" + shared->Get("problem") + "): the checkpoint directory is not one shared filesystem on every "
               "node (a node-local directory of the same name?); mount the shared volume at the same path everywhere"});
    }
  }
  result = FromFindings(findings);
  for (const auto* node : nodes) {
    if (const RecordLine* target = node->First("target")) {
      result.measurements.push_back({node->node + ".target", target->Get("path") + " (" + target->Get("fs") + ")",
                                     "", "", ""});
      result.measurements.push_back({node->node + ".target_chosen_by", target->Get("origin"), "", "", ""});
    }
  }
  return result;
}

CheckResult JudgeSameFilesystem(const Nodes& nodes) {
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto* node : nodes) {
    const RecordLine* temp = node->First("temp");
    if (temp == nullptr) {
      findings.push_back({"no-observation", node->node, node->node + ": no 'temp' record in " + node->origin});
      continue;
    }
    measurements.push_back({node->node + ".temp_location", temp->Get("path") + " (" + temp->Get("fs") + ")", "",
                            "", ""});
    const std::string rename = temp->Get("rename");
    if (rename == "EXDEV") {
      findings.push_back(
          {"rename-crosses-filesystems", node->node,
           node->node + ": rename from the temporary location " + temp->Get("path") + " (" + temp->Get("fs") +
               ") into the checkpoint directory (" + temp->Get("target_fs") +
               ") fails with EXDEV (cross-device link): an atomic publish is impossible from there, and the copy "
               "fallback (shutil.move, cp) leaves a torn file when the job is killed; write the temporary file in "
               "the checkpoint directory itself (leave checkpoint.temp_dir unset)"});
    } else if (rename != "ok") {
      findings.push_back({"rename-failed", node->node,
                          node->node + ": rename from " + temp->Get("path") + " into the checkpoint directory: " +
                              temp->Get("problem")});
    }
  }
  return WithFindings(findings, measurements);
}

CheckResult JudgeAtomicPublish(const Nodes& nodes) {
  if (auto problems = StageErrors(nodes, "publish"); !problems.empty()) {
    return ErroredWith("publish-failed", problems);
  }
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto* node : nodes) {
    const RecordLine* reader = nullptr;
    for (const auto* record : node->All("publish")) {
      if (record->Get("role") == "reader") reader = record;
    }
    if (reader == nullptr) {
      findings.push_back({"no-observation", node->node, node->node + ": no publish reader record in " + node->origin});
      continue;
    }
    const long long torn = Int(*reader, "torn");
    const long long complete = Int(*reader, "complete");
    const long long last = Int(*reader, "last_version");
    const long long expected = Int(*reader, "expected_last_version");
    measurements.push_back({node->node + ".publish_reads", std::to_string(Int(*reader, "reads")), "", "", ""});
    measurements.push_back({node->node + ".publish_torn_reads", std::to_string(torn), "", "= 0", ""});
    if (torn > 0) {
      std::string examples;
      for (const auto* example : node->All("publish-torn")) {
        examples += (examples.empty() ? "" : "; ") + example->Get("problem");
      }
      findings.push_back({"torn-read", node->node,
                          node->node + ": " + std::to_string(torn) + " of " + std::to_string(Int(*reader, "reads")) +
                              " reads during atomic publishes saw a torn file (" + examples +
                              "): rename over the final path is not atomic for readers on this storage"});
    } else if (complete <= 0) {
      findings.push_back({"never-complete", node->node,
                          node->node + ": never read a complete checkpoint while rank 0 published " +
                              std::to_string(expected) + " versions"});
    } else if (last < expected) {
      findings.push_back({"stale-version", node->node,
                          node->node + ": saw versions only up to " + std::to_string(last) + " of " +
                              std::to_string(expected) + " before the deadline: published renames reach this node late "
                              "(attribute caching on NFS: see actimeo / lookupcache)"});
    }
  }
  return WithFindings(findings, measurements);
}

std::vector<const RecordLine*> Records(const NodeCheckpointReport& node, const std::string& name,
                                        const std::string& mode) {
  std::vector<const RecordLine*> found;
  for (const auto* record : node.All(name)) {
    if (record->Get("mode") == mode) found.push_back(record);
  }
  return found;
}

CheckResult JudgeCrashTorture(const Nodes& nodes) {
  if (auto problems = StageErrors(nodes, "torture atomic"); !problems.empty()) {
    return ErroredWith("torture-failed", problems);
  }
  const NodeCheckpointReport* writer = WriterNode(nodes, "kill");
  if (writer == nullptr) {
    return Errored("no-kills", "no writer kills recorded in any node's Checkpoint output");
  }
  const auto kills = Records(*writer, "kill", "atomic");
  std::map<long long, std::string> phase_of;
  std::map<std::string, int> phase_counts;
  std::vector<std::string> kill_problems;
  for (const auto* kill : kills) {
    phase_of[Int(*kill, "index")] = kill->Get("phase");
    ++phase_counts[kill->Get("phase")];
    if (kill->Has("problem")) kill_problems.push_back(writer->node + ": kill " + kill->Get("index") + ": " + kill->Get("problem"));
  }
  if (!kill_problems.empty()) return ErroredWith("writer-failed", kill_problems);
  if (kills.empty()) return Errored("no-kills", writer->node + ": no atomic writer kills recorded");
  std::vector<Finding> findings;
  for (const auto* node : nodes) {
    const auto verifies = Records(*node, "verify", "atomic");
    if (verifies.size() != kills.size()) {
      findings.push_back({"missing-verification", node->node,
                          node->node + ": verified the final path after " + std::to_string(verifies.size()) + " of " +
                              std::to_string(kills.size()) + " kills (the probe output is truncated)"});
    }
    long long previous = -1;
    for (const auto* verify : verifies) {
      const long long index = Int(*verify, "index");
      const std::string phase = phase_of.count(index) ? phase_of[index] : "?";
      const std::string kill = "after kill #" + std::to_string(index) + " (" + phase + ")";
      if (verify->Get("state") != "complete") {
        findings.push_back({"torn-after-kill", node->node + "/kill" + std::to_string(index),
                            node->node + ": " + kill + " the final path is " + verify->Get("state") + ": " +
                                verify->Get("problem") +
                                " — a killed atomic writer must leave the old or the new checkpoint whole; the "
                                "storage does not make write-fsync-rename atomic (check the mount's sync options)"});
        continue;
      }
      const long long version = Int(*verify, "version");
      if (phase == "after-rename" && version != index) {
        findings.push_back({"rename-not-visible", node->node + "/kill" + std::to_string(index),
                            node->node + ": " + kill + " the final path holds version " + std::to_string(version) +
                                ", expected " + std::to_string(index) + ": the completed rename is not visible"});
      }
      if (version < previous) {
        findings.push_back({"version-went-back", node->node + "/kill" + std::to_string(index),
                            node->node + ": " + kill + " the final path went back from version " +
                                std::to_string(previous) + " to " + std::to_string(version)});
      }
      previous = std::max(previous, version);
    }
  }
  CheckResult result = FromFindings(findings);
  std::string phases;
  for (const auto& [phase, count] : phase_counts) phases += (phases.empty() ? "" : ", ") + phase + " " + std::to_string(count);
  result.measurements.push_back({"writer_kills", std::to_string(kills.size()), "", "", ""});
  result.measurements.push_back({"writer_kills_by_phase", phases, "", "", ""});
  std::map<std::string, int> leftovers_by_phase;
  const auto leftovers = Records(*writer, "leftover", "atomic");
  for (const auto* leftover : leftovers) ++leftovers_by_phase[phase_of[Int(*leftover, "index")]];
  std::string where;
  for (const auto& [phase, count] : leftovers_by_phase) where += (where.empty() ? "" : ", ") + phase + " " + std::to_string(count);
  // Killed writers leave their temporary file; they are reported, and removed by the suite.
  // A training job should remove stale temporary files when it starts.
  result.measurements.push_back({"leftover_temp_files", std::to_string(leftovers.size()), "", "", ""});
  if (!leftovers.empty()) result.measurements.push_back({"leftover_temp_files_by_kill_phase", where, "", "", ""});
  return result;
}

CheckResult JudgeNegativeControl(const Nodes& nodes) {
  if (auto problems = StageErrors(nodes, "torture in-place"); !problems.empty()) {
    return ErroredWith("torture-failed", problems);
  }
  const NodeCheckpointReport* writer = WriterNode(nodes, "kill");
  const auto kills = writer ? Records(*writer, "kill", "in-place") : std::vector<const RecordLine*>{};
  if (kills.empty()) {
    return Errored("no-kills", "no in-place writer kills recorded in any node's output");
  }
  long long observations = 0;
  long long torn = 0;
  std::string example;
  std::vector<std::string> incomplete;
  for (const auto* node : nodes) {
    const auto verifies = Records(*node, "verify", "in-place");
    if (verifies.size() != kills.size()) {
      incomplete.push_back(node->node + ": verified " + std::to_string(verifies.size()) + " of " +
                           std::to_string(kills.size()) + " in-place kills (the probe output is truncated)");
    }
    for (const auto* verify : verifies) {
      ++observations;
      if (verify->Get("state") != "complete") {
        ++torn;
        if (example.empty()) example = node->node + " after kill #" + verify->Get("index") + ": " + verify->Get("problem");
      }
    }
  }
  if (!incomplete.empty()) return ErroredWith("missing-verification", incomplete);
  CheckResult result =
      torn > 0 ? Passed()
               : Failed({{"control-not-detected", "",
                          "the in-place writer was killed " + std::to_string(kills.size()) +
                              " times (mid-write included) and no node saw a torn file in " +
                              std::to_string(observations) +
                              " observations: the verifier cannot see tearing on this storage, so the crash torture "
                              "proves nothing here"}});
  result.measurements.push_back({"torn_observations", std::to_string(torn), "", "> 0", ""});
  result.measurements.push_back({"observations", std::to_string(observations), "", "", ""});
  if (!example.empty()) result.measurements.push_back({"torn_example", example, "", "", ""});
  return result;
}

CheckResult JudgeVisibility(const Nodes& nodes, const CheckpointExpectation& expect) {
  const NodeCheckpointReport* writer = nullptr;
  std::map<long long, double> published_ms;
  for (const auto* node : nodes) {
    for (const auto* record : node->All("visible")) {
      if (record->Get("role") != "writer") continue;
      writer = node;
      published_ms[Int(*record, "trial")] = Number(*record, "published_ms").value_or(0);
    }
  }
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  bool any_reader = false;
  for (const auto* node : nodes) {
    if (node == writer) continue;
    double worst_ms = 0;
    for (const auto* record : node->All("visible")) {
      if (record->Get("role") != "reader") continue;
      any_reader = true;
      const auto seen = Number(*record, "seen_ms");
      if (!seen) {
        findings.push_back({"not-visible", node->node + "/trial" + record->Get("trial"),
                            node->node + ": a checkpoint renamed into place on " + (writer ? writer->node : "rank 0") +
                                " was not visible and complete within " + std::to_string(expect.visibility_deadline_s) +
                                " s (state " + record->Get("state") + (record->Has("problem") ? ": " + record->Get("problem") : "") +
                                "); a job restarting on this node would load an older checkpoint"});
        continue;
      }
      worst_ms = std::max(worst_ms, *seen - published_ms[Int(*record, "trial")]);
    }
    measurements.push_back({node->node + ".visibility_latency_ms", Fixed(std::max(0.0, worst_ms), 1), "ms",
                            "<= " + std::to_string(expect.visibility_deadline_s * 1000), ""});
  }
  if (!any_reader) {
    return Skipped("one node in this run: cross-node visibility needs at least two");
  }
  return WithFindings(findings, measurements);
}

CheckResult JudgeSingleWriter(const Nodes& nodes) {
  if (auto problems = StageErrors(nodes, "writers"); !problems.empty()) {
    return ErroredWith("write-failed", problems);
  }
  std::vector<Finding> findings;
  std::vector<std::string> detected, whole;
  long long ranks = 0;
  for (const auto* node : nodes) {
    const RecordLine* unguarded = nullptr;
    const RecordLine* guarded = nullptr;
    for (const auto* record : node->All("writers")) {
      (record->Get("guard") == "none" ? unguarded : guarded) = record;
    }
    if (unguarded == nullptr || guarded == nullptr) {
      findings.push_back({"no-observation", node->node, node->node + ": no 'writers' records in " + node->origin});
      continue;
    }
    ranks = Int(*unguarded, "ranks");
    if (guarded->Get("state") != "complete") {
      findings.push_back({"guarded-write-torn", node->node,
                          node->node + ": the checkpoint rank 0 alone wrote is " + guarded->Get("state") + ": " +
                              guarded->Get("problem")});
    }
    if (unguarded->Get("state") != "complete") {
      detected.push_back(node->node + " (" + unguarded->Get("problem") + ")");
    } else if (unguarded->Get("writer") != "0") {
      detected.push_back(node->node + " (whole, but rank " + unguarded->Get("writer") +
                         "'s, not rank 0's: the ranks overwrote each other)");
    } else {
      whole.push_back(node->node);
    }
  }
  if (!findings.empty()) return FromFindings(findings);
  CheckResult result = Passed();
  std::string demonstration;
  if (ranks < 2) {
    demonstration = "one rank in this run: the unguarded demonstration needs at least two";
  } else if (!whole.empty()) {
    return Errored("demonstration-inconclusive",
                   std::to_string(ranks) + " ranks wrote one path at once without the rank-0 guard, yet rank 0's "
                   "whole file was left on " + Join(whole, ", ") + ": the writers did not overlap, so detection was not "
                   "shown; rerun (slow storage or an idle node can serialise the writers)");
  } else {
    demonstration = std::to_string(ranks) + " ranks wrote one path at once without the rank-0 guard: detected on " +
                    Join(detected, "; ") + "; rank 0 alone wrote a whole checkpoint";
  }
  result.measurements.push_back({"unguarded_writers", demonstration, "", "", ""});
  return result;
}

CheckResult JudgeCapacity(const Nodes& nodes, const CheckpointExpectation& expect) {
  const NodeCheckpointReport* tightest = nullptr;
  double avail = 0;
  for (const auto* node : nodes) {
    const RecordLine* capacity = node->First("capacity");
    if (capacity == nullptr || !Number(*capacity, "avail_bytes")) {
      return Errored("no-capacity",
                     node->node + ": free space not measured: " + (capacity ? capacity->Get("problem") : "no capacity record"));
    }
    if (tightest == nullptr || *Number(*capacity, "avail_bytes") < avail) {
      tightest = node;
      avail = *Number(*capacity, "avail_bytes");
    }
  }
  if (tightest == nullptr) return Errored("no-capacity", "no node reported free space");
  const double required = static_cast<double>(expect.size_bytes) * (expect.copies_kept + 1);
  Measurement measured{"free_bytes", Fixed(avail, 0), "B", expect.size_bytes > 0 ? ">= " + Fixed(required, 0) : "",
                       expect.source};
  if (expect.size_bytes <= 0) {
    CheckResult skipped = Skipped("the profile sets no checkpoint.size_bytes: free space is recorded, not judged");
    skipped.measurements.push_back(measured);
    return skipped;
  }
  CheckResult result =
      avail >= required
          ? Passed()
          : Failed({{"not-enough-space", tightest->node,
                     tightest->node + ": the checkpoint directory has " + Gb(avail) + " free; a checkpoint of " +
                         Gb(static_cast<double>(expect.size_bytes)) + " with " + std::to_string(expect.copies_kept) +
                         " kept needs " + Gb(required) +
                         " (the next one is written beside the kept ones before the oldest is removed); free space "
                         "or lower checkpoint.copies_kept"}});
  result.measurements.push_back(measured);
  return result;
}

CheckResult JudgeReadThroughput(const Nodes& nodes, const CheckpointExpectation& expect) {
  if (auto problems = StageErrors(nodes, "read"); !problems.empty()) {
    return ErroredWith("read-failed", problems);
  }
  const int k = std::max(1, expect.parallel_readers);
  std::map<int, double> bytes, slowest_ms;
  for (const auto* node : nodes) {
    std::set<int> seen;
    for (const auto* read : node->All("read")) {
      const int readers = static_cast<int>(Int(*read, "readers"));
      seen.insert(readers);
      bytes[readers] += Number(*read, "bytes").value_or(0);
      slowest_ms[readers] = std::max(slowest_ms[readers], Number(*read, "elapsed_ms").value_or(0));
    }
    if (!seen.count(1) || !seen.count(k)) {
      return Errored("not-measured",
                     node->node + ": no read measurement with 1 and " + std::to_string(k) + " readers in " + node->origin);
    }
  }
  auto rate = [&](int readers) { return slowest_ms[readers] > 0 ? bytes[readers] / 1e6 / slowest_ms[readers] : 0.0; };
  const double one = rate(1);
  const double many = rate(k);
  const std::string floor = expect.read_floor_gb_per_s > 0 ? ">= " + Fixed(expect.read_floor_gb_per_s) : "";
  std::vector<Measurement> measurements = {
      {"read_gb_per_s@1_reader_per_node", Fixed(one), "GB/s", "", ""},
      {"read_gb_per_s@" + std::to_string(k) + "_readers_per_node", Fixed(many), "GB/s", floor,
       floor.empty() ? "" : expect.source},
      {"parallel_read_speedup", Fixed(one > 0 ? many / one : 0, 2), "x", "", ""},
      {"read_nodes", std::to_string(nodes.size()), "", "", ""}};
  if (expect.read_floor_gb_per_s <= 0) {
    CheckResult recorded = Skipped("the profile sets no checkpoint.read_floor_gb_per_s: read bandwidth is recorded, not judged");
    recorded.measurements = measurements;
    return recorded;
  }
  CheckResult result =
      many >= expect.read_floor_gb_per_s
          ? Passed()
          : Failed({{"read-below-floor", "",
                     "aggregate read bandwidth with " + std::to_string(k) + " readers per node is " + Fixed(many) +
                         " GB/s, below the floor of " + Fixed(expect.read_floor_gb_per_s) + " GB/s (1 reader: " +
                         Fixed(one) + " GB/s): data loading will starve the GPUs; check the storage's client mount "
                         "options and network path"}});
  result.measurements = measurements;
  return result;
}

CheckResult JudgeCleanedUp(const Nodes& nodes) {
  const NodeCheckpointReport* root = WriterNode(nodes, "cleanup");
  if (root == nullptr) return Errored("no-cleanup", "no node reported removing the run directory");
  const RecordLine* cleanup = root->First("cleanup");
  CheckResult result = cleanup->Get("removed") == "yes"
                           ? Passed()
                           : Failed({{"run-directory-left", root->node,
                                      root->node + ": the run directory could not be removed: " + cleanup->Get("problem")}});
  std::vector<std::string> swept;
  for (const auto* record : root->All("swept")) swept.push_back(record->Get("dir"));
  result.measurements.push_back({"swept_run_directories", std::to_string(swept.size()), "", "", ""});
  if (!swept.empty()) result.measurements.push_back({"swept_run_directory_names", Join(swept, ", "), "", "", ""});
  return result;
}

// The nodes whose report was read, in node order.
Nodes NodesOf(const Reports& reports) {
  Nodes nodes;
  for (const auto& [node, report] : reports.read) nodes.push_back(&report);
  return nodes;
}

// What stops every check before its own judgement: a node whose report could not be read (or
// no report at all), or a probe that found no checkpoint directory to work in.
std::optional<CheckResult> Unusable(const Reports& reports, const Nodes& nodes) {
  std::vector<std::string> unread;
  for (const auto& [node, problem] : reports.unread) unread.push_back(problem);
  if (nodes.empty() && unread.empty()) unread.push_back("no node's Checkpoint output in this run");
  if (!unread.empty()) return ErroredWith("no-observation", unread);
  if (auto setup = StageErrors(nodes, "setup"); !setup.empty()) {
    if (NodeFault(setup.front())) return ErroredWith("no-target", {setup.front()});
    return Errored("no-target", setup.front());
  }
  return std::nullopt;
}

// A check after TargetShared: `judge(nodes)` where every node's report is usable and every node
// shares the checkpoint directory; otherwise there is nothing it could judge.
template <typename Judge>
CheckResult OnSharedTarget(const Reports& reports, Judge judge) {
  const Nodes nodes = NodesOf(reports);
  if (auto unusable = Unusable(reports, nodes)) return *unusable;
  if (JudgeTargetShared(nodes).verdict != Verdict::kPass) {
    return Errored("target-not-shared", "not run: the checkpoint directory is not shared by every node (see TargetShared)");
  }
  return judge(nodes);
}

}  // namespace

std::optional<std::string> NotApplicable(const Profile& profile) {
  if (profile.Get<CheckpointExpectation>() != nullptr) return std::nullopt;
  return "profile " + profile.name + " has no checkpoint section, so it does not say which storage the jobs use; "
         "add one or pass --checkpoint-dir DIR";
}

CheckResult CheckTargetShared(const Reports& reports) {
  const Nodes nodes = NodesOf(reports);
  if (auto unusable = Unusable(reports, nodes)) return *unusable;
  return JudgeTargetShared(nodes);
}

CheckResult CheckSameFilesystem(const Reports& reports) { return OnSharedTarget(reports, JudgeSameFilesystem); }
CheckResult CheckAtomicPublish(const Reports& reports) { return OnSharedTarget(reports, JudgeAtomicPublish); }
CheckResult CheckCrashTorture(const Reports& reports) { return OnSharedTarget(reports, JudgeCrashTorture); }
CheckResult CheckNegativeControl(const Reports& reports) { return OnSharedTarget(reports, JudgeNegativeControl); }
CheckResult CheckSingleWriter(const Reports& reports) { return OnSharedTarget(reports, JudgeSingleWriter); }
CheckResult CheckCleanedUp(const Reports& reports) { return OnSharedTarget(reports, JudgeCleanedUp); }

CheckResult CheckVisibility(const Reports& reports, const CheckpointExpectation& expect) {
  return OnSharedTarget(reports, [&](const Nodes& nodes) { return JudgeVisibility(nodes, expect); });
}

CheckResult CheckCapacity(const Reports& reports, const CheckpointExpectation& expect) {
  return OnSharedTarget(reports, [&](const Nodes& nodes) { return JudgeCapacity(nodes, expect); });
}

CheckResult CheckReadThroughput(const Reports& reports, const CheckpointExpectation& expect) {
  return OnSharedTarget(reports, [&](const Nodes& nodes) { return JudgeReadThroughput(nodes, expect); });
}

}  // namespace gpuconform::checkpoint
