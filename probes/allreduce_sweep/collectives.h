// The collectives beyond allreduce that the MPI sweep measures (alltoall, allgather,
// reduce_scatter): their names, what nccl-tests calls them, how a table row of each is sized
// and its bus bandwidth computed, and what every rank must receive, so that the worker that
// measures them and the suite that judges them agree on one definition.
// Sizes and busbw as nccl-tests states them (doc/PERFORMANCE.md, "Bus bandwidth"; src/alltoall.cu
// AlltoAllGetBw for alltoall): the printed size S is the total bytes (allgather: the gathered
// output; reduce_scatter: the reduced input; alltoall: one rank's whole send buffer), algbw =
// S / time, busbw = algbw * (n-1)/n for all three (each rank sends or receives (n-1)/n of S).
// Contract: pure. Sizes in bytes; times in microseconds; bandwidths in GB/s (1e9 B/s).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuconform::allreduce_sweep {

struct CollectiveDefinition {
  std::string name;         // "alltoall": the profile's and the worker's spelling
  std::string perf_binary;  // nccl-tests' "alltoall_perf"
  std::string mpi_call;     // "MPI_Alltoall"
  std::string redop;        // the table's redop column, as nccl-tests prints it ("none" or "sum")
};

// alltoall, allgather and reduce_scatter, in that (report) order.
const std::vector<CollectiveDefinition>& BeyondAllreduce();

// The definition named `name`; nullopt for any other name.
std::optional<CollectiveDefinition> FindCollective(std::string_view name);

// "alltoall, allgather, reduce_scatter": for messages that list the allowed names.
std::string CollectiveNames();

// busbw from algbw over `ranks` ranks: (n-1)/n, nccl-tests' factor for all three.
double CollectiveBusBandwidth(double algbw_gb_per_s, int ranks);

// `size_bytes` rounded down to a whole number of floats per rank (every rank's block the same
// size), and at least one float per rank.
long long CollectiveSizeBytes(long long size_bytes, int ranks);

// One row in nccl-tests' format: size, count (of floats), type float, `redop`, root -1, time,
// algbw, busbw (algbw times `busbw_factor`), #wrong.
std::string CollectiveTableRow(long long size_bytes, double time_us, const std::string& redop, double busbw_factor,
                               long long wrong_elements);

// What each rank sends and must receive, so that a block that is missing, duplicated or
// delivered to the wrong slot is counted wrong (up to 2,048 ranks for alltoall; reduce_scatter
// tells slots apart modulo 16). Every value is a small whole number, exact in a float, and so
// is reduce_scatter's sum up to 131,072 ranks.
// alltoall: the block rank `from` sends to rank `to`.
float AlltoallBlockValue(int from, int to);
// allgather: rank `from`'s block, which every rank must hold in slot `from`.
float AllgatherBlockValue(int from);
// reduce_scatter: rank `from`'s input block for slot `to`, and the sum rank `to` must receive.
float ReduceScatterInputValue(int from, int to);
float ReduceScatterExpectedSum(int to, int ranks);

}  // namespace gpuconform::allreduce_sweep
