// The version probes whose outputs versions_parse.h reads: one command or in-process answer per
// piece of software. Their snapshot file names are part of the snapshot layout v1 contract
// (architecture §2).
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::versions {

ProbeSpec KernelRelease();      // nodes/<h>/uname-r.txt              uname -r
ProbeSpec SlurmdVersion();      // nodes/<h>/slurmd-V.txt             slurmd -V
ProbeSpec MungedVersion();      // nodes/<h>/munged-version.txt       munged --version
ProbeSpec MpiLibraryVersion();  // nodes/<h>/mpi-library-version.txt  MPI_Get_library_version (built in)
ProbeSpec NcclVersion();        // nodes/<h>/nccl-version.txt         ncclGetVersion via dlopen (built in)
ProbeSpec GpuconformVersion();  // nodes/<h>/gpuconform-version.txt   this binary (built in)

}  // namespace gpuconform::versions
