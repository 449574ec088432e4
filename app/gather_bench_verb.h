// `gpuconform __gather-bench --via tcp|pmix --part-bytes N`: the run's final gather alone, for
// bench/gather-traffic. It forms the world from the launch's environment, gathers one part of
// N bytes from every rank to rank 0 the chosen way (tcp_gather.h, or the launcher's collecting
// fence), and rank 0 prints one record line: "gather via=tcp ranks=12 part_bytes=25000
// received_bytes=300000 seconds=0.041". Several tasks per node stand in for more nodes; the
// bench reads each node's management-interface counters around the step.
#pragma once

#include <string>
#include <vector>

namespace gpuconform {

inline constexpr const char* kGatherBenchVerb = "__gather-bench";

int GatherBenchMain(const std::vector<std::string>& args);

}  // namespace gpuconform
