#include "reports/html_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

#include "harness/util/metric_bound.h"
#include "results/metrics.h"

namespace gpuconform::html {

namespace {

// Caps that keep the page's size independent of the fleet's: past them a section says how
// many it left out.
constexpr std::size_t kMaxDistributions = 60;
constexpr std::size_t kMaxNamedOutliers = 8;
constexpr std::size_t kMaxChangeRows = 100;
constexpr std::size_t kMaxTrends = 100;
constexpr std::size_t kMaxTrendPoints = 200;
constexpr int kHistogramBins = 40;

// Series colours for the line charts: none of them is a verdict's colour, so a line is never
// read as a failure; red stays for the floors.
constexpr std::string_view kSeriesColours[] = {"#1f6fb4", "#17a2b8", "#8c564b", "#d63384", "#6c757d", "#b8860b"};

std::string_view SeriesColour(std::size_t index) { return kSeriesColours[index % std::size(kSeriesColours)]; }

// Maps [from_low, from_high] onto [to_low, to_high]; a degenerate range maps to its middle.
struct Scale {
  double from_low, from_high, to_low, to_high;
  double operator()(double value) const {
    if (from_high == from_low) return (to_low + to_high) / 2;
    return to_low + (value - from_low) / (from_high - from_low) * (to_high - to_low);
  }
};

// A round step for about `count` axis ticks over [0, high]: 1, 2 or 5 times a power of ten.
double TickStep(double high, int count) {
  if (high <= 0) return 1;
  const double raw = high / count;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (raw <= factor * power) return factor * power;
  }
  return 10 * power;
}

std::string Coordinate(double value) { return fmt::format("{:.1f}", value); }

std::string SvgText(double x, double y, std::string_view text, std::string_view extra = "") {
  return fmt::format("<text x=\"{}\" y=\"{}\"{}{}>{}</text>", Coordinate(x), Coordinate(y), extra.empty() ? "" : " ",
                     extra, Escape(text));
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// ---- Distributions -----------------------------------------------------------------------

// One metric's values across the nodes (a cluster-wide case counts as the node "cluster").
struct MetricSpread {
  std::string suite, check, metric, unit;
  MetricBound bound;
  std::vector<std::pair<std::string, double>> values;  // node, value
  std::vector<double> baselines;                       // the compared nodes' baseline values
  double tolerance = 0;
  int regressed = 0;

  bool Violates(double value) const {
    return (bound.floor && value < *bound.floor) || (bound.ceiling && value > *bound.ceiling);
  }
  std::size_t Violations() const {
    return static_cast<std::size_t>(
        std::count_if(values.begin(), values.end(), [&](const auto& entry) { return Violates(entry.second); }));
  }
};

std::vector<MetricSpread> CollectSpreads(const std::vector<CheckResult>& results,
                                         const std::unordered_set<std::string>& known_nodes) {
  std::vector<MetricSpread> spreads;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  for (const auto& result : results) {
    for (const auto& measurement : result.measurements) {
      const MetricBound bound = ParseMetricBound(measurement.threshold);
      const auto value = MetricNumber(measurement.value);
      if (bound.better.empty() || !value) continue;
      const MetricOwner owner = OwnerOf(result, measurement.name, known_nodes);
      const auto key = std::make_tuple(result.suite, result.check, owner.metric);
      auto [it, added] = index.try_emplace(key, spreads.size());
      if (added) spreads.push_back({result.suite, result.check, owner.metric, measurement.unit, bound, {}, {}, 0, 0});
      MetricSpread& spread = spreads[it->second];
      spread.values.emplace_back(owner.node.empty() ? "cluster" : owner.node, *value);
      if (measurement.baseline.compared) {
        spread.baselines.push_back(measurement.baseline.value);
        spread.tolerance = measurement.baseline.tolerance_fraction;
        spread.regressed += measurement.baseline.regressed ? 1 : 0;
      }
    }
  }
  return spreads;
}

// The binned histogram: a constant number of bars whatever the node count, each at least
// 2 px tall when it holds a node, so a lone outlier among 10,000 stays visible.
// Whether a bound is close enough to the values to share their axis: a ceiling of 10,000 ms
// over values near 1 ms would squeeze every value into one bar, so a far bound is named at
// the axis's edge instead of drawn.
bool NearTheValues(double bound, double low, double high) {
  const double span = std::max({high - low, std::fabs(high) * 0.25, 1e-9});
  return bound >= low - span && bound <= high + span;
}

std::string HistogramSvg(const MetricSpread& spread) {
  constexpr double kWidth = 440, kLeft = 12, kRight = 428, kTop = 26, kBottom = 96;
  std::vector<double> range;
  for (const auto& [node, value] : spread.values) range.push_back(value);
  const auto [value_low, value_high] = std::minmax_element(range.begin(), range.end());
  const double data_low = *value_low, data_high = *value_high;
  const auto drawn = [&](const std::optional<double>& bound) {
    return bound && NearTheValues(*bound, data_low, data_high);
  };
  if (drawn(spread.bound.floor)) range.push_back(*spread.bound.floor);
  if (drawn(spread.bound.ceiling)) range.push_back(*spread.bound.ceiling);
  const double baseline = Median(spread.baselines);
  if (!spread.baselines.empty() && NearTheValues(baseline, data_low, data_high)) range.push_back(baseline);
  auto [low, high] = std::minmax_element(range.begin(), range.end());
  double from = *low, to = *high;
  if (from == to) {
    const double pad = from == 0 ? 1 : std::fabs(from) * 0.1;
    from -= pad;
    to += pad;
  }
  const double pad = (to - from) * 0.04;
  from -= pad;
  to += pad;
  const Scale x{from, to, kLeft, kRight};
  const auto clamped = [&](double value) { return std::clamp(x(value), kLeft, kRight); };

  std::vector<int> counts(kHistogramBins, 0), bad(kHistogramBins, 0);
  for (const auto& [node, value] : spread.values) {
    const int bin = std::clamp(static_cast<int>((value - from) / (to - from) * kHistogramBins), 0, kHistogramBins - 1);
    ++counts[static_cast<std::size_t>(bin)];
    bad[static_cast<std::size_t>(bin)] += spread.Violates(value) ? 1 : 0;
  }
  const int most = *std::max_element(counts.begin(), counts.end());
  std::string svg = fmt::format(
      "<svg class=\"histogram\" width=\"{0}\" height=\"118\" viewBox=\"0 0 {0} 118\" role=\"img\">", kWidth);
  if (!spread.baselines.empty()) {
    const double band_from = clamped(baseline * (1 - spread.tolerance)),
                 band_to = clamped(baseline * (1 + spread.tolerance));
    svg += fmt::format(
        "<rect class=\"baseline-band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#1f6fb4\" "
        "fill-opacity=\"0.15\"><title>baseline {} ± {:.0f}%</title></rect>",
        Coordinate(band_from), kTop, Coordinate(std::max(1.0, band_to - band_from)), kBottom - kTop,
        FormatNumber(baseline), spread.tolerance * 100);
    svg += SvgText(clamped(baseline), kTop + 10, "baseline", "class=\"label\" fill=\"#1f6fb4\" text-anchor=\"middle\"");
  }
  const double bin_width = (kRight - kLeft) / kHistogramBins;
  for (int bin = 0; bin < kHistogramBins; ++bin) {
    const int count = counts[static_cast<std::size_t>(bin)];
    if (count == 0) continue;
    const double height = std::max(3.0, (kBottom - kTop - 12) * count / most);
    const double bin_from = from + (to - from) * bin / kHistogramBins;
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} node(s) from {} to {}</title></rect>",
        Coordinate(kLeft + bin * bin_width + 0.5), Coordinate(kBottom - height), Coordinate(bin_width - 1),
        Coordinate(height), bad[static_cast<std::size_t>(bin)] > 0 ? VerdictColour(Verdict::kFail) : "#5a9e6f", count,
        FormatNumber(bin_from), FormatNumber(bin_from + (to - from) / kHistogramBins));
    // A bar too short to read (one node among thousands) says its count.
    if (height < 14) {
      svg += SvgText(kLeft + (bin + 0.5) * bin_width, kBottom - height - 3, std::to_string(count),
                     "class=\"label\" text-anchor=\"middle\"");
    }
  }
  const auto bound_line = [&](double value, std::string_view name) {
    if (!NearTheValues(value, data_low, data_high)) {
      const bool beyond_right = value > data_high;
      svg += SvgText(
          beyond_right ? kRight : kLeft, kTop - 6,
          fmt::format("{}{} {}{}", beyond_right ? "" : "← ", name, FormatNumber(value), beyond_right ? " →" : ""),
          fmt::format("class=\"label bound far\" fill=\"#c62828\" text-anchor=\"{}\"", beyond_right ? "end" : "start"));
      return;
    }
    const double at = x(value);
    const bool right_half = at > (kLeft + kRight) / 2;
    svg += fmt::format(
        "<line class=\"bound\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#c62828\" "
        "stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
        Coordinate(at), kTop - 14, kBottom);
    svg += SvgText(at + (right_half ? -4 : 4), kTop - 6, fmt::format("{} {}", name, FormatNumber(value)),
                   fmt::format("class=\"label\" fill=\"#c62828\" text-anchor=\"{}\"", right_half ? "end" : "start"));
  };
  if (spread.bound.floor) bound_line(*spread.bound.floor, "floor");
  if (spread.bound.ceiling) bound_line(*spread.bound.ceiling, "ceiling");
  svg +=
      fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#888\"/>", kLeft, kRight, kBottom, kBottom);
  svg += SvgText(kLeft, kBottom + 14, FormatNumber(from), "class=\"label\"");
  svg += SvgText(kRight, kBottom + 14, FormatNumber(to), "class=\"label\" text-anchor=\"end\"");
  svg += SvgText((kLeft + kRight) / 2, kBottom + 14, spread.unit, "class=\"label\" text-anchor=\"middle\"");
  return svg + "</svg>";
}

// The nodes past the bound, named; when none is, the worst few for the metric's direction.
std::string OutlierLine(const MetricSpread& spread) {
  std::vector<std::pair<std::string, double>> named;
  for (const auto& entry : spread.values) {
    if (spread.Violates(entry.second)) named.push_back(entry);
  }
  const bool higher_is_better = spread.bound.better == "higher";
  const auto worse_first = [&](const auto& a, const auto& b) {
    return higher_is_better ? a.second < b.second : a.second > b.second;
  };
  std::string heading;
  std::size_t total = named.size();
  if (named.empty()) {
    named = spread.values;
    total = std::min<std::size_t>(3, named.size());
    heading = higher_is_better ? "Lowest" : "Highest";
  } else {
    heading = spread.bound.floor ? "Below the floor" : "Above the ceiling";
  }
  const std::size_t shown = std::min(total, kMaxNamedOutliers);
  std::partial_sort(named.begin(), named.begin() + static_cast<std::ptrdiff_t>(shown), named.end(), worse_first);
  std::string line = fmt::format("<p class=\"outliers{}\">{}", spread.Violations() ? " bad" : "", Escape(heading));
  if (spread.Violations()) line += fmt::format(" ({})", total);
  line += ": ";
  for (std::size_t i = 0; i < shown; ++i) {
    line += fmt::format("{}<b class=\"node\">{}</b> {}", i ? ", " : "", Escape(named[i].first),
                        FormatNumber(named[i].second));
  }
  if (total > shown) line += fmt::format(" and {} more", total - shown);
  return line + "</p>";
}

std::string SpreadFigure(const MetricSpread& spread) {
  std::vector<double> values;
  for (const auto& [node, value] : spread.values) values.push_back(value);
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  std::string figure = fmt::format(
      "<figure class=\"dist\" data-metric=\"{}\"><figcaption><b>{}</b> <span "
      "class=\"muted\">{}.{}</span><br><span class=\"muted\">{} value(s), min {}, "
      "median {}, max {}{}; {} is better</span></figcaption>",
      Escape(spread.metric), Escape(spread.metric), Escape(spread.suite), Escape(spread.check), values.size(),
      FormatNumber(*low), FormatNumber(Median(values)), FormatNumber(*high),
      spread.unit.empty() ? "" : " " + Escape(spread.unit), Escape(spread.bound.better));
  figure += HistogramSvg(spread) + OutlierLine(spread);
  if (spread.regressed > 0) {
    figure += fmt::format("<p class=\"outliers bad\">{} node(s) worse than the baseline</p>", spread.regressed);
  }
  return figure + "</figure>";
}

// ---- busbw against message size ----------------------------------------------------------

struct Point {
  double x = 0, y = 0;
  std::string label;
};
struct Series {
  std::string name;
  std::vector<Point> measured, baseline, floors;
  std::string unit;
};

std::vector<Series> CollectBusbw(const std::vector<CheckResult>& results) {
  std::vector<Series> all;
  for (const auto& result : results) {
    if (result.suite != "AllreduceBandwidth") continue;
    Series series{result.node.empty() ? result.check : result.check + " " + result.node, {}, {}, {}, ""};
    for (const auto& measurement : result.measurements) {
      if (!measurement.name.starts_with("busbw@")) continue;
      const std::string size = measurement.name.substr(6);
      const auto bytes = SizeInBytes(size);
      const auto value = MetricNumber(measurement.value);
      if (!bytes || !value || *bytes <= 0) continue;
      const double x = std::log2(*bytes);
      series.unit = measurement.unit;
      series.measured.push_back({x, *value, size});
      if (measurement.baseline.compared) series.baseline.push_back({x, measurement.baseline.value, size});
      if (const auto floor = ParseMetricBound(measurement.threshold).floor) series.floors.push_back({x, *floor, size});
    }
    if (series.measured.empty()) continue;
    for (auto* points : {&series.measured, &series.baseline, &series.floors}) {
      std::sort(points->begin(), points->end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    }
    all.push_back(std::move(series));
  }
  return all;
}

std::string Polyline(const std::vector<Point>& points, const Scale& x, const Scale& y, std::string_view colour,
                     std::string_view extra) {
  std::string coordinates;
  for (const auto& point : points) coordinates += Coordinate(x(point.x)) + "," + Coordinate(y(point.y)) + " ";
  return fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>", coordinates, colour,
                     extra);
}

std::string BusbwChart(const std::vector<Series>& all) {
  constexpr double kWidth = 820, kHeight = 340, kLeft = 64, kRight = 800, kTop = 20, kBottom = 290;
  double x_low = 1e300, x_high = -1e300, y_high = 0;
  std::map<double, std::string> size_labels;
  for (const auto& series : all) {
    for (const auto* points : {&series.measured, &series.baseline, &series.floors}) {
      for (const auto& point : *points) {
        x_low = std::min(x_low, point.x);
        x_high = std::max(x_high, point.x);
        y_high = std::max(y_high, point.y);
        size_labels.emplace(point.x, point.label);
      }
    }
  }
  if (x_low == x_high) {
    x_low -= 1;
    x_high += 1;
  }
  const double step = TickStep(y_high * 1.1, 5);
  y_high = std::ceil(y_high * 1.1 / step) * step;
  if (y_high <= 0) y_high = 1;
  const Scale x{x_low, x_high, kLeft + 10, kRight - 10}, y{0, y_high, kBottom, kTop};
  std::string svg = fmt::format(
      "<svg class=\"linechart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\">", kWidth, kHeight);
  for (double tick = 0; tick <= y_high + step / 2; tick += step) {
    svg += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>", kLeft, kRight,
                       Coordinate(y(tick)));
    svg += SvgText(kLeft - 6, y(tick) + 4, FormatNumber(tick), "class=\"label\" text-anchor=\"end\"");
  }
  // Every size's label when they fit, else every other one: never overlapping.
  const std::size_t stride = size_labels.size() > 16 ? 2 : 1;
  std::size_t label_index = 0;
  for (const auto& [at, label] : size_labels) {
    svg += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#f0f0f0\"/>", Coordinate(x(at)),
                       kTop, kBottom);
    if (label_index++ % stride == 0) {
      svg += SvgText(x(at), kBottom + 16, label, "class=\"label\" text-anchor=\"middle\"");
    }
  }
  svg += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#888\"/>", kLeft, kRight, kBottom);
  svg += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#888\"/>", kLeft, kTop, kBottom);
  svg +=
      SvgText((kLeft + kRight) / 2, kBottom + 38, "message size (log2 scale)", "class=\"axis\" text-anchor=\"middle\"");
  svg += SvgText(16, (kTop + kBottom) / 2, "busbw (" + all.front().unit + ")",
                 fmt::format("class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\"",
                             Coordinate((kTop + kBottom) / 2)));
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Series& series = all[i];
    const std::string_view colour = SeriesColour(i);
    if (!series.baseline.empty())
      svg += Polyline(series.baseline, x, y, colour, " stroke-dasharray=\"6 4\" opacity=\"0.7\"");
    // Hollow circles too: a baseline with one compared size has no line to draw.
    for (const auto& point : series.baseline) {
      svg += fmt::format(
          "<circle class=\"baseline\" cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"#fff\" stroke=\"{}\" "
          "stroke-width=\"2\"><title>{} baseline busbw@{}: {} {}</title></circle>",
          Coordinate(x(point.x)), Coordinate(y(point.y)), colour, Escape(series.name), Escape(point.label),
          FormatNumber(point.y), Escape(series.unit));
    }
    svg += Polyline(series.measured, x, y, colour, "");
    for (const auto& point : series.measured) {
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"><title>{} busbw@{}: {} {}</title></circle>",
                         Coordinate(x(point.x)), Coordinate(y(point.y)), colour, Escape(series.name),
                         Escape(point.label), FormatNumber(point.y), Escape(series.unit));
    }
    for (const auto& floor : series.floors) {
      svg += fmt::format(
          "<line class=\"floor\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#c62828\" "
          "stroke-width=\"3\"><title>{3} floor at {4}: {5} {6}</title></line>",
          Coordinate(x(floor.x) - 14), Coordinate(x(floor.x) + 14), Coordinate(y(floor.y)), Escape(series.name),
          Escape(floor.label), FormatNumber(floor.y), Escape(series.unit));
      // The label goes left of a floor at the chart's right edge, where it would be cut off.
      const bool at_right = x(floor.x) > kRight - 90;
      svg += SvgText(x(floor.x) + (at_right ? -16 : 16), y(floor.y) + 4, "floor " + FormatNumber(floor.y),
                     fmt::format("class=\"label\" fill=\"#c62828\" text-anchor=\"{}\"", at_right ? "end" : "start"));
    }
  }
  return svg + "</svg>";
}

std::string BusbwLegend(const std::vector<Series>& all) {
  std::string legend = "<p class=\"legend\">";
  for (std::size_t i = 0; i < all.size(); ++i) {
    legend += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", SeriesColour(i), Escape(all[i].name));
    if (!all[i].baseline.empty()) {
      legend += fmt::format("<span><i class=\"dashed\" style=\"border-color:{}\"></i>{} (baseline, hollow)</span>",
                            SeriesColour(i), Escape(all[i].name));
    }
  }
  return legend + "<span><i style=\"background:#c62828\"></i>floor (the profile's minimum)</span></p>";
}

// ---- Change bars against the baseline ----------------------------------------------------

struct Change {
  std::string check, node, metric, unit;
  BaselineComparison comparison;
  double measured = 0;
  double badness = 0;  // the change in the metric's worse direction: sorts the worst first
};

std::string ChangeBarSvg(const Change& change, double scale) {
  constexpr double kWidth = 260, kMiddle = 130, kHalf = 120;
  const double fraction = std::clamp(change.comparison.change_fraction, -scale, scale);
  const double length = fraction / scale * kHalf;
  const std::string_view colour = change.comparison.regressed ? VerdictColour(Verdict::kFail)
                                  : change.badness < 0        ? "#5a9e6f"
                                                              : "#9e9e9e";
  std::string svg = fmt::format("<svg class=\"bar\" width=\"{0}\" height=\"16\" viewBox=\"0 0 {0} 16\">", kWidth);
  const double tolerance = std::min(change.comparison.tolerance_fraction, scale) / scale * kHalf;
  svg += fmt::format("<rect x=\"{}\" y=\"2\" width=\"{}\" height=\"12\" fill=\"#f1f1f1\"/>",
                     Coordinate(kMiddle - tolerance), Coordinate(2 * tolerance));
  svg += fmt::format("<rect class=\"change\" x=\"{}\" y=\"3\" width=\"{}\" height=\"10\" fill=\"{}\"/>",
                     Coordinate(std::min(kMiddle, kMiddle + length)), Coordinate(std::max(1.0, std::fabs(length))),
                     colour);
  svg += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"0\" y2=\"16\" stroke=\"#555\"/>", kMiddle);
  return svg + "</svg>";
}

std::string ChangeRow(const Change& change, double scale) {
  const BaselineComparison& comparison = change.comparison;
  return fmt::format(
      "<tr class=\"{}\"><td>{}</td><td class=\"node\">{}</td><td>{}</td><td class=\"num\">{}</td><td "
      "class=\"num\">{}</td><td class=\"num pct\">{}</td><td>{}</td><td>{}{}</td></tr>",
      comparison.regressed ? "regressed" : "within", Escape(change.check), Escape(change.node), Escape(change.metric),
      FormatNumber(comparison.value) + (comparison.node_is_new ? " (fleet median)" : ""),
      FormatNumber(change.measured) + " " + Escape(change.unit), FormatPercent(comparison.change_fraction),
      ChangeBarSvg(change, scale),
      comparison.regressed ? "<span class=\"badge v-regression\">worse than baseline</span>" : "within",
      fmt::format(" <span class=\"muted\">(±{:.0f}%)</span>", comparison.tolerance_fraction * 100));
}

// ---- Trends ------------------------------------------------------------------------------

std::string TrendSvg(const MetricTrend& trend) {
  constexpr double kWidth = 460, kLeft = 56, kRight = 448, kTop = 28, kBottom = 112;
  const std::size_t first = trend.points.size() > kMaxTrendPoints ? trend.points.size() - kMaxTrendPoints : 0;
  std::vector<Point> points;
  double low = 1e300, high = -1e300;
  for (std::size_t i = first; i < trend.points.size(); ++i) {
    points.push_back({static_cast<double>(i - first), trend.points[i].value, trend.points[i].change});
    low = std::min(low, trend.points[i].value);
    high = std::max(high, trend.points[i].value);
  }
  if (low == high) {
    const double pad = low == 0 ? 1 : std::fabs(low) * 0.1;
    low -= pad;
    high += pad;
  }
  const Scale x{0, static_cast<double>(std::max<std::size_t>(points.size(), 2) - 1), kLeft, kRight};
  const Scale y{low, high, kBottom, kTop};
  std::string svg = fmt::format("<svg class=\"trend\" width=\"{0}\" height=\"130\" viewBox=\"0 0 {0} 130\">", kWidth);
  svg += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#888\"/>", kLeft, kRight, kBottom);
  svg += SvgText(kLeft - 6, kBottom + 4, FormatNumber(low), "class=\"label\" text-anchor=\"end\"");
  svg += SvgText(kLeft - 6, kTop + 4, FormatNumber(high), "class=\"label\" text-anchor=\"end\"");
  int marker = 0;
  for (std::size_t i = first; i < trend.points.size(); ++i) {
    const TrendPoint& point = trend.points[i];
    if (point.change.empty()) continue;
    const double at = x(static_cast<double>(i - first));
    ++marker;
    svg += fmt::format(
        "<line class=\"change-marker\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#e07b00\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"3 2\"><title>{3}</title></line>",
        Coordinate(at), kTop - 14, kBottom, Escape(point.change));
    svg += SvgText(at + 3, kTop - 6, std::to_string(marker), "class=\"label\" fill=\"#e07b00\"");
  }
  svg += Polyline(points, x, y, SeriesColour(0), "");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const TrendPoint& point = trend.points[first + i];
    svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>{} {}: {} {}</title></circle>",
                       Coordinate(x(points[i].x)), Coordinate(y(points[i].y)), SeriesColour(0),
                       Escape(point.started_utc), Escape(point.run_id), FormatNumber(point.value), Escape(trend.unit));
  }
  svg += SvgText(kLeft, kBottom + 14, trend.points[first].started_utc, "class=\"label\"");
  svg += SvgText(kRight, kBottom + 14, trend.points.back().started_utc, "class=\"label\" text-anchor=\"end\"");
  return svg + "</svg>";
}

std::string TrendFigure(const MetricTrend& trend) {
  std::string figure =
      fmt::format("<figure class=\"trend\"><figcaption><b>{}</b> <span class=\"muted\">{}.{}{}{}</span></figcaption>",
                  Escape(trend.metric), Escape(trend.suite), Escape(trend.check), trend.node.empty() ? "" : " on ",
                  Escape(trend.node));
  if (trend.points.empty()) return figure + "<p class=\"muted\">no points</p></figure>";
  figure += TrendSvg(trend);
  std::string changes;
  int marker = 0;
  const std::size_t first = trend.points.size() > kMaxTrendPoints ? trend.points.size() - kMaxTrendPoints : 0;
  for (std::size_t i = first; i < trend.points.size(); ++i) {
    if (trend.points[i].change.empty()) continue;
    changes += fmt::format("<li value=\"{}\">{}: {}</li>", ++marker, Escape(trend.points[i].started_utc),
                           Escape(trend.points[i].change));
  }
  if (!changes.empty()) figure += "<ol class=\"changes\">" + changes + "</ol>";
  return figure + "</figure>";
}

}  // namespace

std::string Escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        // Control characters (a garbled probe output) would be parse errors: shown as '?'.
        escaped += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? '?' : c;
    }
  }
  return escaped;
}

std::string FormatNumber(double value) {
  if (!std::isfinite(value)) return "n/a";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e4 && magnitude < 1e7) return fmt::format("{:.0f}", value);
  if (magnitude != 0 && (magnitude >= 1e7 || magnitude < 1e-3)) return fmt::format("{:.3g}", value);
  return fmt::format("{:.4g}", value);
}

std::string FormatPercent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

std::string VerdictClass(Verdict verdict) { return std::string("v-") + VerdictName(verdict); }

std::string_view VerdictColour(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "#2e9e4f";
    case Verdict::kFail:
      return "#d32f2f";
    case Verdict::kRegression:
      return "#ef8a17";
    case Verdict::kError:
      return "#7b3fb0";
    case Verdict::kSkip:
      return "#b0b0b0";
  }
  return "#b0b0b0";
}

std::string Clipped(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return fmt::format("{} … ({} more characters)", text.substr(0, cut), text.size() - cut);
}

std::string NamesClipped(const std::vector<std::string>& names, std::size_t limit) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > limit) text += fmt::format(" and {} more", names.size() - limit);
  return text;
}

MetricOwner OwnerOf(const CheckResult& result, const std::string& name,
                    const std::unordered_set<std::string>& known_nodes) {
  if (!result.node.empty()) {
    // A per-node case's measurements are all about its node, prefixed or not.
    return {result.node, MetricIdentity(result.node, name)};
  }
  for (std::size_t at = name.find_last_of("./"); at != std::string::npos && at > 0;
       at = name.find_last_of("./", at - 1)) {
    if (known_nodes.contains(name.substr(0, at))) return {name.substr(0, at), name.substr(at + 1)};
  }
  return {"", name};
}

std::optional<double> SizeInBytes(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    ++digits;
  }
  const auto number = MetricNumber(text.substr(0, digits));
  if (!number) return std::nullopt;
  static const std::map<std::string_view, double> kUnits = {{"", 1},
                                                            {"B", 1},
                                                            {"K", 1024},
                                                            {"KiB", 1024},
                                                            {"KB", 1024},
                                                            {"M", 1 << 20},
                                                            {"MiB", 1 << 20},
                                                            {"MB", 1 << 20},
                                                            {"G", 1 << 30},
                                                            {"GiB", 1 << 30},
                                                            {"GB", 1 << 30},
                                                            {"T", 1099511627776.0},
                                                            {"TiB", 1099511627776.0}};
  const auto unit = kUnits.find(text.substr(digits));
  if (unit == kUnits.end()) return std::nullopt;
  return *number * unit->second;
}

std::string DistributionSection(const std::vector<CheckResult>& results,
                                const std::unordered_set<std::string>& known_nodes) {
  std::vector<MetricSpread> spreads;
  for (auto& spread : CollectSpreads(results, known_nodes)) {
    if (spread.values.size() >= 2) spreads.push_back(std::move(spread));
  }
  // The metrics with nodes past their bound first, then those worse than the baseline.
  std::stable_sort(spreads.begin(), spreads.end(), [](const MetricSpread& a, const MetricSpread& b) {
    return std::make_pair(a.Violations() > 0, a.regressed > 0) > std::make_pair(b.Violations() > 0, b.regressed > 0);
  });
  std::string section =
      "<section id=\"distributions\"><h2>Metrics across nodes</h2><p class=\"muted\">Each metric with a floor or "
      "ceiling, binned across the nodes that report it (red bins hold nodes past the bound; the dashed red line "
      "is the bound, the blue band the baseline ± its tolerance).</p>";
  if (spreads.empty()) return section + "<p>No metric with a bound was reported by two or more nodes.</p></section>";
  section += "<div class=\"grid\">";
  for (std::size_t i = 0; i < spreads.size() && i < kMaxDistributions; ++i) section += SpreadFigure(spreads[i]);
  section += "</div>";
  if (spreads.size() > kMaxDistributions) {
    section += fmt::format("<p class=\"more\">… and {} more metrics, all within their bounds, not drawn.</p>",
                           spreads.size() - kMaxDistributions);
  }
  return section + "</section>";
}

std::string BusbwSection(const std::vector<CheckResult>& results) {
  const std::vector<Series> all = CollectBusbw(results);
  std::string section = "<section id=\"busbw\"><h2>Allreduce busbw against message size</h2>";
  if (all.empty()) return section + "<p>No allreduce busbw was measured in this run.</p></section>";
  return section + BusbwChart(all) + BusbwLegend(all) + "</section>";
}

std::string ChangesSection(const std::vector<CheckResult>& results,
                           const std::unordered_set<std::string>& known_nodes) {
  std::vector<Change> changes;
  for (const auto& result : results) {
    for (const auto& measurement : result.measurements) {
      if (!measurement.baseline.compared) continue;
      const MetricOwner owner = OwnerOf(result, measurement.name, known_nodes);
      const double fraction = measurement.baseline.change_fraction;
      const double badness = ParseMetricBound(measurement.threshold).better == "lower" ? fraction : -fraction;
      changes.push_back({result.suite + "." + result.check, owner.node.empty() ? "cluster" : owner.node, owner.metric,
                         measurement.unit, measurement.baseline, MetricNumber(measurement.value).value_or(0), badness});
    }
  }
  std::string section = "<section id=\"changes\"><h2>Against the baseline</h2>";
  if (changes.empty()) {
    return section + "<p>No metric was compared with a baseline (run --baseline FILE to compare).</p></section>";
  }
  std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    return std::make_pair(a.comparison.regressed, a.badness) > std::make_pair(b.comparison.regressed, b.badness);
  });
  const std::size_t shown = std::min(changes.size(), kMaxChangeRows);
  // The largest change shown sets the scale (a generous tolerance elsewhere must not shrink
  // a 20% regression to a sliver); between 5% and 100%.
  double scale = 0.05;
  for (std::size_t i = 0; i < shown; ++i)
    scale = std::max(scale, std::fabs(changes[i].comparison.change_fraction) * 1.25);
  scale = std::min(scale, 1.0);
  section += fmt::format(
      "<p class=\"muted\">Each compared metric's change from the baseline, worst first; the grey band is the "
      "tolerance, the bar's full width ±{:.0f}%.</p><table class=\"changes\"><tr><th>check</th><th>node</th>"
      "<th>metric</th><th>baseline</th><th>now</th><th>change</th><th></th><th>verdict</th></tr>",
      scale * 100);
  for (std::size_t i = 0; i < shown; ++i) section += ChangeRow(changes[i], scale);
  section += "</table>";
  if (changes.size() > shown) {
    const auto regressed = std::count_if(changes.begin() + static_cast<std::ptrdiff_t>(shown), changes.end(),
                                         [](const Change& c) { return c.comparison.regressed; });
    section += fmt::format("<p class=\"more\">… and {} more compared metrics ({} of them worse than the baseline).</p>",
                           changes.size() - shown, regressed);
  }
  return section + "</section>";
}

std::string TrendsSection(const std::vector<MetricTrend>& trends) {
  if (trends.empty()) return "";
  std::string section =
      "<section id=\"trends\"><h2>Trends over the last runs</h2><p class=\"muted\">Oldest left; a dashed orange "
      "line marks a run where the image or a version changed (numbered below each chart).</p><div class=\"grid\">";
  for (std::size_t i = 0; i < trends.size() && i < kMaxTrends; ++i) section += TrendFigure(trends[i]);
  section += "</div>";
  if (trends.size() > kMaxTrends) {
    section += fmt::format("<p class=\"more\">… and {} more trends not drawn.</p>", trends.size() - kMaxTrends);
  }
  return section + "</section>";
}

}  // namespace gpuconform::html
