#include "app/completion_words.h"

#include "harness/core/profile.h"
#include "harness/core/reason_catalogue.h"

namespace gpuconform {

std::vector<std::string> VisibleVerbs(const CLI::App& app) {
  std::vector<std::string> verbs;
  // A verb with an empty group is hidden from --help (like `complete` itself); keep it out.
  for (const CLI::App* verb : app.get_subcommands([](const CLI::App* verb) { return !verb->get_name().empty() && !verb->get_group().empty(); })) {
    verbs.push_back(verb->get_name());
  }
  return verbs;
}

namespace {

std::optional<std::string> VerbOptions(const CLI::App& app, const std::string& name) {
  const CLI::App* verb = nullptr;
  for (const CLI::App* candidate : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (candidate->get_name() == name && !candidate->get_group().empty()) verb = candidate;
  }
  if (verb == nullptr) return std::nullopt;
  std::string words;
  for (const CLI::Option* option : verb->get_options()) {
    if (option->get_group().empty()) continue;  // hidden: set by `launch`, not by people
    // A flag expects no value; the script completes the next word as a value only after an
    // option that takes one.
    const char* kind = option->get_expected_max() == 0 ? "flag" : "value";
    for (const std::string& name : option->get_lnames()) words += "--" + name + "\t" + kind + "\n";
    for (const std::string& name : option->get_snames()) words += "-" + name + "\t" + kind + "\n";
  }
  return words;
}

std::string Lines(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += word + "\n";
  return text;
}

}  // namespace

std::optional<std::string> CompletionWords(const CLI::App& app, const std::vector<std::string>& request) {
  if (request.size() == 1 && request[0] == "verbs") return Lines(VisibleVerbs(app));
  if (request.size() == 2 && request[0] == "options") return VerbOptions(app, request[1]);
  if (request.size() == 1 && request[0] == "profiles") {
    std::vector<std::string> names;
    for (const BuiltinProfile& profile : BuiltinProfiles()) names.push_back(profile.name);
    return Lines(names);
  }
  if (request.size() == 1 && request[0] == "reasons") {
    std::vector<std::string> codes;
    for (const ReasonEntry& entry : kReasons) codes.emplace_back(entry.code);
    return Lines(codes);
  }
  return std::nullopt;
}

}  // namespace gpuconform
