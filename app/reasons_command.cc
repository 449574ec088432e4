#include "app/reasons_command.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "harness/core/reason_catalogue.h"
#include "harness/util/edit_distance.h"

namespace gpuconform {

namespace {

// One entry as a block: a terminal is narrower than code + class + meaning + next step.
void PrintEntry(std::ostream& out, const ReasonEntry& entry) {
  out << entry.code << " (" << FaultClassName(entry.fault_class) << ")\n"
      << "  meaning:   " << entry.meaning << "\n"
      << "  next step: " << entry.next_step << "\n";
}

// Codes a typo or a half-remembered name may have meant: a few edits away, or sharing a part.
std::vector<std::string_view> CloseCodes(std::string_view wanted) {
  std::vector<std::string_view> close;
  for (const ReasonEntry& entry : kReasons) {
    const bool contains = wanted.size() >= 4 && (entry.code.find(wanted) != std::string_view::npos ||
                                                 wanted.find(entry.code) != std::string_view::npos);
    if (contains || EditDistance(wanted, entry.code) <= 3) close.push_back(entry.code);
  }
  return close;
}

}  // namespace

int ReasonsVerb(bool json) {
  if (json) {
    nlohmann::json entries = nlohmann::json::array();
    for (const ReasonEntry& entry : kReasons) {
      entries.push_back({{"code", entry.code},
                         {"fault_class", FaultClassName(entry.fault_class)},
                         {"meaning", entry.meaning},
                         {"next_step", entry.next_step}});
    }
    std::cout << entries.dump(2) << "\n";
    return 0;
  }
  for (const ReasonEntry& entry : kReasons) PrintEntry(std::cout, entry);
  return 0;
}

int ExplainVerb(const std::string& code) {
  if (const ReasonEntry* entry = FindReason(code)) {
    PrintEntry(std::cout, *entry);
    return 0;
  }
  if (const std::string_view renamed = RenamedTo(code); !renamed.empty()) {
    std::cout << code << " was renamed to " << renamed << "; earlier releases reported it.\n";
    PrintEntry(std::cout, *FindReason(renamed));
    return 0;
  }
  std::cerr << "gpuconform: unknown reason code '" << code << "'";
  const auto close = CloseCodes(code);
  for (std::size_t i = 0; i < close.size(); ++i) std::cerr << (i == 0 ? "; did you mean: " : ", ") << close[i];
  std::cerr << "\nRun `gpuconform reasons` for the whole catalogue.\n";
  return 2;
}

}  // namespace gpuconform
