// The reason-catalogue verbs: `gpuconform reasons [--json]` and `gpuconform explain CODE`.
// Contract: both only read kReasons and write to stdout/stderr; they return the exit
// status (0, or 2 for an unknown code, with close codes suggested on stderr).
#pragma once

#include <string>

namespace gpuconform {

int ReasonsVerb(bool json);
int ExplainVerb(const std::string& code);

}  // namespace gpuconform
