#include "suites/torchrun/torchrun_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/util/text_util.h"

namespace gpuconform::torchrun {

namespace {

// One worker with the node whose report holds it.
struct Worker {
  std::string node;
  const WorkerReport* report;
  const LauncherRun* launcher;  // the launcher that started it; null when its record is missing
};

struct View {
  std::vector<const NodeTorchrunReport*> reports;
  std::vector<Worker> workers;
  std::map<std::string, std::string> unread;  // node -> why its output could not be read

  bool AnyWorkerRan() const {
    return std::any_of(workers.begin(), workers.end(), [](const Worker& w) { return w.report->described; });
  }
};

View MakeView(const NodeFacts<NodeTorchrunReport>& facts) {
  View view;
  view.unread = facts.unread;
  for (const auto& [node, report] : facts.read) {
    view.reports.push_back(&report);
    for (const auto& worker : report.workers) {
      const LauncherRun* launcher = nullptr;
      for (const auto& candidate : report.launchers) {
        if (candidate.task_rank == worker.task_rank) launcher = &candidate;
      }
      view.workers.push_back({node, &worker, launcher});
    }
  }
  return view;
}

std::string Describe(const LauncherRun& launcher) {
  std::vector<std::string> versions;
  if (!launcher.torch_version.empty()) versions.push_back("torch " + launcher.torch_version);
  if (!launcher.python_version.empty()) versions.push_back("Python " + launcher.python_version);
  return launcher.command + (versions.empty() ? "" : " (" + Join(versions, ", ") + ")");
}

std::string OutputLineWith(const LauncherRun& launcher, const std::vector<std::string>& needles) {
  for (const auto& line : launcher.output) {
    for (const auto& needle : needles) {
      if (line.find(needle) != std::string::npos) return std::string(Trim(line));
    }
  }
  return "";
}

std::string HumanSize(long long size_bytes) {
  if (size_bytes >= (1LL << 30) && size_bytes % (1LL << 30) == 0) return std::to_string(size_bytes >> 30) + " GiB";
  if (size_bytes >= (1LL << 20) && size_bytes % (1LL << 20) == 0) return std::to_string(size_bytes >> 20) + " MiB";
  if (size_bytes >= (1LL << 10) && size_bytes % (1LL << 10) == 0) return std::to_string(size_bytes >> 10) + " KiB";
  return std::to_string(size_bytes) + " B";
}

const std::vector<std::string> kPortInUse = {"Address already in use", "errno: 98", "EADDRINUSE", "Errno 98"};

// The fix for Debian bookworm's python3-torch 1.13 on Python 3.11 (Std.from_str iterates an
// IntFlag, which yields no NONE/ALL there), recognised by its exception and versions.
std::string KnownCrashFix(const LauncherRun& launcher, const std::string& exception) {
  if (exception.find("'NoneType' object has no attribute 'get'") != std::string::npos &&
      (launcher.torch_version.starts_with("1.13") || launcher.torch_version.empty())) {
    return "; this is torch 1.13's Std.from_str on Python 3.11 (Debian bookworm's python3-torch): patch the image's "
           "launcher as docs/operating.md#the-torchrun-launcher shows, or install torch >= 2.0";
  }
  return "";
}

// The first worker error of a launcher's workers on its node, "rank 3 (allreduce): RuntimeError: ...".
std::string FirstWorkerError(const NodeTorchrunReport& report, int task_rank) {
  for (const auto& worker : report.workers) {
    if (worker.task_rank != task_rank) continue;
    if (worker.init_ok && !*worker.init_ok) {
      return fmt::format("rank {} (init_process_group): {}", worker.rank, worker.init_error);
    }
    if (!worker.errors.empty()) {
      return fmt::format("rank {} ({}): {}", worker.rank, worker.errors.front().first, worker.errors.front().second);
    }
  }
  return "";
}

// Nodes whose launchers never reached their workers: the ones a rendezvous waits for.
std::vector<std::string> NodesThatNeverJoined(const View& view) {
  std::vector<std::string> absent;
  for (const auto* report : view.reports) {
    bool joined = false;
    std::string why;
    for (const auto& launcher : report->launchers) {
      if (launcher.state == "ok" || launcher.state == "failed") joined = true;
      if (launcher.state == "missing" || launcher.state == "crashed" || launcher.state == "error") {
        why = launcher.state;
      }
    }
    for (const auto& worker : report->workers) {
      if (worker.init_ok && *worker.init_ok) joined = true;
    }
    if (!joined && !why.empty()) absent.push_back(report->node + " (its launcher " + why + ")");
  }
  for (const auto& [node, problem] : view.unread) absent.push_back(node + " (no output: " + problem + ")");
  return absent;
}

// Why no check of the workers' records has anything to judge, or nullopt.
std::optional<std::string> NoWorkers(const View& view) {
  if (view.AnyWorkerRan()) return std::nullopt;
  return "no worker ran, so there is nothing to judge: Torchrun.LauncherStarted says why";
}

// The data and checkpoint stages run inside the process group: where it did not form on every
// rank they could not run, and CollectiveCorrect already names why.
std::optional<std::string> NoProcessGroup(const View& view) {
  if (auto none = NoWorkers(view)) return none;
  for (const auto& w : view.workers) {
    if (w.report->described && !(w.report->init_ok && *w.report->init_ok)) {
      return fmt::format("the process group did not form on every rank ({} rank {} did not join): "
                         "Torchrun.CollectiveCorrect says why",
                         w.node, w.report->rank);
    }
  }
  return std::nullopt;
}

// The first node's problem preparing the shared data, or "" where every node prepared it.
std::string DataProblem(const View& view) {
  for (const auto* report : view.reports) {
    if (!report->data_problem.empty()) return report->data_problem;
  }
  return "";
}

// A node whose report could not be read cannot be vouched for: a cluster check's pass becomes
// its error; a failure found on the other nodes stays the verdict.
CheckResult VouchedFor(const NodeFacts<NodeTorchrunReport>& reports, CheckResult judged) {
  if (reports.unread.empty() || judged.verdict != Verdict::kPass) return judged;
  std::vector<std::string> unread;
  for (const auto& [node, problem] : reports.unread) unread.push_back(problem);
  return ErroredEach("unavailable", unread);
}

CheckResult JudgeMasterPortOpen(const View& view) {
  std::vector<Finding> findings;
  bool any = false;
  std::string master_addr;
  std::string master_host;
  for (const auto* report : view.reports) {
    for (const auto& launcher : report->launchers) {
      master_addr = launcher.master_addr;
      master_host = launcher.master_host;
    }
  }
  for (const auto* report : view.reports) {
    for (const auto& port : report->ports) {
      any = true;
      if (port.role == "host" && port.state != "free") {
        findings.push_back(
            {"rendezvous-port-in-use", port.host,
             fmt::format("{}: MASTER_PORT {} cannot be bound on {}, which hosts the rendezvous (SLURM_NODEID 0): {}; "
                         "another job or a leftover process holds it: pick a free port (e.g. 29500 + SLURM_JOB_ID % "
                         "1000) or find the holder with `ss -ltnp sport = :{}`",
                         port.host, port.port, port.host, port.detail, port.port)});
      } else if (port.role == "client" && port.state != "reachable") {
        std::string hint = "a firewall, a route, or MASTER_ADDR naming another host";
        const std::string short_addr = master_addr.substr(0, master_addr.find('.'));
        if (!master_host.empty() && short_addr != master_host && master_addr != master_host) {
          hint = fmt::format("MASTER_ADDR={} is not {}, the node with SLURM_NODEID 0 that hosts the rendezvous; "
                             "set MASTER_ADDR to the first host of the allocation (scontrol show hostnames "
                             "\"$SLURM_JOB_NODELIST\" | head -n1)",
                             master_addr, master_host);
        }
        findings.push_back({"rendezvous-unreachable", port.host,
                            fmt::format("{}: cannot connect to MASTER_ADDR:MASTER_PORT ({}:{}): {}; {}", port.host,
                                        port.addr, port.port, port.detail, hint)});
      }
    }
  }
  if (!any) {
    return Errored("not-reported", "no node reported the rendezvous port check" +
                                       (master_addr.empty() ? std::string(" (the run had not chosen MASTER_ADDR)")
                                                            : " (MASTER_ADDR " + master_addr + ")"));
  }
  return FromFindings(std::move(findings));
}

CheckResult JudgeRanksConsistent(const View& view) {
  if (auto none = NoWorkers(view)) return Skipped(*none);
  std::vector<Finding> findings;
  std::map<int, std::vector<std::string>> holders;  // RANK -> "node/task"
  int world = 0;
  for (const auto& w : view.workers) {
    const WorkerReport& r = *w.report;
    if (!r.described || w.launcher == nullptr) continue;
    const LauncherRun& l = *w.launcher;
    world = l.nnodes * l.nproc_per_node;
    const std::string who = fmt::format("{}: rank {} (LOCAL_RANK {})", w.node, r.rank, r.local_rank);
    holders[r.rank].push_back(fmt::format("{}/task{}", w.node, r.task_rank));
    if (r.world_size != world) {
      findings.push_back({"rank-env-wrong", w.node,
                          fmt::format("{}: WORLD_SIZE={}, expected nnodes x nproc_per_node = {} x {} = {}", who,
                                      r.world_size, l.nnodes, l.nproc_per_node, world)});
    }
    if (r.local_rank < 0 || r.local_rank >= l.nproc_per_node) {
      findings.push_back({"rank-env-wrong", w.node,
                          fmt::format("{}: LOCAL_RANK={} is outside 0..{}", who, r.local_rank, l.nproc_per_node - 1)});
    }
    if (r.group_rank != l.node_rank) {
      findings.push_back({"rank-env-wrong", w.node,
                          fmt::format("{}: GROUP_RANK={} but its launcher was given --node_rank={}", who, r.group_rank,
                                      l.node_rank)});
    }
    const int expected_rank = l.node_rank * l.nproc_per_node + r.local_rank;
    if (r.rank != expected_rank) {
      findings.push_back({"rank-env-wrong", w.node,
                          fmt::format("{}: RANK={}, expected node_rank x nproc_per_node + LOCAL_RANK = {} x {} + {} = "
                                      "{}",
                                      who, r.rank, l.node_rank, l.nproc_per_node, r.local_rank, expected_rank)});
    }
    if (!l.slurm_nodeid.empty() && l.slurm_nodeid != std::to_string(l.node_rank)) {
      findings.push_back({"rank-env-wrong", w.node,
                          fmt::format("{}: node_rank {} but SLURM_NODEID={}: node_rank must come from SLURM_NODEID "
                                      "(not SLURM_PROCID)",
                                      who, l.node_rank, l.slurm_nodeid)});
    }
  }
  std::set<std::string> reported;
  for (const auto& [rank, where] : holders) {
    if (where.size() > 1) {
      findings.push_back({"rank-env-wrong", "cluster",
                          fmt::format("RANK {} is held by {} workers ({}): two launchers gave out the same ranks",
                                      rank, where.size(), Join(where, ", "))});
    }
    if (world > 0 && (rank < 0 || rank >= world)) {
      findings.push_back({"rank-env-wrong", "cluster", fmt::format("RANK {} is outside 0..{}", rank, world - 1)});
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({"world_size", std::to_string(world), "ranks", "", ""});
  result.measurements.push_back({"ranks_reported", std::to_string(holders.size()), "ranks", "", ""});
  return result;
}

// The sweep's busbw at the size closest to `size_bytes`, or nullopt when it has no rows.
std::optional<std::pair<long long, double>> SweepAt(const SweepReference& sweep, long long size_bytes) {
  std::optional<std::pair<long long, double>> best;
  for (const auto& row : sweep.busbw_by_size) {
    const auto distance = [&](long long size) { return std::abs(std::log2(double(size)) - std::log2(double(size_bytes))); };
    if (!best || distance(row.first) < distance(best->first)) best = row;
  }
  return best;
}

// The NCCL transport lines the workers reported, each once, for a message.
std::string TransportEvidence(const View& view) {
  std::vector<std::string> lines;
  for (const auto& w : view.workers) {
    for (const auto& line : w.report->transport_lines) {
      if (std::find(lines.begin(), lines.end(), line) == lines.end() && lines.size() < 3) lines.push_back(line);
    }
  }
  return lines.empty() ? std::string("no NCCL transport lines were reported")
                       : "NCCL's channels: \"" + Join(lines, "\", \"") + "\"";
}

CheckResult JudgeCollectiveCorrect(const View& view, const Profile& profile, const std::optional<SweepReference>& sweep) {
  if (auto none = NoWorkers(view)) return Skipped(*none);
  std::vector<Finding> findings;
  std::map<long long, double> slowest;  // size -> the lowest busbw any rank saw
  double init_ms = 0;
  for (const auto& w : view.workers) {
    const WorkerReport& r = *w.report;
    if (!r.described) continue;
    if (!r.init_ok) {
      findings.push_back({"process-group-init-failed", w.node,
                          fmt::format("{}: rank {} never reported init_process_group", w.node, r.rank)});
      continue;
    }
    if (!*r.init_ok) {
      findings.push_back({"process-group-init-failed", w.node,
                          fmt::format("{}: rank {}: init_process_group(\"{}\") failed after {:.0f} ms: {}", w.node,
                                      r.rank, r.backend, r.init_ms, r.init_error)});
      continue;
    }
    init_ms = std::max(init_ms, r.init_ms);
    if (r.allreduces.empty()) {
      std::string why = "no allreduce reported";
      for (const auto& [stage, message] : r.errors) {
        if (stage == "allreduce") why = "the allreduce raised " + message;
      }
      findings.push_back({"allreduce-results-wrong", w.node, fmt::format("{}: rank {}: {}", w.node, r.rank, why)});
    }
    for (const auto& sample : r.allreduces) {
      if (sample.wrong_elements > 0 || sample.got != sample.expected) {
        findings.push_back({"allreduce-results-wrong", w.node,
                            fmt::format("{}: rank {}: all_reduce of {} gave {} (expected {}), {} elements wrong", w.node,
                                        r.rank, HumanSize(sample.size_bytes), sample.got, sample.expected,
                                        sample.wrong_elements)});
      }
      auto [entry, inserted] = slowest.emplace(sample.size_bytes, sample.busbw_gb_per_s);
      if (!inserted) entry->second = std::min(entry->second, sample.busbw_gb_per_s);
    }
  }
  const TorchrunExpectation* torchrun = profile.Get<TorchrunExpectation>();
  const double floor = torchrun != nullptr ? torchrun->busbw_floor_gb_per_s : 0;
  CheckResult result = FromFindings({});
  for (const auto& [size, busbw] : slowest) {
    result.measurements.push_back({"busbw@" + HumanSize(size), fmt::format("{:.3f}", busbw), "GB/s",
                                   floor > 0 ? fmt::format(">= {}", floor) : "",
                                   floor > 0 ? torchrun->source : "recorded, not judged"});
    if (floor > 0 && busbw < floor) {
      findings.push_back({"busbw-below-floor", "cluster",
                          fmt::format("torch.distributed all_reduce of {} ran at {:.3f} GB/s busbw on its slowest rank, "
                                      "below the floor of {} GB/s ({}): the backend is not on the fabric it should "
                                      "use; compare with the run's own MPI/NCCL sweep (AllreduceBandwidth) and check "
                                      "NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME and the transport NCCL chose",
                                      HumanSize(size), busbw, floor, torchrun->source)});
    }
  }
  result.measurements.push_back({"init_process_group_ms", fmt::format("{:.0f}", init_ms), "ms", "", ""});
  for (const auto& [size, busbw] : slowest) {
    const auto reference = sweep ? SweepAt(*sweep, size) : std::nullopt;
    if (!reference || reference->second <= 0) continue;
    const double ratio = busbw / reference->second;
    result.measurements.push_back(
        {"busbw_over_sweep@" + HumanSize(size), fmt::format("{:.2f}", ratio), "",
         sweep->judged ? fmt::format(">= {}", kBackendBelowSweepFraction) : "",
         fmt::format("{} at {}: {:.3f} GB/s{}", sweep->tool, HumanSize(reference->first), reference->second,
                     sweep->judged ? "" : "; recorded, not judged")});
    if (sweep->judged && ratio < kBackendBelowSweepFraction) {
      findings.push_back({"backend-below-sweep", "cluster",
                          fmt::format("torch.distributed all_reduce of {} ran at {:.3f} GB/s busbw, {:.0f}% of {}'s "
                                      "{:.3f} GB/s at {} on the same nodes: the training job's NCCL does not take "
                                      "the path gpuconform's does ({}); compare NCCL_* in the job's environment, "
                                      "CUDA_VISIBLE_DEVICES and the NCCL library torch loads",
                                      HumanSize(size), busbw, ratio * 100, sweep->tool, reference->second,
                                      HumanSize(reference->first), TransportEvidence(view))});
    }
  }
  if (findings.empty()) return result;
  CheckResult failed = Failed(std::move(findings));
  failed.measurements = std::move(result.measurements);
  return failed;
}

CheckResult JudgeSamplerShards(const View& view) {
  if (auto none = NoProcessGroup(view)) return Skipped(*none);
  std::vector<Finding> findings;
  int world = 0;
  int items = 0;
  std::map<int, std::map<int, std::vector<int>>> by_epoch;  // epoch -> rank -> indices
  for (const auto& w : view.workers) {
    if (!w.report->described) continue;
    ++world;
    if (w.report->shard_indices.empty()) {
      return Errored("not-reported", fmt::format("{}: rank {} reported no DistributedSampler shard", w.node,
                                                 w.report->rank));
    }
    items = w.report->dataset_items;
    for (const auto& [epoch, indices] : w.report->shard_indices) by_epoch[epoch][w.report->rank] = indices;
  }
  // DistributedSampler pads the dataset to a multiple of the world by repeating indices
  // (drop_last=False): that many repeats are its design, more are overlap.
  const int padded = world > 0 ? (items + world - 1) / world * world : items;
  for (const auto& [epoch, shards] : by_epoch) {
    std::map<int, std::vector<int>> owners;
    for (const auto& [rank, indices] : shards) {
      for (int index : indices) owners[index].push_back(rank);
    }
    int repeats = 0;
    std::string example;
    for (const auto& [index, ranks] : owners) {
      repeats += static_cast<int>(ranks.size()) - 1;
      if (ranks.size() > 1 && example.empty()) {
        example = fmt::format("index {} goes to ranks {}", index, ranks.front()) +
                  fmt::format(" and {}", ranks[1]);
      }
    }
    const int missing = items - static_cast<int>(owners.size());
    if (repeats > padded - items || missing > 0) {
      findings.push_back({"shards-overlap", "cluster",
                          fmt::format("epoch {}: the {} ranks' DistributedSampler shards cover {} of {} items with {} "
                                      "repeated ({} expected from padding){}: ranks read the same samples; build the "
                                      "sampler with num_replicas=WORLD_SIZE and rank=RANK from torchrun",
                                      epoch, shards.size(), owners.size(), items, repeats, padded - items,
                                      example.empty() ? std::string() : " (" + example + ")")});
    }
  }
  if (by_epoch.count(0) && by_epoch.count(1)) {
    bool reordered = false;
    for (const auto& [rank, indices] : by_epoch[0]) {
      if (by_epoch[1][rank] != indices) reordered = true;
    }
    if (!reordered) {
      findings.push_back({"shards-overlap", "cluster",
                          "set_epoch(1) gave every rank the same order as epoch 0: every epoch repeats one order; "
                          "call sampler.set_epoch(epoch) before each epoch with shuffle=True"});
    }
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({"dataset_items", std::to_string(items), "items", "", ""});
  result.measurements.push_back({"ranks", std::to_string(world), "ranks", "", ""});
  return result;
}

CheckResult JudgeCheckpointRankZero(const View& view) {
  if (auto none = NoProcessGroup(view)) return Skipped(*none);
  const std::string problem = DataProblem(view);
  if (!problem.empty()) return Skipped("the checkpoint was not written: " + problem);
  std::vector<std::string> writers;
  std::vector<Finding> findings;
  int loaded = 0;
  for (const auto& w : view.workers) {
    if (!w.report->described) continue;
    const CheckpointRecord& c = w.report->checkpoint;
    if (!c.present) {
      std::string why;
      for (const auto& [stage, message] : w.report->errors) {
        if (stage == "checkpoint") why = ": " + message;
      }
      findings.push_back({"checkpoint-load-mismatch", w.node,
                          fmt::format("{}: rank {} reported no checkpoint save/load{}", w.node, w.report->rank, why)});
      continue;
    }
    if (c.wrote) writers.push_back(fmt::format("rank {} on {}", w.report->rank, w.node));
    if (!c.consistent) {
      findings.push_back(
          {"checkpoint-load-mismatch", w.node,
           fmt::format("{}: rank {} loaded {} where rank 0 saved step {}{}: ranks resume from different states", w.node,
                       w.report->rank, c.loaded_step ? "step " + std::to_string(*c.loaded_step) + " with other weights"
                                                     : std::string("nothing"),
                       c.step, c.error.empty() ? std::string() : " (" + c.error + ")")});
    } else {
      ++loaded;
    }
  }
  if (writers.size() != 1 || writers.front().rfind("rank 0 ", 0) != 0) {
    findings.insert(findings.begin(),
                    {"checkpoint-not-rank-zero", "cluster",
                     fmt::format("{} wrote the checkpoint ({}): only global rank 0 may write it (if "
                                 "dist.get_rank() == 0), to a .tmp file renamed into place with os.replace, and the "
                                 "others wait at a barrier before loading",
                                 writers.size() == 1 ? std::string("one rank other than 0")
                                                     : std::to_string(writers.size()) + " ranks",
                                 writers.empty() ? std::string("none") : Join(writers, ", "))});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({"checkpoint_writers", std::to_string(writers.size()), "ranks", "== 1", ""});
  result.measurements.push_back({"checkpoint_loaded_consistently", std::to_string(loaded), "ranks", "", ""});
  return result;
}

}  // namespace

std::optional<std::string> NotApplicable(const Profile& profile) {
  if (profile.Get<TorchrunExpectation>() != nullptr) return std::nullopt;
  return "profile " + profile.name + " has no torchrun section, so it does not say how jobs are launched; add one "
         "(docs/profiles.md) to run the launch smoke test";
}

AcrossNodes SummarizeNodes(const NodeFacts<NodeTorchrunReport>& reports) {
  const View view = MakeView(reports);
  AcrossNodes across;
  // Where the probe launched nothing, the last node that says why speaks for the run.
  for (const auto* report : view.reports) {
    if (!report->skipped.empty()) across.skipped = report->skipped;
  }
  across.never_joined = NodesThatNeverJoined(view);
  across.data_problem = DataProblem(view);
  across.no_process_group = NoProcessGroup(view);
  return across;
}

CheckResult CheckLauncherStarted(const NodeTorchrunReport& report, const AcrossNodes& across) {
  if (report.launchers.empty()) {
    return Errored("not-reported", report.node + ": the Torchrun probe reported no launcher on this node");
  }
  std::vector<Finding> findings;
  CheckResult result = Passed();
  for (const auto& launcher : report.launchers) {
    const std::string who = fmt::format("{}: torchrun (task {})", report.node, launcher.task_rank);
    result.measurements.push_back({fmt::format("{}.task{}.elapsed", report.node, launcher.task_rank),
                                   fmt::format("{:.1f}", launcher.elapsed_s), "s",
                                   fmt::format("<= {}", launcher.timeout_s), "torchrun.timeout_s"});
    if (launcher.state == "ok") continue;
    if (launcher.state == "not-started") {
      return Skipped(report.node + ": torchrun was not started: " + launcher.detail +
                     " (Torchrun.MasterPortOpen names why)");
    }
    if (launcher.state == "missing") {
      findings.push_back({"torchrun-missing", report.node,
                          who + ": " + launcher.detail +
                              ": the image has no PyTorch launcher; install PyTorch on every node (the same version), "
                              "or name the launcher with torchrun.command in the profile or GPUCONFORM_TORCHRUN"});
    } else if (launcher.state == "crashed") {
      const std::string exception = LastExceptionLine(launcher.output);
      const std::string port_line = OutputLineWith(launcher, kPortInUse);
      std::string message = fmt::format("{}: {} exited {} after {:.1f} s before starting any worker", who,
                                        Describe(launcher), launcher.exit_code, launcher.elapsed_s);
      message += exception.empty() ? " (no exception in its last output lines)" : ": " + exception;
      if (!port_line.empty()) {
        message += fmt::format("; the rendezvous port {} is taken on {} (\"{}\"): another launcher on the node, or a "
                               "leftover process, holds it",
                               launcher.master_port, report.node, port_line);
      }
      message += KnownCrashFix(launcher, exception);
      findings.push_back({"torchrun-crashed", report.node, message});
    } else if (launcher.state == "timed-out") {
      const auto& absent = across.never_joined;
      bool workers_started = false;
      for (const auto& worker : report.workers) {
        if (worker.task_rank == launcher.task_rank && worker.started) workers_started = true;
      }
      std::string message =
          fmt::format("{}: did not finish within torchrun.timeout_s={} s and was killed", who, launcher.timeout_s);
      if (!workers_started) {
        message += fmt::format(", still at the rendezvous at {}:{} (node_rank {} of {})", launcher.master_addr,
                               launcher.master_port, launcher.node_rank, launcher.nnodes);
        message += absent.empty() ? ": every node's launcher started, so the rendezvous itself is not reachable "
                                    "(Torchrun.MasterPortOpen says from where); MASTER_ADDR must be the node with "
                                    "SLURM_NODEID 0"
                                  : ": never joined: " + Join(absent, ", ");
      } else {
        const std::string error = FirstWorkerError(report, launcher.task_rank);
        message += ": its workers started and hung" + (error.empty() ? std::string() : " after " + error);
      }
      findings.push_back({"torchrun-rendezvous-timeout", report.node, message});
    } else if (launcher.state == "failed") {
      std::string error = FirstWorkerError(report, launcher.task_rank);
      if (error.empty()) error = LastExceptionLine(launcher.output);
      findings.push_back({"torchrun-workers-failed", report.node,
                          fmt::format("{}: its workers started and failed (exit {}){}", who, launcher.exit_code,
                                      error.empty() ? std::string() : ": " + error)});
    } else {
      return Errored("probe-failed", who + " could not be started: " + launcher.detail);
    }
  }
  if (findings.empty()) return result;
  CheckResult failed = Failed(std::move(findings));
  failed.measurements = std::move(result.measurements);
  return failed;
}

CheckResult CheckOneLauncherPerNode(const NodeTorchrunReport& report) {
  if (report.launchers.empty()) {
    return Errored("not-reported", report.node + ": the Torchrun probe reported no launcher on this node");
  }
  CheckResult result = Passed();
  result.measurements.push_back({report.node + ".launchers", std::to_string(report.launchers.size()), "", "== 1", ""});
  if (report.launchers.size() == 1) return result;
  std::vector<std::string> tasks;
  std::string port_line;
  for (const auto& launcher : report.launchers) {
    tasks.push_back(std::to_string(launcher.task_rank));
    if (port_line.empty()) port_line = OutputLineWith(launcher, kPortInUse);
  }
  CheckResult failed = Failed(
      {{"torchrun-duplicated", report.node,
        fmt::format("{}: {} torchrun launchers (tasks {}) where a job runs one: srun started one per task, so they "
                    "claim node_rank {} twice and fight over the rendezvous port{}; launch with srun "
                    "--ntasks-per-node=1 torchrun --nproc_per_node=<GPUs> ...",
                    report.node, report.launchers.size(), Join(tasks, ", "), report.launchers.front().node_rank,
                    port_line.empty() ? std::string() : " (\"" + port_line + "\")")}});
  failed.measurements = std::move(result.measurements);
  return failed;
}

CheckResult CheckMasterPortOpen(const NodeFacts<NodeTorchrunReport>& reports) {
  return VouchedFor(reports, JudgeMasterPortOpen(MakeView(reports)));
}

CheckResult CheckRanksConsistent(const NodeFacts<NodeTorchrunReport>& reports) {
  return VouchedFor(reports, JudgeRanksConsistent(MakeView(reports)));
}

CheckResult CheckDevicesDistinct(const NodeTorchrunReport& report) {
  std::map<std::string, std::vector<int>> ranks_by_uuid;
  bool cpu = false;
  bool any = false;
  for (const auto& worker : report.workers) {
    if (!worker.described) continue;
    any = true;
    if (worker.backend != "nccl" || worker.device == "cpu") {
      cpu = true;
      continue;
    }
    if (worker.device_uuid.empty()) {
      return Errored("not-reported", fmt::format("{}: rank {} reported no GPU UUID for {}", report.node, worker.rank,
                                                 worker.device));
    }
    ranks_by_uuid[worker.device_uuid].push_back(worker.rank);
  }
  if (!any) return Skipped("no worker ran on " + report.node + ": Torchrun.LauncherStarted says why");
  if (cpu) return Skipped("the workers run on CPUs (gloo backend): there is no GPU to hand out");
  std::vector<Finding> findings;
  for (const auto& [uuid, ranks] : ranks_by_uuid) {
    if (ranks.size() < 2) continue;
    std::vector<std::string> shown;
    for (int rank : ranks) shown.push_back(std::to_string(rank));
    findings.push_back({"gpu-shared-by-workers", report.node + "/" + uuid,
                        fmt::format("{}: ranks {} all hold {} after torch.cuda.set_device(LOCAL_RANK): "
                                    "CUDA_VISIBLE_DEVICES or the job's GPU binding hides the other GPUs; each worker "
                                    "must see all of the node's GPUs and pick its own",
                                    report.node, Join(shown, ", "), uuid)});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({report.node + ".distinct_gpus", std::to_string(ranks_by_uuid.size()), "GPUs", "", ""});
  return result;
}

CheckResult CheckCollectiveCorrect(const NodeFacts<NodeTorchrunReport>& reports, const Profile& profile,
                                   const std::optional<SweepReference>& sweep) {
  return VouchedFor(reports, JudgeCollectiveCorrect(MakeView(reports), profile, sweep));
}

CheckResult CheckSamplerShards(const NodeFacts<NodeTorchrunReport>& reports) {
  return VouchedFor(reports, JudgeSamplerShards(MakeView(reports)));
}

CheckResult CheckDataLoaderThroughput(const NodeTorchrunReport& report, const AcrossNodes& across,
                                      const Profile& profile) {
  if (!across.data_problem.empty()) return Skipped("the DataLoader was not measured: " + across.data_problem);
  if (across.no_process_group) return Skipped(*across.no_process_group);
  std::map<int, double> lowest;  // num_workers -> the node's slowest rank
  int ranks = 0;
  for (const auto& worker : report.workers) {
    if (!worker.described) continue;
    ++ranks;
    for (const auto& [workers, mb_per_s] : worker.dataload_mb_per_s) {
      auto [entry, inserted] = lowest.emplace(workers, mb_per_s);
      if (!inserted) entry->second = std::min(entry->second, mb_per_s);
    }
  }
  if (ranks == 0) return Skipped("no worker ran on " + report.node + ": Torchrun.LauncherStarted says why");
  if (!lowest.count(0) || !lowest.count(4)) {
    std::string why;
    for (const auto& worker : report.workers) {
      for (const auto& [stage, message] : worker.errors) {
        if (stage == "dataload" && why.empty()) why = fmt::format(": rank {} raised {}", worker.rank, message);
      }
    }
    return Errored("not-measured",
                   report.node + ": the DataLoader measurement (num_workers 0 and 4) did not complete" + why);
  }
  const TorchrunExpectation* torchrun = profile.Get<TorchrunExpectation>();
  const double floor = torchrun != nullptr ? torchrun->dataload_floor_mb_per_s : 0;
  const std::string source = floor > 0 ? torchrun->source : "recorded, not judged";
  CheckResult result = Passed();
  result.measurements.push_back({report.node + ".mb_per_s@num_workers=0", fmt::format("{:.1f}", lowest[0]), "MB/s", "",
                                 "per rank, slowest rank of the node"});
  result.measurements.push_back({report.node + ".mb_per_s@num_workers=4", fmt::format("{:.1f}", lowest[4]), "MB/s",
                                 floor > 0 ? fmt::format(">= {}", floor) : "", source});
  result.measurements.push_back({report.node + ".prefetch_ratio", fmt::format("{:.2f}", lowest[0] > 0 ? lowest[4] / lowest[0] : 0),
                                 "", "", "num_workers=4 over num_workers=0"});
  if (floor > 0 && lowest[4] < floor) {
    CheckResult failed = Failed(
        {{"dataload-below-floor", report.node,
          fmt::format("{}: a DataLoader with num_workers=4 read {:.1f} MB/s per rank from {}, below the floor of {} "
                      "MB/s ({}); num_workers=0 read {:.1f} MB/s: the node's path to the shared data is slow "
                      "(mount options, its NIC to the storage, the storage itself); compare with fio on this node",
                      report.node, lowest[4], report.data_dir.empty() ? "the shared data directory" : report.data_dir,
                      floor, source, lowest[0])}});
    failed.measurements = std::move(result.measurements);
    return failed;
  }
  return result;
}

CheckResult CheckCheckpointRankZero(const NodeFacts<NodeTorchrunReport>& reports) {
  return VouchedFor(reports, JudgeCheckpointRankZero(MakeView(reports)));
}

}  // namespace gpuconform::torchrun
