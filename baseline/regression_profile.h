// The profile's `regression:` section, owned by the baseline comparison that reads it (and the
// verbs that hand it over): how far a metric may move the wrong way before it is a
// regression. Absent: gpuconform's defaults, which say they are defaults.
#pragma once

#include <string>

namespace gpuconform {

// How far a metric may move the wrong way from the baseline (--baseline) before it is a
// regression, as a fraction of the baseline value, per metric family (by the metric's
// unit). Only metrics with a direction (a floor or a ceiling) are compared; counts,
// capacities and other units are judged by their checks alone.
inline constexpr char kDefaultRegressionSource[] =
    "gpuconform's default, not a measurement of this cluster: a bandwidth may drop 10% and a time may rise 25% "
    "before it is a regression; set regression: in the profile from your own run-to-run spread";
struct RegressionTolerance {
  static constexpr char kKey[] = "regression";
  double bandwidth_fraction = 0.10;  // GB/s, Gbit/s, MB/s
  double time_fraction = 0.25;       // s, ms, us
  std::string source = kDefaultRegressionSource;
};

}  // namespace gpuconform
