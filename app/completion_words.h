// The words the shell's completion asks the binary for, through the hidden verb
// `gpuconform complete WHAT` (the bash completion script, packaging/gpuconform.bash-completion).
// Contract: one word per line, read from the command line's own definition, the built-in
// profiles and the reason catalogue, so completion never lags behind the binary it completes.
//   verbs          the visible verbs
//   options VERB   VERB's visible options, each "NAME<TAB>value" or "NAME<TAB>flag"
//   profiles       the built-in profile names
//   reasons        every reason code
// An unknown request gives std::nullopt.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

std::optional<std::string> CompletionWords(const CLI::App& app, const std::vector<std::string>& request);

// The visible verbs of `app` (those in a help group), in the order they were added.
std::vector<std::string> VisibleVerbs(const CLI::App& app);

}  // namespace gpuconform
