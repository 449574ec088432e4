// Levenshtein distance, for "did you mean" suggestions (profile keys, reason codes).
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuconform {

// The fewest single-character insertions, deletions and substitutions that turn a into b.
std::size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace gpuconform
