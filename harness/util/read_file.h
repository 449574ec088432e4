// ReadTextFile: a whole input file (a results document, a baseline) into memory, bounded.
// Contract: errors name the path, what the file was meant to be, and why it could not be read.
#pragma once

#include <cstddef>
#include <string>

#include "harness/util/result.h"

namespace gpuconform {

// `what` completes "cannot open <what>": e.g. "results document".
Result<std::string> ReadTextFile(const std::string& path, const std::string& what,
                                 std::size_t max_bytes = std::size_t{1} << 30);

}  // namespace gpuconform
