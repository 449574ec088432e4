// The Slurm probes: controller views (cluster scope, taken once on rank 0), the node's
// gres.conf, and the allocation probe that asks Slurm for GPUs the way a job does.
#pragma once

#include "harness/probe.h"

namespace gpuconform::slurm {

ProbeSpec ScontrolShowNodes();  // cluster/scontrol-show-node.txt   scontrol show node
ProbeSpec PendingJobs();        // cluster/squeue-pending.txt       squeue -h -t PD -o "%i|%P|%u|%r"
ProbeSpec GresConfFile();       // nodes/<h>/gres.conf               gres.conf beside $SLURM_CONF
ProbeSpec GpuAllocation();
ProbeSpec LocalSlurmd();        // nodes/<h>/scontrol-show-slurmd.txt  scontrol show slurmd (asks the node's own slurmd)      // cluster/srun-gpus-per-node.txt   srun --gpus-per-node=N inside the allocation

}  // namespace gpuconform::slurm
