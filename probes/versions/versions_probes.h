// The version probes whose outputs versions_parse.h reads: one command or in-process answer per
// piece of software. Their snapshot file names are part of the snapshot layout v1 contract
// (architecture §2).
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::versions {

ProbeSpec KernelRelease();      // nodes/<h>/uname-r.txt              uname -r
ProbeSpec SlurmdVersion();      // nodes/<h>/slurmd-V.txt             slurmd -V
ProbeSpec MungedVersion();      // nodes/<h>/munged-version.txt       munged --version
ProbeSpec MpiLibraryVersion();  // nodes/<h>/mpi-library-version.txt  MPI_Get_library_version (built in)
ProbeSpec NcclVersion();        // nodes/<h>/nccl-version.txt         ncclGetVersion via dlopen (built in)
ProbeSpec GpuconformVersion();  // nodes/<h>/gpuconform-version.txt   this binary (built in)

// The in-process answers behind the built-in probes above.
RawOutput NcclVersionOutput(const LiveContext& context);         // "2.18.3"
RawOutput MpiLibraryVersionOutput(const LiveContext& context);   // MPI_Get_library_version
RawOutput GpuconformVersionOutput(const LiveContext& context);   // this binary's version

}  // namespace gpuconform::versions
