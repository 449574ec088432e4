// Parser of a node's Torchrun probe output (nodes/<h>/torchrun.txt, torchrun_probe.h), record
// lines (harness/util/record_lines.h):
//   torchrun-probe version=1 node=H
//   skipped reason=...                      the probe did not run (no torchrun section)
//   data dir=... origin=... problem=...     the shared directory the workers used, or why none
//   limits shm_bytes=N ...                  the node's limits, as its workers see them (probes/resource_limits)
//   port role=host|client host=H [addr=A] port=P state=free|in-use|error|reachable|unreachable [detail=...]
//   launcher task_rank=K host=H command=... nnodes=N nproc_per_node=P node_rank=R slurm_nodeid=...
//            master_addr=A master_origin=... master_port=P master_host=H backend=gloo|nccl timeout_s=T
//            state=ok|missing|crashed|failed|timed-out|error|not-started [exit=E elapsed_s=S torch=V python=V detail=...]
//   output task_rank=K line="..."          the launcher's last output lines (stdout, then stderr)
//   w-<kind> task_rank=K rank=R ...         a worker's own record (probes/torchrun/torchrun_worker.py)
//   unreadable task_rank=K rank=R problem=  a worker's record file the probe could not read
// Pure; every error names origin:line. Fields a worker did not write stay at their defaults,
// so the checks can say what is missing.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"
#include "probes/resource_limits/resource_exhaustion.h"

namespace gpuconform::torchrun {

struct PortCheck {
  std::string role;  // "host" (the node that hosts the rendezvous) or "client"
  std::string host;
  std::string addr;
  int port = 0;
  std::string state;  // free, in-use, error (host); reachable, unreachable (client)
  std::string detail;
};

struct LauncherRun {
  int task_rank = -1;
  std::string host;
  std::string command;
  std::string command_origin;
  int nnodes = 0;
  int nproc_per_node = 0;
  int node_rank = -1;
  std::string slurm_nodeid;
  std::string master_addr;
  std::string master_origin;
  int master_port = 0;
  std::string master_host;
  std::string backend;
  int timeout_s = 0;
  std::string state;  // ok, missing, crashed, failed, timed-out, error, not-started (the port check failed)
  int exit_code = -1;
  double elapsed_s = 0;
  std::string torch_version;
  std::string python_version;
  std::string detail;
  std::vector<std::string> output;  // the last lines it printed
};

struct AllreduceSample {
  long long size_bytes = 0;
  double expected = 0;
  double got = 0;
  long long wrong_elements = 0;
  double seconds = 0;
  double busbw_gb_per_s = 0;
};

struct CheckpointRecord {
  bool present = false;
  bool wrote = false;
  long long step = 0;
  std::optional<long long> loaded_step;
  bool consistent = false;
  std::string mode;
  std::string error;
};

struct WorkerReport {
  int task_rank = -1;
  int rank = -1;
  bool started = false;    // the worker's first record (the interpreter ran it)
  bool described = false;  // its `worker` record (torch imported, environment read)
  int local_rank = -1;
  int world_size = -1;
  int local_world_size = -1;
  int group_rank = -1;
  std::string host;
  std::string slurm_nodeid;
  std::string slurm_procid;
  std::string cuda_visible_devices;
  std::string torch_version;
  std::string python_version;
  std::string backend;
  std::string device;
  std::string device_uuid;
  std::optional<bool> init_ok;
  double init_ms = 0;
  std::string init_error;
  std::vector<AllreduceSample> allreduces;
  int dataset_items = 0;
  std::map<int, std::vector<int>> shard_indices;  // epoch -> DistributedSampler's indices for this rank
  std::map<int, double> dataload_mb_per_s;        // num_workers -> read throughput
  CheckpointRecord checkpoint;
  std::vector<std::string> transport_lines;  // NCCL's "Channel ... via ..." lines (NCCL only)
  std::vector<std::pair<std::string, std::string>> errors;  // stage -> the exception's last line
  bool done = false;
  std::string unreadable;  // its record file could not be read (why)
};

struct NodeTorchrunReport {
  std::string node;
  std::string skipped;  // non-empty: the probe did not run (why)
  std::string data_dir;
  std::string data_problem;
  resource_limits::NodeLimits limits;  // each field unset where not measured
  std::vector<PortCheck> ports;
  std::vector<LauncherRun> launchers;
  std::vector<WorkerReport> workers;  // by (task_rank, rank)
};

Result<NodeTorchrunReport> ParseTorchrunReport(const std::string& text, const std::string& node,
                                               const std::string& origin);

// The last line of a launcher's output that names an exception ("AttributeError: ...",
// "RuntimeError: ...", "torch.distributed.DistStoreError: ..."), or "" when none does.
std::string LastExceptionLine(const std::vector<std::string>& output);

}  // namespace gpuconform::torchrun
