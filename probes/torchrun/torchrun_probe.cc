#include "probes/torchrun/torchrun_probe.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "harness/core/process_runner.h"
#include "harness/core/run_options.h"
#include "harness/core/termination.h"
#include "harness/util/record_lines.h"
#include "harness/util/tcp_probe.h"
#include "harness/util/text_util.h"
#include "probes/checkpoint_writer/checkpoint_profile.h"
#include "probes/resource_limits/node_limits.h"
#include "probes/torchrun/torchrun_profile.h"

namespace gpuconform::torchrun {

namespace {

namespace fs = std::filesystem;
using Fields = std::vector<std::pair<std::string, std::string>>;

constexpr const char* kRankStopped =
    "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server)";
constexpr auto kConnectTimeout = std::chrono::milliseconds(3000);
constexpr int kDefaultCpuWorkers = 2;
constexpr std::size_t kOutputLinesKept = 40;
constexpr std::size_t kOutputLineChars = 400;

// What every rank agrees on before anything starts.
struct Plan {
  std::string skipped;  // non-empty: the probe does not run (the same on every rank)
  std::string command;
  std::string command_origin;
  int nnodes = 1;
  int nproc_per_node = kDefaultCpuWorkers;
  int node_rank = 0;
  std::string backend = "gloo";
  std::string master_addr;
  std::string master_origin;  // "MASTER_ADDR", "PRIMARY_ADDR" or "derived"
  int master_port = 0;
  std::string master_host;    // the host with node rank 0 (it hosts the static rendezvous)
  std::string data_dir;       // the per-run directory on shared storage; empty: none
  std::string data_origin;
  int timeout_s = 60;
  long long size_bytes = 1 << 20;
};

std::string Line(const std::string& kind, const Fields& fields) { return FormatRecord(kind, fields) + "\n"; }

std::string RandomHex() {
  std::random_device device;
  std::ostringstream text;
  text << std::hex << device() << device();
  return text.str();
}

// A port nobody listens on now, found by binding port 0.
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  int port = 0;
  socklen_t length = sizeof(address);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

// The rendezvous port held open on the node that hosts it, as torchrun's store would hold it.
class PortHold {
 public:
  explicit PortHold(int port) {
    fd_ = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int off = 0;
    int on = 1;
    if (fd_ >= 0) {
      ::setsockopt(fd_, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
      ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));  // as c10d's TCPStore does
    }
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_port = htons(static_cast<uint16_t>(port));
    address.sin6_addr = in6addr_any;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(fd_, 128) != 0) {
      in_use_ = errno == EADDRINUSE;
      problem_ = std::string(std::strerror(errno)) + " (errno " + std::to_string(errno) + ")";
    }
  }
  ~PortHold() {
    if (fd_ >= 0) ::close(fd_);
  }
  PortHold(const PortHold&) = delete;
  PortHold& operator=(const PortHold&) = delete;
  bool held() const { return problem_.empty(); }
  bool in_use() const { return in_use_; }
  const std::string& problem() const { return problem_; }

 private:
  int fd_ = -1;
  bool in_use_ = false;
  std::string problem_;
};

// torch's and Python's versions as the launcher's own interpreter reports them (its #! line),
// for the message of a launcher that crashed before any worker said.
std::pair<std::string, std::string> LauncherVersions(const std::string& launcher) {
  std::ifstream file(launcher);
  std::string first;
  if (!std::getline(file, first) || !first.starts_with("#!") || first.find("python") == std::string::npos) return {};
  std::istringstream words(first.substr(2));
  std::vector<std::string> argv;
  for (std::string word; words >> word;) argv.push_back(word);
  if (argv.empty()) return {};
  if (argv.front().ends_with("/env") && argv.size() > 1) argv.erase(argv.begin());
  argv.push_back("-c");
  argv.push_back("import sys, torch; print(torch.__version__, sys.version.split()[0])");
  const CommandResult result = RunCommand(argv, std::chrono::seconds(30));
  std::istringstream out(result.stdout_text);
  std::string torch_version, python_version;
  if (!result.Succeeded() || !(out >> torch_version >> python_version)) return {};
  return {torch_version, python_version};
}

std::vector<std::string> LastLines(const std::string& text, std::size_t count) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (Trim(line).empty()) continue;  // torchrun's banner spacing
    if (line.size() > kOutputLineChars) line = line.substr(0, kOutputLineChars) + "...";
    lines.push_back(line);
  }
  if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<long>(count));
  return lines;
}

Plan MakePlan(const CollectiveContext& context) {
  Plan plan;
  const RunOptions& options = context.options;
  const Profile* profile = context.profile;
  const TorchrunExpectation* section = profile != nullptr ? profile->Get<TorchrunExpectation>() : nullptr;
  if (section == nullptr) {
    plan.skipped = "the profile has no torchrun section";
  }
  const TorchrunExpectation expect = section != nullptr ? *section : TorchrunExpectation{};
  const bool gpus = profile != nullptr && profile->ExpectsGpus();
  plan.command = !options.torchrun_command.empty() ? options.torchrun_command : expect.command;
  plan.command_origin = !options.torchrun_command.empty()   ? "GPUCONFORM_TORCHRUN"
                        : plan.command != TorchrunExpectation{}.command ? "the profile's torchrun.command"
                                                                        : "the default, on PATH";
  plan.backend = !expect.backend.empty() ? expect.backend : gpus ? "nccl" : "gloo";
  plan.nproc_per_node = expect.nproc_per_node > 0 ? expect.nproc_per_node
                        : gpus && profile->gpu->count_per_node > 0 ? profile->gpu->count_per_node
                                                                   : kDefaultCpuWorkers;
  plan.timeout_s = expect.timeout_s;
  plan.size_bytes = expect.allreduce_size_bytes;
  return plan;
}

// The shared directory the workers read data from and checkpoint into: the Checkpoint suite's
// target, found the same way.
std::pair<std::string, std::string> DataTarget(const CollectiveContext& context) {
  const RunOptions& options = context.options;
  std::error_code error;
  if (!options.checkpoint_dir.empty()) return {options.checkpoint_dir, "--checkpoint-dir / GPUCONFORM_CHECKPOINT_DIR"};
  const auto* checkpoint =
      context.profile != nullptr ? context.profile->Get<checkpoint::CheckpointExpectation>() : nullptr;
  if (checkpoint != nullptr && !checkpoint->dir.empty()) {
    return {checkpoint->dir, "the profile's checkpoint.dir"};
  }
  if (!options.slurm_submit_dir.empty() && fs::is_directory(options.slurm_submit_dir + "/checkpoints", error)) {
    return {options.slurm_submit_dir + "/checkpoints", "$SLURM_SUBMIT_DIR/checkpoints"};
  }
  return {"", ""};
}

// Every rank's view: "host<TAB>slurm_nodeid<TAB>free_port<TAB>data_dir<TAB>data_origin".
void AgreeOnRendezvous(const CollectiveContext& context, Plan& plan, std::string& data_problem) {
  std::string data_dir, data_origin;
  if (context.world.is_root() && plan.skipped.empty()) {
    const auto [target, origin] = DataTarget(context);
    std::error_code error;
    if (target.empty()) {
      data_problem = "no shared data directory: pass --checkpoint-dir DIR, set checkpoint.dir in the profile, or "
                     "create $SLURM_SUBMIT_DIR/checkpoints";
    } else if (!fs::is_directory(target, error)) {
      data_problem = "the data directory " + target + " (from " + origin + ") does not exist";
    } else {
      data_dir = target + "/gpuconform-torchrun-" + context.host + "-" + std::to_string(::getpid()) + "-" + RandomHex();
      if (!fs::create_directory(data_dir, error)) {
        data_problem = "cannot create " + data_dir + ": " + error.message();
        data_dir.clear();
      } else {
        data_origin = origin;
        RegisterRunDirectory(data_dir);
      }
    }
  }
  const std::string mine = context.host + "\t" + context.options.slurm_node_id + "\t" + std::to_string(FreePort()) +
                           "\t" + data_dir + "\t" + data_origin + "\t" + data_problem;
  const auto everyone = context.world.AllGather(
      mine, {"the exchange of the Torchrun suite's rendezvous", std::chrono::seconds(context.options.collective_timeout_s),
             kRankStopped});
  // Node ranks: SLURM_NODEID where Slurm set it, else the order in which hosts first appear.
  std::vector<std::string> hosts;
  std::map<std::string, std::string> node_id_of;
  std::map<std::string, int> port_of;
  for (std::size_t rank = 0; rank < everyone.size(); ++rank) {
    std::vector<std::string> parts = SplitOn(everyone[rank], '\t');
    parts.resize(6);
    if (std::find(hosts.begin(), hosts.end(), parts[0]) == hosts.end()) {
      hosts.push_back(parts[0]);
      node_id_of[parts[0]] = parts[1];
      port_of[parts[0]] = std::atoi(parts[2].c_str());
    }
    if (rank == 0) {
      data_dir = parts[3];
      data_origin = parts[4];
      data_problem = parts[5];
    }
  }
  plan.nnodes = static_cast<int>(hosts.size());
  auto node_rank_of = [&](const std::string& host) {
    const std::string& id = node_id_of[host];
    if (!id.empty()) return std::atoi(id.c_str());
    return static_cast<int>(std::find(hosts.begin(), hosts.end(), host) - hosts.begin());
  };
  plan.node_rank = node_rank_of(context.host);
  for (const auto& host : hosts) {
    if (node_rank_of(host) == 0 && plan.master_host.empty()) plan.master_host = host;
  }
  if (plan.master_host.empty() && !hosts.empty()) plan.master_host = hosts.front();
  const RunOptions& options = context.options;
  if (!options.master_addr.empty()) {
    plan.master_addr = options.master_addr;
    plan.master_origin = "MASTER_ADDR";
    for (const auto& [name, value] : options.launch_environment) {
      if (name == "MASTER_ADDR") break;
      if (name == "PRIMARY_ADDR") plan.master_origin = "PRIMARY_ADDR";
    }
  } else {
    plan.master_addr = plan.master_host;
    plan.master_origin = "derived";
  }
  plan.master_port = !options.master_port.empty() ? std::atoi(options.master_port.c_str()) : port_of[plan.master_host];
  plan.data_dir = data_dir;
  plan.data_origin = data_origin;
}

// The port check's records of this rank, and whether the rendezvous can work at all: a port
// in use on the hosting node, or unreachable from any node, would leave every launcher waiting
// until its deadline, so the launch is not started and MasterPortOpen names the cause.
struct PortOutcome {
  std::string records;
  std::string blocked;  // non-empty: why the launch is not started (the same on every rank)
};

PortOutcome PortStage(const CollectiveContext& context, const Plan& plan) {
  std::string out;
  std::string problem;
  std::optional<PortHold> hold;
  const bool hosts_rendezvous = context.node_owner && context.host == plan.master_host;
  if (hosts_rendezvous) {
    hold.emplace(plan.master_port);
    Fields fields = {{"role", "host"}, {"host", context.host}, {"port", std::to_string(plan.master_port)},
                     {"state", hold->held() ? "free" : hold->in_use() ? "in-use" : "error"}};
    if (!hold->held()) {
      fields.emplace_back("detail", hold->problem());
      problem = "MASTER_PORT " + std::to_string(plan.master_port) + " cannot be bound on " + context.host;
    }
    out += Line("port", fields);
  }
  context.world.SleepingBarrier({"the Torchrun suite's port check (listen)",
                                 std::chrono::seconds(context.options.collective_timeout_s), kRankStopped});
  if (context.node_owner && !hosts_rendezvous) {
    const TcpProbeResult connected = TcpConnect(plan.master_addr, plan.master_port, kConnectTimeout);
    Fields fields = {{"role", "client"}, {"host", context.host}, {"addr", plan.master_addr},
                     {"port", std::to_string(plan.master_port)},
                     {"state", connected.connected ? "reachable" : "unreachable"}};
    if (!connected.connected) {
      fields.emplace_back("detail", connected.error);
      problem = context.host + " cannot connect to " + plan.master_addr + ":" + std::to_string(plan.master_port);
    }
    out += Line("port", fields);
  }
  const auto everyone = context.world.AllGather(
      problem, {"the Torchrun suite's port check (connect)", std::chrono::seconds(context.options.collective_timeout_s),
                kRankStopped});
  std::vector<std::string> problems;
  for (const auto& entry : everyone) {
    if (!entry.empty()) problems.push_back(entry);
  }
  return {out, problems.empty() ? "" : Join(problems, "; ")};  // the hold ends here: torchrun's store takes the port
}

// The worker's record files, each line given the rank that wrote it; a file the parser
// refuses is kept as one `unreadable` record, so a worker that wrote garbage is named.
std::string WorkerRecords(const std::string& out_dir, int task_rank) {
  std::string out;
  std::error_code error;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(out_dir, error)) {
    if (entry.path().filename().string().starts_with("rank-")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string rank = file.stem().string().substr(5);
    const auto records = ParseRecordLines(text.str(), file.filename().string());
    if (!records) {
      out += Line("unreadable", {{"task_rank", std::to_string(task_rank)}, {"rank", rank}, {"problem", records.error()}});
      continue;
    }
    for (const auto& record : *records) {
      Fields fields = {{"task_rank", std::to_string(task_rank)}, {"rank", rank}};
      for (const auto& [key, value] : record.fields) {
        if (key != "rank" && key != "task_rank") fields.emplace_back(key, value);
      }
      out += Line("w-" + record.kind, fields);
    }
  }
  return out;
}

// What a launcher record says before it states how the launch went.
Fields LauncherFields(const CollectiveContext& context, const Plan& plan) {
  return {{"task_rank", std::to_string(context.world.rank())},
          {"host", context.host},
          {"command", plan.command},
          {"command_origin", plan.command_origin},
          {"nnodes", std::to_string(plan.nnodes)},
          {"nproc_per_node", std::to_string(plan.nproc_per_node)},
          {"node_rank", std::to_string(plan.node_rank)},
          {"slurm_nodeid", context.options.slurm_node_id},
          {"master_addr", plan.master_addr},
          {"master_origin", plan.master_origin},
          {"master_port", std::to_string(plan.master_port)},
          {"master_host", plan.master_host},
          {"backend", plan.backend},
          {"timeout_s", std::to_string(plan.timeout_s)}};
}

std::string LaunchStage(const CollectiveContext& context, const Plan& plan) {
  const int task_rank = context.world.rank();
  Fields launcher = LauncherFields(context, plan);
  const std::optional<std::string> found = FindOnPath(plan.command);
  if (!found) {
    launcher.emplace_back("state", "missing");
    launcher.emplace_back("detail", plan.command + " (from " + plan.command_origin + ") is not on PATH or not executable");
    return Line("launcher", launcher);
  }
  const std::string& resolved = *found;
  launcher[2].second = resolved;
  std::error_code error;
  const fs::path work = fs::path(TemporaryDirectory()) /
                        ("gpuconform-torchrun-" + std::to_string(::getpid()) + "-" + RandomHex());
  fs::create_directories(work, error);
  RegisterRunDirectory(work.string());
  const fs::path worker = work / "torchrun_worker.py";
  {
    std::ofstream script(worker);
    script << WorkerScript();
  }
  if (error || !fs::exists(worker)) {
    launcher.emplace_back("state", "error");
    launcher.emplace_back("detail", "cannot write the worker into " + work.string());
    return Line("launcher", launcher);
  }
  std::vector<std::string> argv = {"env",
                                   "GPUCONFORM_TORCHRUN_OUT=" + work.string(),
                                   "GPUCONFORM_TORCHRUN_BACKEND=" + plan.backend,
                                   "GPUCONFORM_TORCHRUN_TIMEOUT_S=" + std::to_string(plan.timeout_s),
                                   "GPUCONFORM_TORCHRUN_SIZES=" + std::to_string(plan.size_bytes),
                                   "GPUCONFORM_TORCHRUN_DATA_DIR=" + plan.data_dir,
                                   "GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS=" + context.options.torchrun_checkpoint_writers,
                                   "OMP_NUM_THREADS=1"};
  // Pin the backend's sockets to the fabric as a site's job script does, unless the user did.
  const std::string fabric =
      context.profile != nullptr && context.profile->nccl ? context.profile->nccl->socket_ifname : "";
  if (context.options.gloo_socket_ifname.empty() && !fabric.empty()) argv.push_back("GLOO_SOCKET_IFNAME=" + fabric);
  if (!context.options.nccl_environment.count("NCCL_SOCKET_IFNAME") && !fabric.empty()) {
    argv.push_back("NCCL_SOCKET_IFNAME=" + fabric);
  }
  if (plan.backend == "nccl" && !context.options.nccl_environment.count("NCCL_DEBUG")) {
    argv.push_back("NCCL_DEBUG=INFO");
  }
  if (plan.backend == "nccl" && !context.options.nccl_environment.count("NCCL_DEBUG_FILE")) {
    argv.push_back("NCCL_DEBUG_FILE=" + (work / "nccl.%h.%p.log").string());  // each worker reads its own
  }
  for (const std::string& word : std::vector<std::string>{resolved, "--nnodes=" + std::to_string(plan.nnodes), "--nproc_per_node=" + std::to_string(plan.nproc_per_node),
        "--node_rank=" + std::to_string(plan.node_rank), "--master_addr=" + plan.master_addr,
        "--master_port=" + std::to_string(plan.master_port), "--max_restarts=0", worker.string()}) {
    argv.push_back(word);
  }
  const CommandResult result = RunCommand(argv, std::chrono::seconds(plan.timeout_s));
  const std::string records = WorkerRecords(work.string(), task_rank);
  std::string state;
  if (result.outcome == CommandOutcome::kTimedOut) {
    state = "timed-out";
  } else if (result.outcome != CommandOutcome::kExited) {
    state = "error";
    launcher.emplace_back("detail", result.error);
  } else if (result.exit_code == 0) {
    state = "ok";
  } else {
    // Workers that started and then failed are the workers' story; a launcher that exits
    // before any worker said a word crashed itself.
    state = records.find("w-start ") == std::string::npos ? "crashed" : "failed";
  }
  launcher.emplace_back("state", state);
  launcher.emplace_back("exit", std::to_string(result.exit_code));
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f", result.elapsed_s);
  launcher.emplace_back("elapsed_s", elapsed);
  if (state == "crashed") {
    const auto [torch_version, python_version] = LauncherVersions(resolved);
    if (!torch_version.empty()) launcher.emplace_back("torch", torch_version);
    if (!python_version.empty()) launcher.emplace_back("python", python_version);
  }
  std::string out = Line("launcher", launcher);
  for (const auto& line : LastLines(result.stdout_text + "\n" + result.stderr_text, kOutputLinesKept)) {
    out += Line("output", {{"task_rank", std::to_string(task_rank)}, {"line", line}});
  }
  out += records;
  fs::remove_all(work, error);
  UnregisterRunDirectory(work.string());
  return out;
}

}  // namespace

RawOutput ProbeTorchrun(const CollectiveContext& context) {
  Plan plan = MakePlan(context);
  std::string data_problem;
  AgreeOnRendezvous(context, plan, data_problem);
  std::string out = Line("torchrun-probe", {{"version", "1"}, {"node", context.host}});
  if (!plan.skipped.empty()) {  // the same on every rank: no rank skips an exchange the others make
    out += Line("skipped", {{"reason", plan.skipped}});
    return {ProbeStatus::kOk, out, context.host + ": Torchrun probe", ""};
  }
  if (context.node_owner) {
    out += Line("data", {{"dir", plan.data_dir}, {"origin", plan.data_origin}, {"problem", data_problem}});
    // The limits the workers start under: a worker that dies of one is named with it.
    out += resource_limits::LimitsRecordLine(resource_limits::MeasureNodeLimits()) + "\n";
  }
  const PortOutcome port = PortStage(context, plan);
  std::string mine = port.records;
  if (port.blocked.empty()) {
    mine += LaunchStage(context, plan);
  } else {
    Fields launcher = LauncherFields(context, plan);
    launcher.emplace_back("state", "not-started");
    launcher.emplace_back("detail", "the rendezvous cannot work: " + port.blocked);
    mine += Line("launcher", launcher);
  }
  // Every launcher of a node is reported by the node's first task, which the gather keeps.
  const auto everyone = context.world.AllGather(
      context.host + "\n" + mine,
      {"the exchange of the Torchrun suite's records",
       std::chrono::seconds(context.options.collective_timeout_s + plan.timeout_s), kRankStopped});
  if (context.world.is_root() && !plan.data_dir.empty()) {
    std::error_code error;
    fs::remove_all(plan.data_dir, error);
    UnregisterRunDirectory(plan.data_dir);
  }
  if (context.node_owner) {
    for (const auto& entry : everyone) {
      const auto newline = entry.find('\n');
      if (newline != std::string::npos && entry.substr(0, newline) == context.host) out += entry.substr(newline + 1);
    }
  }
  return {ProbeStatus::kOk, out, context.host + ": Torchrun probe", ""};
}

const ProbeSpec& TorchrunProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("torchrun", "torchrun.txt", ProbeTorchrun);
  return kSpec;
}

}  // namespace gpuconform::torchrun
