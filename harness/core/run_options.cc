#include "harness/core/run_options.h"

#include <cstdlib>
#include <cstring>

namespace gpuconform {

namespace {

// The launch environment the Launch suite judges, recorded as it is; never anything secret.
constexpr const char* kLaunchEnvironmentNames[] = {
    "SLURM_JOB_ID", "SLURM_STEP_ID", "SLURM_NODEID", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS", "SLURM_NNODES",
    "SLURM_JOB_NODELIST", "SLURM_STEP_NODELIST", "SLURM_NTASKS_PER_NODE", "SLURM_TASKS_PER_NODE",
    "SLURM_STEP_TASKS_PER_NODE", "SLURM_GPUS_ON_NODE", "CUDA_VISIBLE_DEVICES", "MASTER_ADDR", "MASTER_PORT",
    // Runpod-style clusters set these on every node, as aliases of MASTER_ADDR/MASTER_PORT.
    "PRIMARY_ADDR", "PRIMARY_PORT",
    "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
    // Which interfaces the job pins its traffic to.
    "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_DISABLE", "NCCL_NET", "NCCL_P2P_DISABLE", "OMPI_MCA_btl",
    "OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_btl_tcp_if_exclude", "UCX_NET_DEVICES"};

std::optional<std::string> Lookup(const Environment& env, const std::string& name) {
  const auto found = env.find(name);
  if (found == env.end()) return std::nullopt;
  return found->second;
}

// Set and not empty, else empty.
std::string NonEmpty(const Environment& env, const std::string& name) { return Lookup(env, name).value_or(""); }

// A positive number, else the default; "lots" or "0" keep the default (std::atoi semantics,
// so "90s" still reads as 90 as it always did).
int PositiveInt(const Environment& env, const std::string& name, int fallback) {
  const auto text = Lookup(env, name);
  const int value = text ? std::atoi(text->c_str()) : 0;
  return value > 0 ? value : fallback;
}

long long PositiveLongLong(const Environment& env, const std::string& name, long long fallback) {
  const auto text = Lookup(env, name);
  const long long value = text ? std::atoll(text->c_str()) : 0;
  return value > 0 ? value : fallback;
}

LaunchFacts ReadLaunchFacts(const Environment& env) {
  LaunchFacts facts;
  for (const char* name : {"PMIX_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const auto value = Lookup(env, name)) {
      facts.rank = std::atoi(value->c_str());
      break;
    }
  }
  facts.mpirun = env.count("OMPI_COMM_WORLD_RANK") > 0;
  facts.pmix = env.count("PMIX_RANK") > 0;
  facts.pmi = env.count("PMI_RANK") > 0;
  facts.slurm_step = env.count("SLURM_STEP_ID") > 0;
  if (const auto tasks = Lookup(env, "SLURM_STEP_NUM_TASKS")) facts.slurm_step_num_tasks = std::atoi(tasks->c_str());
  facts.gather_through_pmix = Lookup(env, "GPUCONFORM_GATHER").value_or("") == "pmix";
  return facts;
}

}  // namespace

Environment ReadEnvironment(const char* const* entries) {
  Environment env;
  for (; entries != nullptr && *entries != nullptr; ++entries) {
    const char* equals = std::strchr(*entries, '=');
    if (equals == nullptr) continue;
    // The first definition wins, as getenv's does.
    env.emplace(std::string(*entries, equals), std::string(equals + 1));
  }
  return env;
}

void ExportToLibraryEnvironment(const std::string& name, const std::string& value) {
  ::setenv(name.c_str(), value.c_str(), 1);
}

std::string ExecutableSearchPath() {
  const char* path = std::getenv("PATH");
  return path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
}

std::string TemporaryDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

std::optional<int> ParseDeadlineSeconds(const std::string& text) {
  long long total = 0;
  std::size_t at = 0;
  bool any = false;
  while (at < text.size()) {
    std::size_t digits = at;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == at || digits - at > 7) return std::nullopt;
    const long long value = std::atoll(text.substr(at, digits - at).c_str());
    long long unit = 1;
    if (digits < text.size()) {
      switch (text[digits]) {
        case 'h': unit = 3600; break;
        case 'm': unit = 60; break;
        case 's': unit = 1; break;
        default: return std::nullopt;
      }
      ++digits;
    } else if (any) {
      return std::nullopt;  // "1h30" is ambiguous
    }
    total += value * unit;
    any = true;
    at = digits;
  }
  if (!any || total <= 0 || total > 366LL * 24 * 3600) return std::nullopt;
  return static_cast<int>(total);
}

RunOptions BuildRunOptions(const CommandLineSettings& cli, const Environment& env) {
  RunOptions options;
  // An empty GPUCONFORM_PROFILE is still the user's choice (and LoadProfile names it).
  options.profile = !cli.profile.empty() ? cli.profile : Lookup(env, "GPUCONFORM_PROFILE").value_or(kDefaultProfile);
  options.color = cli.color;
  options.term = Lookup(env, "TERM");
  options.no_color = env.count("NO_COLOR") > 0;
  options.world_timeout_s = PositiveInt(env, "GPUCONFORM_WORLD_TIMEOUT_S", kDefaultWorldTimeoutS);
  options.collective_timeout_s = PositiveInt(env, "GPUCONFORM_COLLECTIVE_TIMEOUT_S", kDefaultCollectiveTimeoutS);
  options.history_lock_timeout_s = PositiveInt(env, "GPUCONFORM_HISTORY_LOCK_TIMEOUT_S", kDefaultHistoryLockTimeoutS);
  options.checkpoint_stage_timeout_s =
      PositiveInt(env, "GPUCONFORM_COLLECTIVE_TIMEOUT_S", kDefaultCheckpointStageTimeoutS);
  options.allreduce_max_bytes = PositiveLongLong(env, "GPUCONFORM_ALLREDUCE_MAX_BYTES", 0);
  options.allreduce_iters = PositiveInt(env, "GPUCONFORM_ALLREDUCE_ITERS", 0);
  options.checkpoint_dir = !cli.checkpoint_dir.empty() ? cli.checkpoint_dir : NonEmpty(env, "GPUCONFORM_CHECKPOINT_DIR");
  options.checkpoint_kills = PositiveInt(env, "GPUCONFORM_CHECKPOINT_KILLS", 0);
  options.slurm_submit_dir = NonEmpty(env, "SLURM_SUBMIT_DIR");
  if (const std::string dev = NonEmpty(env, "GPUCONFORM_DEV_DIR"); !dev.empty()) options.dev_dir = dev;
  if (const std::string sysfs = NonEmpty(env, "GPUCONFORM_SYSFS_ROOT"); !sysfs.empty()) options.sysfs_root = sysfs;
  options.gpu_library_dir = NonEmpty(env, "GPUCONFORM_GPU_LIBRARY_DIR");
  options.nccl_topo_file = NonEmpty(env, "NCCL_TOPO_FILE");
  options.nccl_topo_dump_file = NonEmpty(env, "NCCL_TOPO_DUMP_FILE");
  options.nccl_log = NonEmpty(env, "GPUCONFORM_NCCL_LOG");
  options.nccl_tests_output = NonEmpty(env, "GPUCONFORM_NCCL_TESTS_OUTPUT");
  options.torchrun_command = NonEmpty(env, "GPUCONFORM_TORCHRUN");
  options.job_log = NonEmpty(env, "GPUCONFORM_JOB_LOG");
  options.master_addr = NonEmpty(env, "MASTER_ADDR");
  if (options.master_addr.empty()) options.master_addr = NonEmpty(env, "PRIMARY_ADDR");
  options.master_port = NonEmpty(env, "MASTER_PORT");
  if (options.master_port.empty()) options.master_port = NonEmpty(env, "PRIMARY_PORT");
  options.slurm_node_id = NonEmpty(env, "SLURM_NODEID");
  options.gloo_socket_ifname = NonEmpty(env, "GLOO_SOCKET_IFNAME");
  options.torchrun_checkpoint_writers = NonEmpty(env, "GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS");
  for (const auto& [name, value] : env) {
    if (name.rfind("NCCL_", 0) == 0) options.nccl_environment[name] = value;
  }
  options.munge_key = Lookup(env, "GPUCONFORM_MUNGE_KEY");
  options.munge_socket = Lookup(env, "GPUCONFORM_MUNGE_SOCKET");
  options.slurm_conf = Lookup(env, "SLURM_CONF");
  options.slurm_job_id = Lookup(env, "SLURM_JOB_ID");
  options.deadline_s = cli.deadline_s;
  if (const auto end = Lookup(env, "SLURM_JOB_END_TIME")) options.slurm_job_end_time = std::atoll(end->c_str());
  options.slurmd_nodename = NonEmpty(env, "SLURMD_NODENAME");
  options.slurm_job_num_nodes = Lookup(env, "SLURM_JOB_NUM_NODES");
  options.slurm_job_nodelist = Lookup(env, "SLURM_JOB_NODELIST");
  options.launch = ReadLaunchFacts(env);
  options.launched = cli.launched;
  options.launch_no_task = cli.launch_no_task;
  for (const auto& refused : cli.launch_refused) {
    const auto equals = refused.find('=');
    options.launch_refused.push_back({refused.substr(0, equals),
                                      equals == std::string::npos ? "" : refused.substr(equals + 1)});
  }
  for (const char* name : kLaunchEnvironmentNames) {
    if (const auto value = Lookup(env, name)) options.launch_environment.emplace_back(name, *value);
  }
  return options;
}

const RunOptions& DefaultRunOptions() {
  static const RunOptions options = BuildRunOptions(CommandLineSettings{}, Environment{});
  return options;
}

const std::vector<EnvironmentVariable> kEnvironmentVariables = {
    {"GPUCONFORM_PROFILE", "the default for `--profile`", "`h100-sxm-8`"},
    {"GPUCONFORM_WORLD_TIMEOUT_S",
     "how long the ranks may take to form one world (every rank answering through the launcher's PMIx). When it runs "
     "out, for example because a slurmd died, rank 0 "
     "still writes a report: `Launch.WorldFormed` becomes an error, and the controller's view names the node",
     "120"},
    {"GPUCONFORM_COLLECTIVE_TIMEOUT_S",
     "the deadline for each collective of a measurement, and for each stage of the Checkpoint suite",
     "60 (Checkpoint: 120)"},
    {"GPUCONFORM_GATHER",
     "how the ranks send their raw outputs to rank 0: `tcp` (each rank opens one connection to rank 0's host name, "
     "on the management network; traffic grows linearly with the nodes) or `pmix` (the launcher's collecting fence, "
     "which brings every node's part to every node: for sites whose nodes cannot open TCP connections to each other)",
     "`tcp`"},
    {"GPUCONFORM_HISTORY_LOCK_TIMEOUT_S",
     "how long `--history` waits while another process writes to the database; then the run is not recorded "
     "there, the other reports are still written, and the run exits 2 saying so",
     "30"},
    {"GPUCONFORM_MUNGE_KEY", "the MUNGE key", "`/etc/munge/munge.key`"},
    {"GPUCONFORM_MUNGE_SOCKET", "the MUNGE socket", "the socket from `AuthInfo=` in slurm.conf"},
    {"GPUCONFORM_DEV_DIR", "where the GPU device files are; `%n` stands for the node name", "`/dev`"},
    {"GPUCONFORM_SYSFS_ROOT", "a directory standing in for `/sys` (PCI devices, NIC links); meant for tests", "`/sys`"},
    {"GPUCONFORM_GPU_LIBRARY_DIR",
     "the only directory `libnvidia-ml.so.1`, `libcuda.so.1`, the CUDA runtime and NCCL are loaded from (a driver "
     "outside the loader's path; an empty directory shows a node without them)",
     "the loader's search path"},
    {"NCCL_TOPO_FILE",
     "a static topology file NCCL is given; copied as the node's `nccl-topo-file.xml`, and judged "
     "where neither gpuconform's NCCL run nor NCCL_TOPO_DUMP_FILE gives a topology",
     "unset"},
    {"NCCL_TOPO_DUMP_FILE", "an earlier NCCL topology dump, judged where gpuconform's own NCCL run did not run",
     "unset"},
    {"GPUCONFORM_NCCL_LOG", "an NCCL_DEBUG=INFO log of your own run, judged instead of gpuconform's", "unset"},
    {"GPUCONFORM_NCCL_TESTS_OUTPUT", "an nccl-tests `all_reduce_perf` output file to judge", "unset"},
    {"GPUCONFORM_TORCHRUN",
     "the launcher the Torchrun suite starts on every node (a path or a name on PATH), as a training job's "
     "`srun torchrun` would",
     "the profile's `torchrun.command`, else `torchrun` on PATH"},
    {"GPUCONFORM_JOB_LOG",
     "a failed training job's own output (its Slurm output file), diagnosed by `Torchrun.JobLogLaunch`",
     "unset (a snapshot's `cluster/job.log`)"},
    {"MASTER_ADDR",
     "the rendezvous host the Torchrun suite's launchers use, judged by `Launch.MasterAddrInAllocation` and "
     "`Torchrun.MasterPortOpen`: it must be the node with SLURM_NODEID 0",
     "the host of the task with SLURM_NODEID 0"},
    {"MASTER_PORT", "the rendezvous port; it must be free on that node and reachable from every node",
     "a free port found on that node"},
    {"PRIMARY_ADDR", "an alias of `MASTER_ADDR` (Runpod-style clusters set it on every node), read where "
     "`MASTER_ADDR` is unset", "unset"},
    {"PRIMARY_PORT", "an alias of `MASTER_PORT`, read where `MASTER_PORT` is unset", "unset"},
    {"SLURM_NODEID", "the node rank each Torchrun launcher is given (`--node_rank`), as a job script gives it",
     "the order of the run's hosts"},
    {"GLOO_SOCKET_IFNAME",
     "the interface the Torchrun suite's gloo workers use; NCCL's is `NCCL_SOCKET_IFNAME`",
     "the profile's `nccl.socket_ifname`"},
    {"GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS",
     "`all` makes every worker of the Torchrun suite write the checkpoint in place at once, the unguarded pattern "
     "`Torchrun.CheckpointRankZero` must detect (its negative control)",
     "rank 0 alone, through a .tmp file and a rename"},
    {"NCCL_*",
     "the user's NCCL settings, passed to gpuconform's NCCL worker (which sets NCCL_DEBUG=INFO unless it is TRACE, "
     "and its own NCCL_DEBUG_SUBSYS, NCCL_DEBUG_FILE and NCCL_TOPO_DUMP_FILE)",
     "unset"},
    {"GPUCONFORM_CHECKPOINT_DIR", "the Checkpoint suite's target; `--checkpoint-dir` wins over it",
     "the profile's `checkpoint.dir`, else `$SLURM_SUBMIT_DIR/checkpoints`"},
    {"GPUCONFORM_CHECKPOINT_KILLS", "how many times the crash torture kills the writer",
     "the profile's `checkpoint.torture_kills`, 200"},
    {"GPUCONFORM_ALLREDUCE_MAX_BYTES", "the largest size in the allreduce sweeps",
     "the largest floor size in the profile, at most 1 GiB of host memory for MPI and 16 GiB per GPU buffer for NCCL"},
    {"GPUCONFORM_ALLREDUCE_ITERS",
     "timed iterations per size in both allreduce sweeps, as nccl-tests' `-n`; more give steadier numbers on a "
     "noisy fabric",
     "20 for NCCL up to 1 GiB and fewer above; 5 for MPI up to 12 MiB, then fewer down to 1 at 64 MiB and above"},
    {"SLURM_CONF", "slurm.conf, for the Slurm and MUNGE probes (set by Slurm)", "`/etc/slurm/slurm.conf`"},
    {"SLURM_JOB_ID", "set inside an allocation; the Slurm suite's allocation test runs only there", "unset"},
    {"SLURM_JOB_END_TIME",
     "the job's end time (Unix seconds, set by Slurm releases that state it): the run ends with its report 15 s "
     "before it, or before `--deadline` if that comes first",
     "unset: only `--deadline`, and the time limit's SIGTERM, end the run early"},
    {"SLURM_JOB_NUM_NODES", "how many nodes the allocation's test step asks for", "unset"},
    {"SLURM_SUBMIT_DIR", "where `$SLURM_SUBMIT_DIR/checkpoints` is looked for", "unset"},
    {"SLURM_STEP_ID", "set by srun: the PMIx launcher is named srun/PMIx", "unset"},
    {"SLURM_STEP_NUM_TASKS", "more than 1 without a PMI means srun started the tasks without `--mpi=pmix`", "1"},
    {"PMIX_RANK", "this process's rank under PMIx (first of the rank variables that is set)", "unset"},
    {"OMPI_COMM_WORLD_RANK", "this process's rank under mpirun", "unset"},
    {"PMI_RANK", "this process's rank under PMI", "unset"},
    {"SLURM_PROCID", "this process's rank under srun", "unset"},
    {"TERM", "`--color auto` colours only a terminal whose TERM is set and not `dumb`", "unset"},
    {"NO_COLOR", "set: `--color auto` does not colour", "unset"},
};

}  // namespace gpuconform
