// InfiniBand port error counters, from the three places operators read them:
//   - gpuconform's own sysfs probe (ib-counters.txt, record lines):
//       ib-counters sysfs_root=/sys device_count=N
//       counter device=mlx5_0 port=1 name=symbol_error value=12
//     names as the kernel's /sys/class/infiniband/<dev>/ports/<p>/counters/ spells them;
//   - `perfquery -x` (infiniband-diags): "# Port extended counters: Lid 2052 port 1 ..." then
//     "SymbolErrorCounter:..............0" lines;
//   - `ibqueryerrors`: "Errors for <node>" then "GUID 0x... port 5: [SymbolErrorCounter == 65535] ...".
// Every counter becomes its sysfs name, with the width the IBTA PortCounters attribute gives it,
// so a value at the width's maximum is known to be saturated: a lower bound, not a count
// (leptonai/gpud#943). Pure; errors name origin:line; garbage is an error, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::ib_counters {

// What a counter says about the link, and so who acts on it.
enum class CounterKind {
  kPhysical,    // the signal: symbol errors, recoveries, integrity, receive errors, overruns (cable, transceiver)
  kLinkDown,    // the link went down and came back (cable, peer port, power)
  kDiscard,     // packets dropped or refused at a port (congestion, routing, a peer that went away)
  kCongestion,  // time spent waiting to send: a load indicator, never a fault by itself
};

struct CounterInfo {
  std::string name;           // sysfs name, e.g. "symbol_error"
  std::string perfquery_name; // "SymbolErrorCounter"
  int width_bits = 16;        // in the IBTA PortCounters attribute
  CounterKind kind = CounterKind::kPhysical;
  std::uint64_t default_limit = 0;  // counts above this fail (see kDefaultLimitSource)
};

// The error counters gpuconform judges, in the order reports list them.
const std::vector<CounterInfo>& KnownCounters();
const CounterInfo* FindCounter(const std::string& sysfs_or_perfquery_name);
inline constexpr char kDefaultLimitSource[] =
    "ibqueryerrors' default thresholds (infiniband-diags: 10 for symbol errors, receive errors and link "
    "integrity, 100 for discards and relay errors), with 0 link downs, recoveries and VL15 drops, as an "
    "accepted cluster has none";

struct CounterValue {
  std::uint64_t value = 0;
  bool saturated = false;  // at the maximum of its width: "at least" value
};

struct PortCounters {
  std::string device;  // "mlx5_0", or "LID 2052", or "GUID 0x2c903006e29b0"
  std::string node;    // ibqueryerrors' "Errors for <node>" description; empty elsewhere
  std::string port;    // "1", or "ALL" (ibqueryerrors' switch aggregate)
  std::map<std::string, CounterValue> counters;  // sysfs name -> value (known counters only)
};

struct CounterReport {
  std::string origin;
  std::string format;  // "sysfs", "perfquery", "ibqueryerrors"
  std::vector<PortCounters> ports;
};

// Any of the three formats, told apart by their first meaningful line.
Result<CounterReport> ParseIbCounters(const std::string& text, const std::string& origin);

}  // namespace gpuconform::ib_counters
