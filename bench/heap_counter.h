// Heap accounting for the benchmarks: the binary that links heap_counter.cc has its global
// operator new/delete replaced by counting ones, so a benchmark can report the peak bytes
// live on the heap while it ran (what a parser really holds), not the process's RSS, which
// also counts the input and everything allocated before.
#pragma once

#include <cstddef>

namespace gpuconform::bench {

std::size_t HeapLiveBytes();
std::size_t HeapPeakBytes();
// Starts a new peak at the current live bytes.
void ResetHeapPeak();

}  // namespace gpuconform::bench
