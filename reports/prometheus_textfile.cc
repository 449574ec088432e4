#include "reports/prometheus_textfile.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "harness/core/counter_history.h"
#include "harness/util/atomic_file.h"
#include "harness/util/metric_bound.h"
#include "harness/util/read_file.h"
#include "harness/util/text_util.h"
#include "results/metrics.h"

namespace gpuconform {

namespace {

constexpr char kLastSuccess[] = "gpuconform_last_success_timestamp_seconds";

// A label value as the exposition format wants it: backslash, quote and newline escaped.
std::string LabelValue(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '"') {
      escaped += "\\\"";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string CaseLabels(const CheckResult& result) {
  return fmt::format("suite=\"{}\",check=\"{}\",node=\"{}\"", LabelValue(result.suite), LabelValue(result.check),
                     LabelValue(result.node.empty() ? "cluster" : result.node));
}

void Family(std::string& out, const char* name, const char* type, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

// A measurement in base units: bandwidths in bytes per second, times in seconds.
struct BaseUnit {
  const char* family;
  double factor;
};
std::optional<BaseUnit> BaseUnitOf(const std::string& unit) {
  static const std::map<std::string, BaseUnit> kUnits = {
      {"GB/s", {"gpuconform_measured_bandwidth_bytes_per_second", 1e9}},
      {"MB/s", {"gpuconform_measured_bandwidth_bytes_per_second", 1e6}},
      {"Gbit/s", {"gpuconform_measured_bandwidth_bytes_per_second", 1e9 / 8}},
      {"s", {"gpuconform_measured_time_seconds", 1}},
      {"ms", {"gpuconform_measured_time_seconds", 1e-3}},
      {"us", {"gpuconform_measured_time_seconds", 1e-6}},
  };
  const auto it = kUnits.find(unit);
  if (it == kUnits.end()) return std::nullopt;
  return it->second;
}

// A link error counter's labels from its measurement name, "<node>/<device>[/<port>].<counter>"
// (harness/core/counter_history.h): device "mlx5_2", port "port1" (empty for a device without
// ports, e.g. a PCIe function "0000:19:00.0"), counter "symbol_error".
std::string LinkLabels(const CheckResult& result, const std::string& name, std::string_view suffix) {
  std::string link = MetricIdentity(result.node, name);
  link.resize(link.size() - suffix.size());
  const auto dot = link.rfind('.');
  const std::string counter = dot == std::string::npos ? link : link.substr(dot + 1);
  link = dot == std::string::npos ? "" : link.substr(0, dot);
  const auto slash = link.find('/');
  const std::string device = link.substr(0, slash);
  const std::string port = slash == std::string::npos ? "" : link.substr(slash + 1);
  return fmt::format("node=\"{}\",device=\"{}\",port=\"{}\",counter=\"{}\",suite=\"{}\",check=\"{}\"",
                     LabelValue(result.node.empty() ? "cluster" : result.node), LabelValue(device), LabelValue(port),
                     LabelValue(counter), LabelValue(result.suite), LabelValue(result.check));
}

// The link error counters the checks recorded (non-zero ones: an absent series reads 0), and
// their rates since the node's previous run in the history.
void LinkErrorSeries(std::string& out, const std::vector<CheckResult>& results) {
  std::string totals, rates;
  for (const auto& result : results) {
    for (const auto& measurement : result.measurements) {
      const auto value = MetricNumber(measurement.value);
      if (!value) continue;
      if (IsCounterUnit(measurement.unit)) {
        totals += fmt::format("gpuconform_link_errors_total{{{}}} {}\n", LinkLabels(result, measurement.name, ""),
                              *value);
      } else if (measurement.unit == "errors/h" && measurement.name.ends_with("_per_hour")) {
        rates += fmt::format("gpuconform_link_errors_per_hour{{{}}} {}\n",
                             LinkLabels(result, measurement.name, "_per_hour"), *value);
      }
    }
  }
  if (!totals.empty()) {
    Family(out, "gpuconform_link_errors_total", "counter",
           "A link's error counter as its device keeps it (InfiniBand port, PCIe function), where non-zero.");
    out += totals;
  }
  if (!rates.empty()) {
    Family(out, "gpuconform_link_errors_per_hour", "gauge",
           "A link error counter's rise per hour since the node's previous run in the history.");
    out += rates;
  }
}

}  // namespace

std::string RenderPrometheusTextfile(const Run& judged, double now_s, std::optional<double> last_success_s) {
  const RunRecord& run = judged.record;
  const std::vector<CheckResult>& results = judged.cases;
  std::string out;
  Family(out, "gpuconform_build_info", "gauge", "gpuconform's version, as a label; always 1.");
  out += fmt::format("gpuconform_build_info{{version=\"{}\"}} 1\n", LabelValue(run.gpuconform_version));
  Family(out, "gpuconform_exit_status", "gauge",
         "The last run's exit status: 0 conforms, 1 non-conformance, 2 bad input, 3 not evaluated, 4 regressed.");
  out += fmt::format("gpuconform_exit_status{{profile=\"{}\"}} {}\n", LabelValue(run.profile), run.exit_status);
  Family(out, "gpuconform_last_run_timestamp_seconds", "gauge", "When the last run ended, seconds since the epoch.");
  out += fmt::format("gpuconform_last_run_timestamp_seconds {:.0f}\n", now_s);
  if (last_success_s) {
    Family(out, kLastSuccess, "gauge", "When a run last conformed (exit status 0), seconds since the epoch.");
    out += fmt::format("{} {:.0f}\n", kLastSuccess, *last_success_s);
  }
  std::map<std::string, int> counts = {{"pass", 0}, {"fail", 0}, {"error", 0}, {"skip", 0}, {"regression", 0}};
  for (const auto& result : results) ++counts[VerdictName(result.verdict)];
  Family(out, "gpuconform_cases", "gauge", "Test cases of the last run by verdict (a case is a check on one node).");
  for (const auto& [verdict, count] : counts)
    out += fmt::format("gpuconform_cases{{verdict=\"{}\"}} {}\n", verdict, count);

  Family(out, "gpuconform_check_success", "gauge",
         "1 when the check conforms on the node (node=\"cluster\" for a cluster-wide check), 0 when it does not, "
         "regressed, or could not be evaluated; skipped checks are absent.");
  for (const auto& result : results) {
    if (result.verdict == Verdict::kSkip) continue;
    out += fmt::format("gpuconform_check_success{{{}}} {}\n", CaseLabels(result),
                       result.verdict == Verdict::kPass ? 1 : 0);
  }
  Family(out, "gpuconform_check_duration_seconds", "gauge", "How long the check took to judge, in seconds.");
  for (const auto& result : results) {
    if (result.verdict == Verdict::kSkip) continue;
    out += fmt::format("gpuconform_check_duration_seconds{{{}}} {}\n", CaseLabels(result), result.time_s);
  }
  // Measured numbers, per family, in base units.
  std::map<std::string, std::string> samples;
  for (const auto& result : results) {
    for (const auto& measurement : result.measurements) {
      const auto unit = BaseUnitOf(measurement.unit);
      const auto value = MetricNumber(measurement.value);
      if (!unit || !value) continue;
      samples[unit->family] += fmt::format("{}{{{},metric=\"{}\"}} {}\n", unit->family, CaseLabels(result),
                                           LabelValue(measurement.name), *value * unit->factor);
    }
  }
  for (const auto& [family, lines] : samples) {
    Family(out, family.c_str(), "gauge",
           family.ends_with("bytes_per_second") ? "A bandwidth the check measured, in bytes per second."
                                                : "A time the check measured, in seconds.");
    out += lines;
  }
  LinkErrorSeries(out, results);
  return out;
}

std::optional<double> LastSuccessInTextfile(const std::string& text) {
  const std::string prefix = std::string(kLastSuccess) + " ";
  for (const std::string_view line : SplitLines(text)) {
    if (line.starts_with(prefix)) return MetricNumber(line.substr(prefix.size()));
  }
  return std::nullopt;
}

Result<bool> WritePrometheusTextfile(const std::string& dir, const Run& run) {
  const std::string path = (std::filesystem::path(dir) / kPrometheusTextfileName).string();
  const double now_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::optional<double> last_success;
  if (run.record.exit_status == 0) {
    last_success = now_s;
  } else if (auto previous = ReadTextFile(path, "Prometheus textfile", 64 << 20)) {
    last_success = LastSuccessInTextfile(*previous);
  }
  return WriteFileAtomically(path, RenderPrometheusTextfile(run, now_s, last_success));
}

}  // namespace gpuconform
