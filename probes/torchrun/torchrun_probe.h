// The Torchrun suite's active probe: the launch path training jobs use, run for real.
// Every rank of the run calls it, in the same order, during the live gather. Each rank starts
// the site's launcher (the profile's torchrun.command, GPUCONFORM_TORCHRUN, else torchrun on
// PATH) exactly as `srun torchrun` would from that task: --nnodes (the run's nodes),
// --nproc_per_node, --node_rank=$SLURM_NODEID and the static rendezvous at
// MASTER_ADDR:MASTER_PORT (PRIMARY_ADDR/PORT as aliases; unset, the node with SLURM_NODEID 0
// and a free port there). A run started with more than one task per node therefore starts
// more than one launcher there, as the user's job would, and the report names it.
// Stages, each ending in an exchange under the run's deadline:
//   plan     every rank learns the node ranks, the rendezvous and rank 0's data directory;
//   port     the rendezvous node binds MASTER_PORT (in use is named), every other node
//            connects to MASTER_ADDR:MASTER_PORT (unreachable is named), then it is let go;
//   launch   the launcher runs the worker shipped in this binary (torchrun_worker.py), killed
//            with its workers at torchrun.timeout_s; its exit, time and last output lines are
//            kept with every worker's records;
//   gather   each node's first task keeps the records of every launcher on its node.
// Writes nothing outside a per-run directory under the data directory (the checkpoint
// directory, as the Checkpoint suite finds it) and the task's temporary directory, both
// removed at the end. Output: torchrun.txt, whose records torchrun_parse.h describes.
#pragma once

#include <string>

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::torchrun {

// The worker program shipped with gpuconform (probes/torchrun/torchrun_worker.py, compiled in).
const std::string& WorkerScript();

RawOutput ProbeTorchrun(const CollectiveContext& context);

// nodes/<h>/torchrun.txt: ProbeTorchrun's output (torchrun_facts.h reads it).
const ProbeSpec& TorchrunProbe();

}  // namespace gpuconform::torchrun
