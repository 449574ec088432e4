#include "probes/mpi_sweep/step_deaths.h"

#include <algorithm>
#include <csignal>
#include <optional>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::mpi_sweep {

using resource_limits::ClassifiedDeath;
using resource_limits::WorkerDeath;

namespace {

// The signal srun names with strsignal()'s words.
std::optional<int> SignalNamed(std::string_view words) {
  static const std::pair<std::string_view, int> kNames[] = {
      {"Hangup", SIGHUP},    {"Interrupt", SIGINT}, {"Aborted", SIGABRT},           {"Bus error", SIGBUS},
      {"Killed", SIGKILL},   {"Terminated", SIGTERM}, {"Segmentation fault", SIGSEGV},
      {"Floating point exception", SIGFPE}};
  for (const auto& [name, number] : kNames) {
    if (words.starts_with(name)) return number;
  }
  return std::nullopt;
}

std::optional<int> AsInt(std::optional<long long> value) {
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

std::optional<int> NumberAfter(std::string_view line, std::string_view words) {
  const auto at = line.find(words);
  if (at == std::string_view::npos) return std::nullopt;
  const auto digits = line.substr(at + words.size());
  const auto end = digits.find_first_not_of("0123456789");
  return AsInt(WholeInteger(digits.substr(0, end)));
}

struct LauncherReport {
  std::string node;
  WorkerDeath death;
};

// srun's "srun: error: node3: task 2: Bus error" or "...: tasks 1-3: Exited with exit code 3";
// mpirun's "... process rank 2 with PID 77 on node node3 exited on signal 7 (Bus error).".
std::optional<LauncherReport> LauncherSaysDied(std::string_view line) {
  LauncherReport report;
  if (line.starts_with("srun: error: ")) {
    const auto rest = line.substr(13);
    const auto task = rest.find(": task");
    if (task == std::string_view::npos) return std::nullopt;
    const auto status_at = rest.find(": ", task + 2);
    if (status_at == std::string_view::npos) return std::nullopt;
    const auto status = Trim(rest.substr(status_at + 2));
    report.node = std::string(Trim(rest.substr(0, task)));
    report.death.exit_code = NumberAfter(status, "Exited with exit code ");
    report.death.signal = SignalNamed(status);
  } else if (const auto on = line.find(" on node "); on != std::string_view::npos && Contains(line, " exited on signal ")) {
    const auto words = SplitWords(line.substr(on + 9));
    if (words.empty()) return std::nullopt;
    report.node = std::string(words.front());
    report.death.signal = NumberAfter(line, " exited on signal ");
  } else {
    return std::nullopt;
  }
  if (report.node.empty() || report.node.find(' ') != std::string::npos) return std::nullopt;
  return report;
}

// The launcher ending the step: what dies after this was killed by it.
bool EndsTheStep(std::string_view line) {
  return line.starts_with("srun: Terminating") || line.starts_with("srun: Job step aborted") ||
         line.starts_with("srun: forcing job termination") || line.starts_with("srun: error: Timed out") ||
         Contains(line, " CANCELLED AT ");
}

// The step's node a line names: "node3: ...", "node3:1234:1240 [0] NCCL WARN ...", "[node3:1234] ...".
std::string NodeOf(std::string_view line, const std::vector<std::string>& nodes) {
  for (const auto& node : nodes) {
    const auto named_at = [&](std::size_t at) {
      const std::size_t end = at + node.size();
      return end < line.size() && (line[end] == ':' || line[end] == ']') && line.substr(at, node.size()) == node;
    };
    if (named_at(0)) return node;
    for (auto at = line.find('['); at != std::string_view::npos; at = line.find('[', at + 1)) {
      if (named_at(at + 1)) return node;
    }
  }
  return "";
}

}  // namespace

std::vector<StepDeath> StepDeaths(const std::string& step_stderr, const std::vector<std::string>& nodes,
                                  bool timed_out) {
  std::vector<StepDeath> deaths;
  std::vector<std::pair<std::string, std::string_view>> said;  // (node or "", line)
  bool ended = false;
  for (const auto raw : SplitLines(step_stderr)) {
    const auto line = Trim(raw);
    if (line.empty()) continue;
    if (EndsTheStep(line)) {
      ended = true;
      continue;
    }
    if (auto report = LauncherSaysDied(line)) {
      const bool known = std::any_of(deaths.begin(), deaths.end(), [&](const StepDeath& d) { return d.node == report->node; });
      if (!ended && !known) {
        report->death.killed_by_deadline = timed_out;
        deaths.push_back({report->node, report->death});
      }
      said.emplace_back(report->node, line);
      continue;
    }
    said.emplace_back(NodeOf(line, nodes), line);
  }
  for (auto& death : deaths) {
    const bool first = &death == &deaths.front();
    for (const auto& [node, line] : said) {
      if (node == death.node || (node.empty() && first)) resource_limits::KeepLine(death.death, line);
    }
  }
  return deaths;
}

std::vector<ClassifiedDeath> ClassifySweepDeaths(const SweepDeathRecords& records) {
  return resource_limits::ClassifyRecordedDeaths(records, "the MPI sweep worker");
}

}  // namespace gpuconform::mpi_sweep
