// WriteFileAtomically: the publish sequence a crash cannot tear — write a temporary file
// in the same directory, fsync it, rename it over the target, fsync the directory.
// Contract: afterwards the path holds either the old contents or the new, never a mix;
// parent directories are created; errors name the path and the failing step.
#pragma once

#include <string>

#include "harness/result.h"

namespace gpuconform {

Result<bool> WriteFileAtomically(const std::string& path, const std::string& contents);

}  // namespace gpuconform
