// The conversation between gpuconform's NCCL run (nccl_run_probe.h, one per node) and its
// worker child (nccl_worker.h), in record lines (harness/util/record_lines.h), one per line:
//   worker -> parent                                  parent -> worker
//   ready gpus=8 nccl_version=22105 cuda_runtime=12040 cuda_driver=12040
//         libraries="libcudart.so.12 libnccl.so.2" devices="0000:18:00.0 ..."
//   unavailable reason="libnccl.so.2 not found ..."   (then exits)
//   unique-id hex=<256 hex digits, text_util ToHex>   (the root worker only, after ready)
//                                                     init unique_id=HEX nranks=16 first_rank=8
//   initialized seconds=4.2
//                                                     measure size_bytes=S warmup=W iterations=I
//                                                       [collective=alltoall|allgather|reduce_scatter]
//   row size_bytes=S time_us=T wrong=0
//   not-measured collective=NAME reason="..."         (this NCCL lacks its calls; the worker goes on)
//   error stage=init|measure reason="..."             (then exits)
//                                                     quit
// Contract: pure (formatting, parsing and planning); the I/O is in the worker and the probe.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::nccl_run {

inline constexpr char kWorkerVerb[] = "__nccl-worker";

// The NCCL variables the parent puts in the worker's environment (over the inherited one);
// NCCL reads them once, at its first use. From the user's NCCL_* settings (RunOptions::
// nccl_environment): NCCL_DEBUG=INFO unless the user asked for TRACE (more than INFO), the
// subsystems the judges read, and the log and topology files in `work_dir`.
std::map<std::string, std::string> WorkerNcclEnvironment(const std::map<std::string, std::string>& user_nccl,
                                                          const std::string& work_dir);

// Warm-up and timed iterations for one size: nccl-tests' 5 and 20 up to 1 GiB, fewer above
// it, so a sweep to 16 GiB on a fabric that fell back to sockets ends within the deadline.
struct IterationPlan {
  int warmup = 5;
  int iterations = 20;
};
IterationPlan PlanIterations(long long size_bytes);

// What one node's worker said when it started (its "ready" or "unavailable" line).
struct WorkerReady {
  std::string host;
  bool available = false;
  std::string reason;  // why not available
  bool failed = false;  // the worker errored or did not answer: a fault, not simply no NCCL
  int gpus = 0;
  std::string nccl_version;   // "2.21.5"
  std::string cuda_runtime;   // "12.4"
  std::vector<std::string> bus_ids;
  std::string unique_id_hex;  // the root worker's ncclUniqueId
};

// Reads the lines a worker printed up to and including "ready" (and "unique-id" for the root).
Result<WorkerReady> ParseWorkerReady(const std::string& lines, const std::string& host);
// NCCL's version code (major*10000+minor*100+patch since 2.9, major*1000+minor*100+patch
// before) as "2.21.5"; CUDA's (major*1000+minor*10) as "12.4".
std::string NcclVersionText(int code);
std::string CudaVersionText(int code);

// One communicator across the nodes: node k's GPUs are ranks first_rank .. first_rank+gpus-1,
// nodes in rank order, so ranks are numbered as nccl-tests numbers them.
struct NodeAssignment {
  std::string host;
  int first_rank = 0;
  int gpus = 0;
};
struct RunPlan {
  std::vector<NodeAssignment> nodes;
  int nranks = 0;
  std::string unique_id_hex;
};

// The plan, or why there is none: a node without NCCL or GPUs, or no unique id from the
// root. `all_unavailable` tells "NCCL is not on these nodes" (every node said unavailable)
// from a broken cluster (some did). Nodes with unequal GPU counts still run (the other
// suites judge the counts).
struct PlanProblem {
  bool all_unavailable = false;
  std::string detail;  // names every node and its reason
};
struct PlanOrProblem {
  std::optional<RunPlan> plan;
  PlanProblem problem;
};
PlanOrProblem PlanRun(const std::vector<WorkerReady>& nodes);

std::string InitLine(const RunPlan& plan, int first_rank);
// No `collective` (or "allreduce") is allreduce, so a worker and a parent of before the other
// collectives still agree.
std::string MeasureLine(long long size_bytes, const IterationPlan& iterations, const std::string& collective = "");

// A measure line as the worker reads it: an error for a missing or malformed number, a size
// under one float, no timed iteration, or a collective neither allreduce nor one of
// collectives.h. `collective` is "allreduce" where the line names none.
struct MeasureRequest {
  std::string collective = "allreduce";
  long long size_bytes = 0;
  IterationPlan iterations;
};
Result<MeasureRequest> ParseMeasureLine(const std::string& line);

// The worker's answer where its NCCL lacks the collective's calls (Nccl::MissingFor).
std::string NotMeasuredLine(const std::string& collective, const std::string& reason);

}  // namespace gpuconform::nccl_run
