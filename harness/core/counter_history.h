// Error counters between runs: what a node's link counters read in its previous run in the
// history, and the rise since then judged as a rate. A counter's count since boot says little
// (a link may have been bad once, long ago; a counter saturates); its rise per hour on one link
// is what precedes a failure (an NVLink's recovery counter rising for days before an Xid).
// Conventions shared by every counter check (InfiniBand ports, NVLink, PCIe AER):
//   - each non-zero counter is a Measurement "<node>/<device>[/<port>].<counter>" with unit
//     kCounterUnit (or kSaturatedCounterUnit when it sits at its width's maximum), so the history
//     keeps it; a counter a judged check did not record read 0;
//   - a rate is the rise divided by the hours between the two readings, counted as at least one
//     hour: a rise between two runs minutes apart is not made into a large rate.
// Contract: pure. The history is read by history/ and handed to the suites in SuiteContext.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "harness/core/verdict.h"

namespace gpuconform {

inline constexpr char kCounterUnit[] = "errors";
inline constexpr char kSaturatedCounterUnit[] = "errors (saturated)";
bool IsCounterUnit(const std::string& unit);

// The counters of one check on one node as the newest run in the history that judged that check
// there (pass or fail) recorded them: those it did not record read 0.
struct CheckCounterReadings {
  std::string run_id;
  std::string read_utc;     // when they were read: a live run's start, a snapshot's captured_at
  double hours_before = 0;  // from that reading to this run's
  struct Reading {
    double value = 0;
    bool saturated = false;
  };
  // By the metric as a baseline knows it ("mlx5_0/port1.symbol_error").
  std::map<std::string, Reading> counters;
};

// One node's readings by "Suite.Check".
struct NodeCounterReadings {
  std::map<std::string, CheckCounterReadings> by_check;
};

struct CounterHistory {
  std::string origin;  // the history database, for messages
  std::map<std::string, NodeCounterReadings> by_node;
  const NodeCounterReadings* Of(const std::string& node) const;
};
const CounterHistory& NoCounterHistory();

// A counter's rise since the previous reading, as a rate.
struct CounterRise {
  enum class Kind {
    kNoPrevious,  // no earlier reading of this node's check: nothing to compare
    kNotJudged,   // went down (reset, reboot), saturated, or the readings are not in time order
    kWithin,
    kOver,        // rose faster than the limit
  };
  Kind kind = Kind::kNoPrevious;
  double rise = 0;
  double per_hour = 0;
  double hours = 0;
  std::string note;  // why a rise was not judged; or "+R in H h (P/h) since run ID"
};

// `check` is "Suite.Check", `metric` the measurement's name as a baseline knows it.
CounterRise JudgeCounterRise(const NodeCounterReadings* node, const std::string& check, const std::string& metric,
                             double now, bool saturated_now, double limit_per_hour);

// The measurement a counter check records for a rise: "<name>_per_hour" with the rate and its
// limit, or "not judged" with why; nothing when there was no previous reading or no rise.
std::optional<Measurement> RiseMeasurement(const std::string& name, const CounterRise& rise, double limit_per_hour,
                                           const std::string& limit_source);

// Hours from `earlier_utc` to `later_utc` ("2026-12-06T09:00:00Z"), or nothing when either
// cannot be read.
std::optional<double> HoursBetween(const std::string& earlier_utc, const std::string& later_utc);

}  // namespace gpuconform
