// The system's malloc for a process that measures MPI: the program links jemalloc for judging
// fleets (CMakeLists.txt says why), but with jemalloc's malloc in the process, Open MPI's own
// allocations made a blocking MPI_Allgather of 4-16 MiB 20-25% slower over TCP than the same
// call in a process with glibc's malloc (docs/benchmarks.md, "MPI allreduce, alltoall and
// allgather against IMB-MPI1"). A measuring worker therefore starts itself once more with
// glibc's libc and libstdc++ preloaded, which the dynamic linker then searches before the
// program's own libraries: malloc, free and operator new bind to them, and jemalloc, though
// loaded, serves nothing.
// Contract: RestartWithSystemMalloc returns only where no restart happens (malloc is already
// the system's, the restart was tried once, or exec failed); SystemMallocRestart is pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

// Marks the restarted process, so that it never restarts again.
inline constexpr char kSystemMallocMarker[] = "GPUCONFORM_SYSTEM_MALLOC";
// Searched before the program's libraries: glibc's malloc and libstdc++'s operator new.
inline constexpr char kSystemMallocPreload[] = "libc.so.6 libstdc++.so.6";

// The LD_PRELOAD for the restart: ours before what the process had (a site's own preload is
// kept, after ours); nullopt where no restart is due: malloc is already the system's, or
// `marker` is set (this process is the restart).
std::optional<std::string> SystemMallocRestart(bool malloc_is_system, const char* marker, const char* preload);

// The shared object that this process's malloc comes from ("libjemalloc.so.2", "libc.so.6").
std::string MallocLibrary();

// Execs /proc/self/exe with `argv` (argv[0] included) and the preload, where one is due.
void RestartWithSystemMalloc(const std::vector<std::string>& argv);

}  // namespace gpuconform
