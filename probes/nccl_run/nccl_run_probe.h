// gpuconform's own NCCL run: on every node of the allocation, one worker child
// (nccl_worker.h) drives all of that node's GPUs, and all of them form one communicator (as
// nccl-tests does with one process per node and -g <gpus>). It sweeps allreduce sizes with
// NCCL_DEBUG=INFO and NCCL_TOPO_DUMP_FILE set, then measures the collectives the profile's
// `nccl_collectives:` floors name (nccl_run_profile.h), so one run yields five raw outputs:
//   cluster/nccl-allreduce.txt    the sweep, in nccl-tests' table format (AllreduceBandwidth)
//   cluster/nccl-collectives.txt  alltoall, allgather, reduce_scatter tables (Collectives;
//                                 nccl_run_records.h), as cluster/mpi-collectives.txt
//   cluster/nccl-init.txt         every node's ncclCommInitRank time (Collectives)
//   cluster/nccl-debug.log        every node's NCCL INFO log (NcclTransport)
//   nodes/<h>/nccl-topo.xml       each node's topology as NCCL detected it (NcclTopology)
// Contract: a collective, run once per process on first use (whichever of the probes
// asks first; all ranks ask in the same order) and remembered. Where NCCL, CUDA or a GPU is
// missing on every node, the outputs are kToolMissing saying so per node; where it is
// missing on some, kFailed naming them. Each step has a deadline (GPUCONFORM_COLLECTIVE_
// TIMEOUT_S): a worker that does not answer in time is killed and the run reports where it
// stopped; it never hangs.
#pragma once

#include <string>

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::nccl_run {

struct NcclRunOutputs {
  RawOutput allreduce;    // on rank 0: the cluster's table
  RawOutput collectives;  // on rank 0: the collectives beyond allreduce, the tables so far where it stopped
  RawOutput init;         // on rank 0: every node's communicator init time
  RawOutput debug_log;  // on rank 0: all nodes' logs, node by node
  RawOutput topology;   // this node's dump
};

// Runs the workers from `executable` (the gpuconform binary; its hidden worker verb).
NcclRunOutputs RunNccl(const CollectiveContext& context, const std::string& executable);

// RunNccl with this binary, once per process.
const NcclRunOutputs& SharedNcclRun(const CollectiveContext& context);

// cluster/nccl-allreduce.txt
ProbeSpec NcclAllreduceProbe();
// cluster/nccl-collectives.txt
ProbeSpec NcclCollectivesProbe();
// cluster/nccl-init.txt
ProbeSpec NcclInitProbe();

}  // namespace gpuconform::nccl_run
