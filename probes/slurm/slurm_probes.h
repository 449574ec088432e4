// The Slurm probes: controller views (cluster scope, taken once on rank 0), the node's
// gres.conf, and the allocation probe that asks Slurm for GPUs the way a job does.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::slurm {

ProbeSpec ScontrolShowNodes();  // cluster/scontrol-show-node.txt   scontrol show node
ProbeSpec PendingJobs();        // cluster/squeue-pending.txt       squeue -h -t PD -o "%i|%P|%u|%r"
ProbeSpec GresConfFile();       // nodes/<h>/gres.conf               gres.conf beside $SLURM_CONF
ProbeSpec GpuAllocation();
// cluster/slurmd-reachable.txt: from rank 0, a TCP connect to every node's slurmd
// (NodeAddr:SlurmdPort), the path slurmctld and srun use. Lines "node addr:port ok" or
// "node addr:port failed <error>". Works for nodes that run no gpuconform task.
ProbeSpec SlurmdReachability();      // cluster/srun-gpus-per-node.txt   srun --gpus-per-node=N inside the allocation

}  // namespace gpuconform::slurm
