// The Prometheus textfile (`run --prometheus-dir DIR`): DIR/gpuconform.prom in the text
// exposition format, for node_exporter's textfile collector, so monitoring sees each check's
// state, the verdict counts, the measured bandwidths and times, and when the cluster last ran
// and last conformed.
// Contract: RenderPrometheusTextfile is pure; names and units follow Prometheus' conventions
// (base units: bytes per second, seconds; `promtool check metrics` accepts the output, which
// the tests check). WritePrometheusTextfile replaces the file atomically (temporary file and
// rename in DIR, node_exporter's convention, so a scrape never reads half a file); when this
// run did not conform it carries gpuconform_last_success_timestamp_seconds over from the file
// it replaces.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/verdict.h"
#include "harness/util/result.h"
#include "results/run.h"

namespace gpuconform {

inline constexpr char kPrometheusTextfileName[] = "gpuconform.prom";

// `now_s`: the run's end, seconds since the epoch; `last_success_s`: when a run last exited 0.
std::string RenderPrometheusTextfile(const Run& run, double now_s, std::optional<double> last_success_s);

// The last-success timestamp a textfile holds, if any.
std::optional<double> LastSuccessInTextfile(const std::string& text);

Result<bool> WritePrometheusTextfile(const std::string& dir, const Run& run);

}  // namespace gpuconform
