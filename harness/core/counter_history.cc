#include "harness/core/counter_history.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

namespace gpuconform {

bool IsCounterUnit(const std::string& unit) { return unit == kCounterUnit || unit == kSaturatedCounterUnit; }

const NodeCounterReadings* CounterHistory::Of(const std::string& node) const {
  const auto found = by_node.find(node);
  return found == by_node.end() ? nullptr : &found->second;
}

const CounterHistory& NoCounterHistory() {
  static const CounterHistory kNone;
  return kNone;
}

namespace {

// "2026-12-06T09:00:00Z", "2026-12-06T09:00:00" or with fractional seconds: seconds since the
// epoch, read as UTC (a snapshot's captured_at is written in UTC without the Z).
std::optional<std::time_t> SecondsOf(const std::string& utc) {
  std::tm parts{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char tail = 0;
  const int read = std::sscanf(utc.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &year, &month, &day, &hour, &minute,
                               &second, &tail);
  if (read < 6 || (read == 7 && tail != 'Z' && tail != '.')) return std::nullopt;
  parts.tm_year = year - 1900;
  parts.tm_mon = month - 1;
  parts.tm_mday = day;
  parts.tm_hour = hour;
  parts.tm_min = minute;
  parts.tm_sec = second;
  const std::time_t seconds = timegm(&parts);
  if (seconds == static_cast<std::time_t>(-1)) return std::nullopt;
  return seconds;
}

}  // namespace

std::optional<double> HoursBetween(const std::string& earlier_utc, const std::string& later_utc) {
  const auto earlier = SecondsOf(earlier_utc);
  const auto later = SecondsOf(later_utc);
  if (!earlier || !later) return std::nullopt;
  return static_cast<double>(*later - *earlier) / 3600.0;
}

CounterRise JudgeCounterRise(const NodeCounterReadings* node, const std::string& check, const std::string& metric,
                             double now, bool saturated_now, double limit_per_hour) {
  CounterRise rise;
  if (!node) return rise;
  const auto judged = node->by_check.find(check);
  if (judged == node->by_check.end()) return rise;
  const CheckCounterReadings& previous = judged->second;
  const auto found = previous.counters.find(metric);
  const CheckCounterReadings::Reading before =
      found == previous.counters.end() ? CheckCounterReadings::Reading{} : found->second;
  const std::string since = fmt::format("since run {} ({})", previous.run_id, previous.read_utc);
  rise.kind = CounterRise::Kind::kNotJudged;
  if (saturated_now || before.saturated) {
    rise.note = fmt::format("saturated at its maximum {}: its rate cannot be known; clear the counters", since);
    return rise;
  }
  if (now < before.value) {
    rise.note = fmt::format("went down from {:g} to {:g} {} (the counters were cleared or the node rebooted): not "
                            "judged as a rate",
                            before.value, now, since);
    return rise;
  }
  if (!(previous.hours_before > 0)) {
    rise.note = fmt::format("the previous reading {} is not older than this one: not judged as a rate", since);
    return rise;
  }
  rise.rise = now - before.value;
  rise.hours = previous.hours_before;
  rise.per_hour = rise.rise / std::max(rise.hours, 1.0);
  rise.kind = rise.per_hour > limit_per_hour ? CounterRise::Kind::kOver : CounterRise::Kind::kWithin;
  rise.note = fmt::format("+{:g} in {:.1f} h ({:.2f}/h) {}", rise.rise, rise.hours, rise.per_hour, since);
  return rise;
}

std::optional<Measurement> RiseMeasurement(const std::string& name, const CounterRise& rise, double limit_per_hour,
                                           const std::string& limit_source) {
  if (rise.kind == CounterRise::Kind::kNoPrevious || (rise.kind == CounterRise::Kind::kWithin && rise.rise == 0)) {
    return std::nullopt;
  }
  const std::string source = rise.note + "; limit: " + limit_source;
  if (rise.kind == CounterRise::Kind::kNotJudged) return Measurement{name + "_per_hour", "not judged", "", "", source};
  return Measurement{name + "_per_hour", fmt::format("{:.2f}", rise.per_hour), "errors/h",
                     fmt::format("<= {:g}", limit_per_hour), source};
}

}  // namespace gpuconform
