// The NCCL worker: the child process (`gpuconform __nccl-worker --work-dir DIR [--root]`)
// that drives all of its node's GPUs in one NCCL communicator spanning every node, as
// nccl-tests' all_reduce_perf -g <gpus> does with one process per node, and measures allreduce,
// alltoall, allgather and reduce_scatter on it (nccl_collective_layout.h: what each GPU sends
// and must receive). It speaks the protocol in nccl_worker_protocol.h on stdin/stdout.
// Why a child: NCCL reads NCCL_DEBUG, NCCL_DEBUG_FILE and NCCL_TOPO_DUMP_FILE once, at its
// first use, so the parent puts them in this child's environment (WorkerNcclEnvironment in
// nccl_worker_protocol.h) before NCCL starts; and a collective that hangs on the GPU cannot
// be interrupted in-process, while a child can be killed at the deadline.
// Contract: writes NCCL's INFO log to DIR/nccl-debug.log and its topology to
// DIR/nccl-topo.xml; exits 0 after "quit" or the end of stdin, 1 after an "error" or
// "unavailable" line; dies with its parent (PR_SET_PDEATHSIG).
#pragma once

#include <string>
#include <vector>

namespace gpuconform::nccl_run {

inline constexpr char kDebugLogName[] = "nccl-debug.log";
inline constexpr char kTopologyDumpName[] = "nccl-topo.xml";
inline constexpr char kWorkerStderrName[] = "worker.stderr";  // where the probe puts its stderr

int NcclWorkerMain(const std::vector<std::string>& args);

}  // namespace gpuconform::nccl_run
