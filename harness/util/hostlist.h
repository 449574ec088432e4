// Slurm hostlist notation for node names in messages and summaries: "gpu[00001-01000,01003]"
// instead of a thousand names. Contract: pure; names keep their first-seen group order, each
// group's numbers are sorted and deduplicated; zero-padded numbers keep their width, and a
// name without a trailing number is kept as it is. `scontrol show hostnames` expands the
// result back to the same set of names.
#pragma once

#include <string>
#include <vector>

namespace gpuconform {

std::string CompressHostlist(const std::vector<std::string>& names);

// A hostlist for a line of text: cut near `max_chars` at a comma (inside a group only when the
// first group alone is longer, closing its bracket), with the count of the names left out
// ("node[1-3],a,b, ... and 2998 more"), so 10,000 unrelated names are one line.
std::string ShortHostlist(const std::vector<std::string>& names, std::size_t max_chars = 160);

}  // namespace gpuconform
