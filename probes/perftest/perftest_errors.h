// Which of perftest's own error lines a line is (perftest_parse.h's PerftestErrorKind), from
// the words perftest's sources print (perftest_parameters.c, perftest_communication.c,
// perftest_resources.c, cuda_memory.c); nullopt for a line that is no error. Pure.
#pragma once

#include <optional>
#include <string_view>

#include "probes/perftest/perftest_parse.h"

namespace gpuconform::perftest {

std::optional<PerftestErrorKind> ClassifyPerftestLine(std::string_view line);

}  // namespace gpuconform::perftest
