// RunOptions: every setting of a run, typed, built once in main from the command line and
// the environment, and passed down (verbs, sources, probes, suites) by const reference.
// Contract: BuildRunOptions is the only code that interprets the environment; precedence is
// command line > environment > default. A value that does not parse (a non-numeric timeout)
// falls back to the default, as std::atoi's 0 always did. Profile defaults (checkpoint kills,
// sweep sizes) are applied where the profile is known, by the probe, when a field is 0/empty.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>


namespace gpuconform {

// The built-in profile a run uses when neither --profile nor GPUCONFORM_PROFILE names one.
inline constexpr char kDefaultProfile[] = "h100-sxm-8";

// The settings of the command line that the options take, as the CLI (app/cli.h) parsed them;
// the rest of the command line is the verbs' own business.
struct CommandLineSettings {
  std::string profile;           // --profile; empty: the environment's, else the default
  std::string color = "auto";    // --color
  std::string checkpoint_dir;    // --checkpoint-dir
  bool launched = false;         // --launched (set by gpuconform launch)
  bool launch_no_task = false;   // --launch-no-task
  std::vector<std::string> launch_refused;  // --launch-refused NODE=ERROR
  int deadline_s = 0;            // --deadline, in seconds from the start; 0: none
};

// The whole process environment, read once in main.
using Environment = std::map<std::string, std::string>;

// `environ` (or any NAME=value array ending in a null pointer) as a map.
Environment ReadEnvironment(const char* const* entries);

// Sets one variable of this process's environment, for a library that takes a setting only
// from there and only once it is loaded (NCCL reads NCCL_TOPO_DUMP_FILE_RANK at
// ncclCommInitRank). The one place the process environment is written; configuration is
// never read back from it.
void ExportToLibraryEnvironment(const std::string& name, const std::string& value);

// Two settings of this process's environment that its children share rather than configure,
// read here as every other setting is: where tools are searched for (PATH; the shell's default
// where it is unset) and where temporary files go (TMPDIR; /tmp where it is unset or empty).
std::string ExecutableSearchPath();
std::string TemporaryDirectory();

// What the launcher tells this process, read before MPI is up (world.cc decides from it).
struct LaunchFacts {
  int rank = 0;                  // PMIX_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID
  bool mpirun = false;           // OMPI_COMM_WORLD_RANK is set
  bool pmix = false;             // PMIX_RANK is set
  bool pmi = false;              // PMI_RANK is set
  bool slurm_step = false;       // SLURM_STEP_ID is set
  int slurm_step_num_tasks = 1;  // SLURM_STEP_NUM_TASKS
  // GPUCONFORM_GATHER=pmix: gather the raw outputs through the launcher's collecting fence
  // (quadratic traffic), where the nodes cannot open TCP connections to rank 0's node.
  bool gather_through_pmix = false;
};

// A node Slurm could not start the run's task on (srun's error line, quoted), as
// `gpuconform launch` tells the run it started without that node.
struct RefusedNode {
  std::string node;
  std::string slurm_error;
};

// Whether `node` is one of `refused`.
inline bool IsRefused(const std::string& node, const std::vector<RefusedNode>& refused) {
  for (const auto& entry : refused) {
    if (entry.node == node) return true;
  }
  return false;
}

inline constexpr int kDefaultCollectiveTimeoutS = 60;
inline constexpr int kDefaultCheckpointStageTimeoutS = 120;
inline constexpr int kDefaultWorldTimeoutS = 120;
inline constexpr int kDefaultHistoryLockTimeoutS = 30;

struct RunOptions {
  std::string profile = kDefaultProfile;  // --profile > GPUCONFORM_PROFILE > h100-sxm-8
  std::string color = "auto";             // --color: auto | always | never
  std::optional<std::string> term;        // TERM, for --color auto
  bool no_color = false;                  // NO_COLOR is set

  int world_timeout_s = kDefaultWorldTimeoutS;
  // The run's own deadline (termination.h): --deadline, seconds from the start (0: none), and
  // the job's end time where Slurm states it (SLURM_JOB_END_TIME, Unix seconds; 0: not stated).
  // The run ends with a report before the sooner of the two.
  int deadline_s = 0;
  long long slurm_job_end_time = 0;
  // How long --history waits for another writer's lock on the database before it gives up.
  int history_lock_timeout_s = kDefaultHistoryLockTimeoutS;
  int collective_timeout_s = kDefaultCollectiveTimeoutS;
  // The Checkpoint suite's stage deadline: GPUCONFORM_COLLECTIVE_TIMEOUT_S too, with its own default.
  int checkpoint_stage_timeout_s = kDefaultCheckpointStageTimeoutS;
  long long allreduce_max_bytes = 0;  // 0: the profile's largest floor size decides
  int allreduce_iters = 0;            // 0: each backend's planned iterations

  std::string checkpoint_dir;    // --checkpoint-dir > GPUCONFORM_CHECKPOINT_DIR; empty: the profile's
  int checkpoint_kills = 0;      // 0: the profile's checkpoint.torture_kills
  std::string slurm_submit_dir;  // SLURM_SUBMIT_DIR: $SLURM_SUBMIT_DIR/checkpoints is the last resort

  std::string dev_dir = "/dev";     // %n stands for the node name
  std::string sysfs_root = "/sys";  // a directory standing in for /sys (tests build fake trees)
  // GPUCONFORM_GPU_LIBRARY_DIR: where NVML, the CUDA driver and runtime and NCCL are loaded
  // from; empty = the loader's search path.
  std::string gpu_library_dir;

  std::string nccl_topo_file;       // NCCL_TOPO_FILE; empty when unset
  std::string nccl_topo_dump_file;  // NCCL_TOPO_DUMP_FILE; empty when unset
  std::string nccl_log;             // GPUCONFORM_NCCL_LOG; empty: gpuconform's own NCCL run
  std::string nccl_tests_output;    // GPUCONFORM_NCCL_TESTS_OUTPUT; empty: none given
  std::string torchrun_command;     // GPUCONFORM_TORCHRUN; empty: the profile's, else torchrun on PATH
  std::string job_log;              // GPUCONFORM_JOB_LOG: a training job's output to diagnose; empty: none
  std::string master_addr;          // MASTER_ADDR, else PRIMARY_ADDR; empty: derived from the allocation
  std::string master_port;          // MASTER_PORT, else PRIMARY_PORT; empty: a free port on that node
  std::string slurm_node_id;        // SLURM_NODEID of this task; empty outside Slurm
  std::string gloo_socket_ifname;   // GLOO_SOCKET_IFNAME; empty: the profile's fabric interface
  std::string torchrun_checkpoint_writers;  // GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS: "all" = negative control
  // Every NCCL_* variable of the user's environment: the NCCL worker's settings start from these.
  std::map<std::string, std::string> nccl_environment;

  // Unset and empty differ here (an empty socket path is the user's choice, reported as such).
  std::optional<std::string> munge_key;     // GPUCONFORM_MUNGE_KEY
  std::optional<std::string> munge_socket;  // GPUCONFORM_MUNGE_SOCKET
  std::optional<std::string> slurm_conf;    // SLURM_CONF
  std::optional<std::string> slurm_job_id;  // SLURM_JOB_ID: set inside an allocation
  std::string slurmd_nodename;  // SLURMD_NODENAME: slurmd sets it for HealthCheckProgram; empty elsewhere
  std::optional<std::string> slurm_job_num_nodes;  // SLURM_JOB_NUM_NODES
  std::optional<std::string> slurm_job_nodelist;   // SLURM_JOB_NODELIST: the allocation's nodes

  LaunchFacts launch;
  // Set by `gpuconform launch` (hidden run options --launched, --launch-refused NODE=ERROR).
  bool launched = false;
  // Slurm refused every node, so this process (where `launch` ran, not a node of the run)
  // reports alone: it runs the cluster-scope probes (the controller's view) and no node's.
  bool launch_no_task = false;
  std::vector<RefusedNode> launch_refused;
  // "NAME=value" of the launch variables the Launch suite judges that are set, in table order.
  std::vector<std::pair<std::string, std::string>> launch_environment;
};

RunOptions BuildRunOptions(const CommandLineSettings& cli, const Environment& env);

// --deadline's duration in seconds: "600", "90s", "45m", "2h", "1h30m"; nullopt when it is not
// one, or not above zero.
std::optional<int> ParseDeadlineSeconds(const std::string& text);

// The options of a run with an empty environment and no options: what tests and contexts
// built without a run get.
const RunOptions& DefaultRunOptions();

// One variable the options object reads, for docs/reference.md and `--help`.
struct EnvironmentVariable {
  const char* name;
  const char* meaning;
  const char* default_value;
};

extern const std::vector<EnvironmentVariable> kEnvironmentVariables;

}  // namespace gpuconform
