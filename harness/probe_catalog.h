// The probes that more than one suite reads, defined once: their snapshot file names are
// part of the snapshot layout v1 contract (architecture §2), so they live in one place.
#pragma once

#include "harness/probe.h"

namespace gpuconform::probes {

ProbeSpec KernelRelease();        // nodes/<h>/uname-r.txt            uname -r
ProbeSpec NvidiaSmiQueryXml();    // nodes/<h>/nvidia-smi-q.xml       nvidia-smi -q -x
ProbeSpec NvidiaSmiQueryText();   // nodes/<h>/nvidia-smi-q.txt       nvidia-smi -q (snapshots only: live runs read -x)
ProbeSpec SlurmdVersion();        // nodes/<h>/slurmd-V.txt           slurmd -V
ProbeSpec MungedVersion();        // nodes/<h>/munged-version.txt     munged --version
ProbeSpec MpiLibraryVersion();    // nodes/<h>/mpi-library-version.txt  MPI_Get_library_version (built in)
ProbeSpec NcclVersion();          // nodes/<h>/nccl-version.txt       ncclGetVersion via dlopen (built in)
ProbeSpec GpuconformVersion();    // nodes/<h>/gpuconform-version.txt this binary (built in)
ProbeSpec GpuDevices();           // nodes/<h>/gpu-devices.txt        /dev/nvidia<N> + /proc/driver/nvidia/gpus (built in)
ProbeSpec NvidiaSmiTopoMatrix();  // nodes/<h>/nvidia-smi-topo-m.txt  nvidia-smi topo -m (NvSwitch, InfiniBand)
ProbeSpec NcclTopoFile();         // nodes/<h>/nccl-topo-file.xml     the file $NCCL_TOPO_FILE names (built in)
ProbeSpec PciDevices();           // nodes/<h>/pci-devices.txt        <sysfs>/bus/pci/devices/*/class (built in)

}  // namespace gpuconform::probes
