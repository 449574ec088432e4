#include "probes/nccl_run/nccl_run_probe.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <sys/wait.h>

#include "harness/core/process_runner.h"
#include "harness/util/record_lines.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/latency_profile.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/mpi_sweep/collective_tables.h"
#include "probes/nccl_run/nccl_run_profile.h"
#include "probes/nccl_run/nccl_run_records.h"
#include "probes/nccl_run/nccl_worker.h"
#include "probes/nccl_run/nccl_worker_death.h"
#include "probes/nccl_run/nccl_worker_protocol.h"
#include "probes/resource_limits/death_records.h"
#include "probes/resource_limits/node_limits.h"

namespace gpuconform::nccl_run {

using namespace gpuconform::allreduce_sweep;

namespace {

namespace bp = boost::process;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// GPU buffers: two per GPU of the largest size; 16 GiB is the largest floor any profile names.
constexpr long long kLargestSweepBytes = 16 * allreduce_sweep::kGiB;
constexpr long long kSmallestSweepBytes = 8 * allreduce_sweep::kMiB;
// A node's log beyond this is cut (NCCL INFO logs are tens of KiB per rank).
constexpr std::size_t kMaxLogBytes = std::size_t{16} << 20;

std::string ReadWhole(const fs::path& path, std::size_t max_bytes, bool& cut) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::string text(max_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  cut = text.size() > max_bytes;
  if (cut) text.resize(max_bytes);
  return text;
}

// One worker child and the two pipes to it.
class Worker {
 public:
  Worker(const std::string& executable, const fs::path& work_dir, bool root, const RunOptions& options) {
    SurviveBrokenPipes();  // the worker exits by itself where NCCL cannot run; "quit" then finds no reader
    std::vector<std::string> args = {kWorkerVerb, "--work-dir", work_dir.string()};
    if (root) args.push_back("--root");
    if (!options.gpu_library_dir.empty()) args.insert(args.end(), {"--library-dir", options.gpu_library_dir});
    // The child inherits this process's environment, with the NCCL settings of the run on top.
    bp::environment env = boost::this_process::environment();
    for (const auto& [name, value] : WorkerNcclEnvironment(options.nccl_environment, work_dir.string())) {
      env[name] = value;
    }
    std::error_code error;
    child_ = bp::child(executable, bp::args(args), env, bp::std_in < to_child_, bp::std_out > from_child_,
                       bp::std_err > (work_dir / kWorkerStderrName).string(), error);
    if (error) {
      start_error_ = "could not start the NCCL worker " + executable + ": " + error.message();
      return;
    }
    ::close(to_child_.native_source());
    to_child_.assign_source(-1);
    ::close(from_child_.native_sink());
    from_child_.assign_sink(-1);
  }
  ~Worker() { Stop(); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  const std::string& start_error() const { return start_error_; }

  void Send(const std::string& line) {
    const std::string text = line + "\n";
    if (to_child_.native_sink() >= 0) (void)!::write(to_child_.native_sink(), text.data(), text.size());
  }

  // Lines up to and including the first whose kind is in `until`; nullopt when the deadline
  // passed or the child closed its output first (then `lines` holds what it did say).
  std::optional<std::string> ReadUntil(const std::set<std::string>& until, std::chrono::seconds deadline,
                                       std::string& lines) {
    const auto end = Clock::now() + deadline;
    for (;;) {
      for (auto newline = pending_.find('\n'); newline != std::string::npos; newline = pending_.find('\n')) {
        const std::string line = pending_.substr(0, newline);
        pending_.erase(0, newline + 1);
        lines += line + "\n";
        const std::string kind = line.substr(0, line.find(' '));
        if (until.count(kind) > 0) return kind;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      pollfd fd{from_child_.native_source(), POLLIN, 0};
      if (::poll(&fd, 1, static_cast<int>(std::min<long long>(left, 1000))) < 0 && errno != EINTR) return std::nullopt;
      if (fd.revents == 0) continue;
      char buffer[4096];
      const ssize_t got = ::read(from_child_.native_source(), buffer, sizeof(buffer));
      if (got <= 0) {
        closed_ = true;
        return std::nullopt;
      }
      pending_.append(buffer, static_cast<std::size_t>(got));
    }
  }

  // "quit", a moment to leave (ncclCommDestroy), then SIGKILL.
  void Stop() {
    if (!start_error_.empty() || stopped_) return;
    stopped_ = true;
    Send("quit");
    ::close(to_child_.native_sink());
    to_child_.assign_sink(-1);
    std::error_code error;
    const auto end = Clock::now() + std::chrono::seconds(5);
    while (child_.running(error) && Clock::now() < end) ::usleep(20000);
    KillIfRunning();
  }

  // Kills at once: the worker is stuck inside NCCL.
  void Kill() {
    if (!start_error_.empty() || stopped_) return;
    stopped_ = true;
    KillIfRunning();
  }

  // How it ended, once stopped: by itself (its exit status or signal) or by this probe's SIGKILL.
  WorkerEnd End() const {
    WorkerEnd end;
    end.killed_by_probe = killed_;
    if (!start_error_.empty() || !stopped_ || killed_) return end;
    const int status = child_.native_exit_code();
    if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
    return end;
  }

 private:
  // A worker that already died keeps its own status (running() reaps it); only a live one is
  // this probe's to kill.
  void KillIfRunning() {
    std::error_code error;
    // One that closed its output is exiting: a moment to become reapable, so its own status counts.
    const auto end = Clock::now() + std::chrono::seconds(closed_ ? 1 : 0);
    while (closed_ && child_.running(error) && Clock::now() < end) ::usleep(5000);
    if (child_.running(error)) {
      ::kill(child_.id(), SIGKILL);
      killed_ = true;
    }
    child_.wait(error);
  }

  bp::pipe to_child_;
  bp::pipe from_child_;
  bp::child child_;
  std::string start_error_;
  std::string pending_;
  bool stopped_ = false;
  bool killed_ = false;
  bool closed_ = false;  // it closed its output: it died or is leaving
};

using Rows = std::vector<std::pair<long long, std::pair<double, long long>>>;  // size -> (time_us, wrong)

// What one node reports after its part of the run, gathered to every rank.
struct NodeReport {
  std::string host;
  std::string problem;  // empty when the sweep ran to its end
  Rows rows;
  std::optional<double> init_seconds;  // ncclCommInitRank's time on this node, where it completed
  std::vector<std::string> started;                // the collectives beyond allreduce begun, in order
  std::map<std::string, Rows> collective_rows;     // each one's rows so far
  std::map<std::string, std::string> not_measured;  // the collectives this node's NCCL lacks, and why
  std::string collectives_problem;                 // where and why the collectives stopped
  std::string log;
  std::vector<std::string> bus_ids;
  std::string nccl_version;
  std::string cuda_runtime;
  std::string deaths;  // its limits and, where its worker died, how (death_records.h lines)
};

nlohmann::json RowsJson(const Rows& rows) {
  nlohmann::json json = nlohmann::json::array();
  for (const auto& [size, result] : rows) json.push_back({size, result.first, result.second});
  return json;
}

Rows RowsFromJson(const nlohmann::json& json) {
  Rows rows;
  for (const auto& row : json) {
    rows.push_back({row[0].get<long long>(), {row[1].get<double>(), row[2].get<long long>()}});
  }
  return rows;
}

nlohmann::json ToJson(const NodeReport& report) {
  nlohmann::json collective_rows = nlohmann::json::object();
  for (const auto& [name, rows] : report.collective_rows) collective_rows[name] = RowsJson(rows);
  return {{"host", report.host}, {"problem", report.problem}, {"rows", RowsJson(report.rows)}, {"log", report.log},
          {"bus_ids", report.bus_ids}, {"nccl", report.nccl_version}, {"cuda", report.cuda_runtime},
          {"deaths", report.deaths},
          {"init_s", report.init_seconds ? nlohmann::json(*report.init_seconds) : nlohmann::json()},
          {"started", report.started}, {"collective_rows", collective_rows}, {"not_measured", report.not_measured},
          {"collectives_problem", report.collectives_problem}};
}

NodeReport FromJson(const nlohmann::json& j) {
  NodeReport report;
  report.host = j.at("host").get<std::string>();
  report.problem = j.at("problem").get<std::string>();
  report.rows = RowsFromJson(j.at("rows"));
  if (j.contains("init_s") && j.at("init_s").is_number()) report.init_seconds = j.at("init_s").get<double>();
  report.started = j.value("started", std::vector<std::string>());
  if (j.contains("collective_rows")) {
    for (const auto& [name, rows] : j.at("collective_rows").items()) report.collective_rows[name] = RowsFromJson(rows);
  }
  report.not_measured = j.value("not_measured", std::map<std::string, std::string>());
  report.collectives_problem = j.value("collectives_problem", std::string());
  report.log = j.at("log").get<std::string>();
  report.bus_ids = j.at("bus_ids").get<std::vector<std::string>>();
  report.nccl_version = j.at("nccl").get<std::string>();
  report.cuda_runtime = j.at("cuda").get<std::string>();
  report.deaths = j.value("deaths", std::string());
  return report;
}

std::string Dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::vector<std::string> GuardedAllGather(const CollectiveContext& context, const std::string& mine,
                                          const std::string& step) {
  const auto timeout = std::chrono::seconds(context.options.collective_timeout_s) * 3;
  return context.world.AllGather(mine, {"the NCCL run's " + step + " exchange", timeout});
}

// A table's header: every node's GPUs as ranks, node by node, under `what` ("allreduce (float, sum)").
std::string TableHeader(const std::vector<NodeReport>& reports, const std::string& what) {
  std::vector<allreduce_sweep::SweepRank> ranks;
  for (const auto& report : reports) {
    for (std::size_t g = 0; g < report.bus_ids.size(); ++g) {
      ranks.push_back({report.host, static_cast<int>(g), "[" + report.bus_ids[g] + "]"});
    }
  }
  const std::string title = fmt::format("gpuconform NCCL {} on GPU buffers, NCCL {}, CUDA {}", what,
                                        reports.front().nccl_version, reports.front().cuda_runtime);
  return allreduce_sweep::SweepTableHeader(title, ranks, static_cast<int>(reports.size()));
}

// A table's rows, from every node's rows (`rows_of` picks them): the slowest node's time is the
// collective's, wrong elements add up; only sizes every node measured are rows.
template <typename RowsOf, typename FormatRow>
std::string TableRows(const std::vector<NodeReport>& reports, RowsOf rows_of, FormatRow format_row) {
  std::string text;
  const Rows& first = rows_of(reports.front());
  for (std::size_t i = 0; i < first.size(); ++i) {
    const long long size = first[i].first;
    double time_us = 0;
    long long wrong = 0;
    for (const auto& report : reports) {
      const Rows& rows = rows_of(report);
      if (i >= rows.size() || rows[i].first != size) return text;
      time_us = std::max(time_us, rows[i].second.first);
      wrong += rows[i].second.second;
    }
    text += format_row(size, time_us, wrong);
  }
  return text;
}

// The sweep table (cluster/nccl-allreduce.txt), with every node's limits and deaths.
std::string TableText(const std::vector<NodeReport>& reports, int nranks) {
  std::string text = TableHeader(reports, "allreduce (float, sum)");
  text += TableRows(
      reports, [](const NodeReport& report) -> const Rows& { return report.rows; },
      [nranks](long long size, double time_us, long long wrong) {
        return allreduce_sweep::SweepTableRow(size, time_us, nranks, wrong);
      });
  for (const auto& report : reports) text += report.deaths;
  return text;
}

// cluster/nccl-collectives.txt (nccl_run_records.h): what was not measured and why, then a
// table for each collective the run began.
std::string CollectivesText(const std::vector<NodeReport>& reports, const std::vector<std::string>& collectives,
                            int nranks) {
  std::string text;
  std::set<std::string> said;
  for (const auto& report : reports) {
    for (const auto& [name, reason] : report.not_measured) {
      if (said.insert(name).second) text += NotMeasuredComment(name, report.host + ": " + reason);
    }
  }
  const double busbw_factor = allreduce_sweep::CollectiveBusBandwidth(1.0, nranks);
  static const Rows kNone;
  for (const std::string& name : collectives) {
    const auto definition = allreduce_sweep::FindCollective(name);
    const bool begun = std::any_of(reports.begin(), reports.end(), [&](const NodeReport& report) {
      return std::find(report.started.begin(), report.started.end(), name) != report.started.end();
    });
    if (!definition || !begun || said.count(name) > 0) continue;
    // A collective that stopped before its first row has no table; the output's detail says where.
    const std::string rows = TableRows(
        reports,
        [&](const NodeReport& report) -> const Rows& {
          const auto found = report.collective_rows.find(name);
          return found == report.collective_rows.end() ? kNone : found->second;
        },
        [&](long long size, double time_us, long long wrong) {
          return allreduce_sweep::CollectiveTableRow(size, time_us, definition->redop, busbw_factor, wrong);
        });
    if (!rows.empty()) text += mpi_sweep::CollectiveMarkerLine(name) + TableHeader(reports, name + " (float)") + rows;
  }
  return text;
}

// The collectives beyond allreduce, after the sweep, each at the profile's sizes rounded to a
// whole block per rank; a collective this NCCL lacks is noted and skipped. Stops at the first
// error or deadline, saying which collective and size.
void MeasureCollectives(Worker& worker, const CollectiveContext& context, int nranks, NodeReport& report,
                        std::string& error_reason) {
  const std::chrono::seconds timeout(context.options.collective_timeout_s);
  const std::string origin = context.host + ": gpuconform's NCCL run";
  const std::vector<long long> sizes = NcclCollectiveSizes(context.profile, context.options);
  for (const std::string& name : NcclCollectivesWithFloors(context.profile)) {
    report.started.push_back(name);
    long long previous = 0;
    for (long long requested : sizes) {
      const long long size = allreduce_sweep::CollectiveSizeBytes(requested, nranks);
      if (size == previous) continue;
      previous = size;
      IterationPlan iterations = PlanIterations(size);
      iterations.iterations = allreduce_sweep::TimedIterations(iterations.iterations, context.options.allreduce_iters);
      worker.Send(MeasureLine(size, iterations, name));
      std::string lines;
      const auto said = worker.ReadUntil({"row", "error", "not-measured"}, timeout, lines);
      const auto records = ParseRecordLines(lines, origin);
      const RecordLine* last = records && !records->empty() ? &records->back() : nullptr;
      if (said && *said == "row" && last != nullptr) {
        report.collective_rows[name].push_back(
            {size, {WholeNumber(last->Get("time_us")).value_or(0), WholeInteger(last->Get("wrong")).value_or(0)}});
        continue;
      }
      if (said && *said == "not-measured" && last != nullptr) {
        report.not_measured[name] = last->Get("reason");
        break;
      }
      if (said && last != nullptr) {
        error_reason = last->Get("reason");
        report.collectives_problem =
            fmt::format("{}: the NCCL {} of {} B failed: {}", context.host, name, size, error_reason);
      } else {
        report.collectives_problem = fmt::format(
            "{}: the NCCL {} of {} B did not complete within {} s: a node stopped progressing, a link is down, or "
            "the fabric is far slower than expected (GPUCONFORM_COLLECTIVE_TIMEOUT_S sets the deadline)",
            context.host, name, size, timeout.count());
      }
      return;
    }
  }
}

// cluster/nccl-collectives.txt: failed where the run stopped before or during the collectives
// (with the tables so far), not measured where the profile names none.
RawOutput CollectivesOutput(const CollectiveContext& context, const std::vector<NodeReport>& reports, int nranks,
                            const std::string& sweep_problems) {
  const std::string origin = context.host + ": gpuconform's NCCL run (collectives)";
  const std::vector<std::string> collectives = NcclCollectivesWithFloors(context.profile);
  if (collectives.empty()) {
    return {ProbeStatus::kToolMissing, "", origin,
            context.host + ": not measured: the profile sets no nccl_collectives floor"};
  }
  RawOutput out{ProbeStatus::kOk, CollectivesText(reports, collectives, nranks), origin, ""};
  std::string problems;
  for (const auto& report : reports) {
    if (!report.collectives_problem.empty()) problems += (problems.empty() ? "" : "; ") + report.collectives_problem;
  }
  if (!sweep_problems.empty()) {
    problems = "not measured: the NCCL run stopped in its allreduce sweep, before the collectives: " + sweep_problems;
  }
  out.status = problems.empty() ? ProbeStatus::kOk : ProbeStatus::kFailed;
  out.detail = problems;
  return out;
}

// cluster/nccl-init.txt: every node's ncclCommInitRank time, or why it has none.
RawOutput InitOutput(const CollectiveContext& context, const std::vector<NodeReport>& reports) {
  RawOutput out;
  out.origin = context.host + ": gpuconform's NCCL run (communicator init)";
  std::vector<NodeInit> nodes;
  std::string problems;
  for (const auto& report : reports) {
    NodeInit node{report.host, report.init_seconds, ""};
    if (!node.seconds) {
      node.problem = report.problem.empty() ? "the worker said no init time" : report.problem;
      problems += (problems.empty() ? "" : "; ") + node.problem;
    }
    nodes.push_back(std::move(node));
  }
  out.text = FormatNcclInit(nodes);
  out.status = problems.empty() ? ProbeStatus::kOk : ProbeStatus::kFailed;
  out.detail = problems;
  return out;
}

NcclRunOutputs Unavailable(const CollectiveContext& context, ProbeStatus status, const std::string& detail,
                           const std::string& node_reason) {
  NcclRunOutputs outputs;
  const std::string origin = context.host + ": gpuconform's NCCL run";
  outputs.allreduce = {status, "", origin, detail};
  outputs.debug_log = {status, "", origin, detail};
  outputs.collectives = {status, "", origin, detail};
  outputs.init = {status, "", origin, detail};
  outputs.topology = {status, "", origin, context.host + ": " + node_reason};
  return outputs;
}

}  // namespace

NcclRunOutputs RunNccl(const CollectiveContext& context, const std::string& executable) {
  const std::chrono::seconds timeout(context.options.collective_timeout_s);
  const std::string origin = context.host + ": gpuconform's NCCL run";
  // Step 1: every node's worker starts and says whether it can run (the root also makes the id).
  std::optional<Worker> worker;
  fs::path work_dir;
  std::string ready_text;
  if (context.node_owner) {
    std::string pattern = (fs::temp_directory_path() / "gpuconform-nccl-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      ready_text = FormatRecord("unavailable", {{"reason", "cannot create a work directory in " +
                                                               fs::temp_directory_path().string()}});
    } else {
      work_dir = pattern;
      worker.emplace(executable, work_dir, context.world.is_root(), context.options);
      if (!worker->start_error().empty()) {
        ready_text = FormatRecord("unavailable", {{"reason", worker->start_error()}});
      } else {
        const std::set<std::string> first = context.world.is_root() ? std::set<std::string>{"unique-id", "unavailable", "error"}
                                                                    : std::set<std::string>{"ready", "unavailable", "error"};
        if (!worker->ReadUntil(first, timeout, ready_text)) {
          ready_text += FormatRecord("error", {{"reason", "the NCCL worker did not say whether it can run within " +
                                                              std::to_string(timeout.count()) + " s"}}) + "\n";
        }
      }
    }
  }
  std::vector<WorkerReady> nodes;
  std::string my_reason;
  bool my_worker_failed = false;
  const auto gathered = GuardedAllGather(context, context.node_owner ? Dump({{"host", context.host}, {"ready", ready_text}}) : "",
                                         "readiness");
  for (const auto& part : gathered) {
    if (part.empty()) continue;
    const auto j = nlohmann::json::parse(part);
    const std::string host = j.at("host").get<std::string>();
    auto ready = ParseWorkerReady(j.at("ready").get<std::string>(), host);
    WorkerReady node;
    if (ready) {
      node = *ready;
    } else {
      node.host = host;
      node.reason = ready.error();
      node.failed = true;
    }
    if (host == context.host) {
      my_reason = node.available ? "" : node.reason;
      my_worker_failed = node.failed;
    }
    nodes.push_back(std::move(node));
  }
  const PlanOrProblem planned = PlanRun(nodes);
  if (!planned.plan) {
    if (worker && my_worker_failed) worker->Kill();  // it did not answer: it will not hear "quit"
    if (worker) worker->Stop();
    std::error_code error;
    if (!work_dir.empty()) fs::remove_all(work_dir, error);
    return Unavailable(context, planned.problem.all_unavailable ? ProbeStatus::kToolMissing : ProbeStatus::kFailed,
                       planned.problem.detail,
                       my_reason.empty() ? "NCCL did not run on every node: " + planned.problem.detail : my_reason);
  }
  const RunPlan& plan = *planned.plan;

  // Step 2: init and the sweep, each answer under the deadline.
  NodeReport report;
  report.host = context.host;
  RawOutput topology{ProbeStatus::kFailed, "", context.host + ": NCCL_TOPO_DUMP_FILE of gpuconform's NCCL run", ""};
  if (context.node_owner) {
    for (const auto& node : nodes) {
      if (node.host != context.host) continue;
      report.bus_ids = node.bus_ids;
      report.nccl_version = node.nccl_version;
      report.cuda_runtime = node.cuda_runtime;
    }
    int first_rank = 0;
    for (const auto& node : plan.nodes) {
      if (node.host == context.host) first_rank = node.first_rank;
    }
    // This node's limits as its worker sees them (the same mounts, rlimits and cgroup), before
    // NCCL can die of one of them (nccl_worker_death.h).
    report.deaths = resource_limits::NodeLimitsLine(context.host, resource_limits::MeasureNodeLimits());
    std::string error_reason;
    std::string lines;
    worker->Send(InitLine(plan, first_rank));
    const auto init_deadline = timeout * 2;  // NCCL's bootstrap and IB setup across many nodes
    auto said = worker->ReadUntil({"initialized", "error"}, init_deadline, lines);
    if (said && *said == "error") error_reason = ParseRecordLines(lines, origin).value().back().Get("reason");
    if (said && *said == "initialized") {
      const auto records = ParseRecordLines(lines, origin);
      if (records && !records->empty()) report.init_seconds = WholeNumber(records->back().Get("seconds"));
    }
    if (!said || *said == "error") {
      report.problem = said ? context.host + ": " + error_reason
                            : context.host + ": NCCL communicator init (ncclCommInitRank on " +
                                  std::to_string(report.bus_ids.size()) + " GPU(s)) did not complete within " +
                                  std::to_string(init_deadline.count()) +
                                  " s: another node failed, or the bootstrap network cannot reach the root "
                                  "(NCCL_SOCKET_IFNAME?)";
    }
    // The latency band (8 B to 64 KiB, AllreduceBandwidth's NcclSmallMessageLatency), then
    // the bandwidth sizes from 8 MiB.
    std::vector<long long> sizes = allreduce_sweep::LatencySizes();
    for (long long size : allreduce_sweep::SweepSizes(context.profile, kSmallestSweepBytes, kLargestSweepBytes,
                                                      context.options.allreduce_max_bytes)) {
      if (size > sizes.back()) sizes.push_back(size);
    }
    for (long long size : sizes) {
      if (!report.problem.empty()) break;
      lines.clear();
      IterationPlan iterations = PlanIterations(size);
      iterations.iterations = allreduce_sweep::TimedIterations(iterations.iterations, context.options.allreduce_iters);
      worker->Send(MeasureLine(size, iterations));
      said = worker->ReadUntil({"row", "error"}, timeout, lines);
      auto records = ParseRecordLines(lines, origin);
      if (said && *said == "row" && records && !records->empty()) {
        const RecordLine& row = records->back();
        report.rows.push_back({size,
                               {WholeNumber(row.Get("time_us")).value_or(0), WholeInteger(row.Get("wrong")).value_or(0)}});
      } else if (said && records && !records->empty()) {
        error_reason = records->back().Get("reason");
        report.problem = context.host + ": " + error_reason;
      } else {
        report.problem = fmt::format("{}: the NCCL allreduce of {} B did not complete within {} s: a node stopped "
                                     "progressing, a link is down, or the fabric is far slower than expected "
                                     "(GPUCONFORM_COLLECTIVE_TIMEOUT_S sets the deadline)",
                                     context.host, size, timeout.count());
      }
    }
    if (report.problem.empty()) MeasureCollectives(*worker, context, plan.nranks, report, error_reason);
    if (report.problem.empty() && report.collectives_problem.empty()) {
      worker->Stop();
    } else {
      worker->Kill();
    }
    bool cut = false;
    report.log = ReadWhole(work_dir / kDebugLogName, kMaxLogBytes, cut);
    if (cut) report.log += "\n# gpuconform: this node's log was cut at 16 MiB\n";
    WorkerEnd end = worker->End();
    end.error_reason = error_reason;
    bool stderr_cut = false;
    const std::string worker_stderr = ReadWhole(work_dir / kWorkerStderrName, kMaxLogBytes, stderr_cut);
    if (auto death = NcclWorkerDeath(end, worker_stderr, report.log)) {
      report.deaths += resource_limits::DeathLines({{context.host, *death}});
    }
    topology.text = ReadWhole(work_dir / kTopologyDumpName, kMaxLogBytes, cut);
    if (!topology.text.empty()) {
      topology.status = ProbeStatus::kOk;
    } else {
      topology.detail = context.host + ": NCCL wrote no NCCL_TOPO_DUMP_FILE" +
                        (report.problem.empty() ? std::string() : " (the run failed: " + report.problem + ")");
    }
    std::error_code error;
    fs::remove_all(work_dir, error);
  }

  // Step 3: every node's report to every rank; rank 0's outputs are the cluster's.
  std::vector<NodeReport> reports;
  for (const auto& part : GuardedAllGather(context, context.node_owner ? Dump(ToJson(report)) : "", "results")) {
    if (!part.empty()) reports.push_back(FromJson(nlohmann::json::parse(part)));
  }
  NcclRunOutputs outputs;
  outputs.topology = std::move(topology);
  std::string problems;
  std::string log;
  for (const auto& node : reports) {
    if (!node.problem.empty()) problems += (problems.empty() ? "" : "; ") + node.problem;
    log += node.log;
  }
  outputs.allreduce.origin = origin;
  outputs.allreduce.text = TableText(reports, plan.nranks);
  outputs.allreduce.status = problems.empty() ? ProbeStatus::kOk : ProbeStatus::kFailed;
  outputs.allreduce.detail = problems;
  outputs.collectives = CollectivesOutput(context, reports, plan.nranks, problems);
  outputs.init = InitOutput(context, reports);
  outputs.debug_log.origin = context.host + ": NCCL_DEBUG_FILE of gpuconform's NCCL run (every node)";
  outputs.debug_log.text = log;
  outputs.debug_log.status = log.empty() ? ProbeStatus::kFailed : ProbeStatus::kOk;
  if (log.empty()) outputs.debug_log.detail = "NCCL wrote no INFO log" + (problems.empty() ? "" : ": " + problems);
  return outputs;
}

const NcclRunOutputs& SharedNcclRun(const CollectiveContext& context) {
  static std::optional<NcclRunOutputs> outputs;
  if (!outputs) {
    std::error_code error;
    outputs = RunNccl(context, fs::read_symlink("/proc/self/exe", error).string());
  }
  return *outputs;
}

ProbeSpec NcclCollectivesProbe() {
  ProbeSpec spec = CollectiveProbe("nccl-collectives", "nccl-collectives.txt",
                                   [](const CollectiveContext& context) { return SharedNcclRun(context).collectives; });
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

ProbeSpec NcclInitProbe() {
  ProbeSpec spec = CollectiveProbe("nccl-init", "nccl-init.txt",
                                   [](const CollectiveContext& context) { return SharedNcclRun(context).init; });
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

ProbeSpec NcclAllreduceProbe() {
  ProbeSpec spec = CollectiveProbe("nccl-allreduce", "nccl-allreduce.txt",
                                   [](const CollectiveContext& context) { return SharedNcclRun(context).allreduce; });
  spec.scope = ProbeScope::kCluster;
  return Active(spec);
}

}  // namespace gpuconform::nccl_run
