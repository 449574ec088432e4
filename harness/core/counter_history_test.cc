// Counter rises between runs: judged as a rate only between two readings in time order of a
// counter that neither went down nor saturated; an absent counter of a judged check read 0.
#include "harness/core/counter_history.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

constexpr char kCheck[] = "InfiniBand.PortErrorCountersWithinLimits";
constexpr char kMetric[] = "mlx5_2/port1.symbol_error";

NodeCounterReadings Previous(double hours_before, std::map<std::string, CheckCounterReadings::Reading> counters) {
  NodeCounterReadings node;
  node.by_check[kCheck] = {"run-a", "2026-12-01T09:12:44", hours_before, std::move(counters)};
  return node;
}

TEST(CounterRise, ARiseFasterThanTheLimitIsOverAndSaysSince) {
  const auto previous = Previous(3, {});  // absent: read 0
  const CounterRise rise = JudgeCounterRise(&previous, kCheck, kMetric, 6, false, 1);
  EXPECT_EQ(rise.kind, CounterRise::Kind::kOver);
  EXPECT_DOUBLE_EQ(rise.per_hour, 2);
  EXPECT_EQ(rise.note, "+6 in 3.0 h (2.00/h) since run run-a (2026-12-01T09:12:44)");
}

TEST(CounterRise, ASlowRiseIsWithin) {
  const auto previous = Previous(24, {{kMetric, {4, false}}});
  const CounterRise rise = JudgeCounterRise(&previous, kCheck, kMetric, 10, false, 1);
  EXPECT_EQ(rise.kind, CounterRise::Kind::kWithin);
  EXPECT_DOUBLE_EQ(rise.per_hour, 0.25);
}

TEST(CounterRise, MinutesApartCountAsAnHour) {
  const auto previous = Previous(0.1, {});
  const CounterRise rise = JudgeCounterRise(&previous, kCheck, kMetric, 1, false, 1);
  EXPECT_EQ(rise.kind, CounterRise::Kind::kWithin);
  EXPECT_DOUBLE_EQ(rise.per_hour, 1);
}

TEST(CounterRise, NoEarlierJudgementOfTheCheckIsNoPrevious) {
  EXPECT_EQ(JudgeCounterRise(nullptr, kCheck, kMetric, 6, false, 1).kind, CounterRise::Kind::kNoPrevious);
  const auto other = Previous(3, {});
  EXPECT_EQ(JudgeCounterRise(&other, "Pcie.AerErrorsWithinLimits", kMetric, 6, false, 1).kind,
            CounterRise::Kind::kNoPrevious);
}

TEST(CounterRise, AResetASaturationOrReadingsOutOfOrderAreNotJudged) {
  const auto cleared = Previous(3, {{kMetric, {50, false}}});
  const CounterRise reset = JudgeCounterRise(&cleared, kCheck, kMetric, 2, false, 1);
  EXPECT_EQ(reset.kind, CounterRise::Kind::kNotJudged);
  EXPECT_NE(reset.note.find("went down from 50 to 2"), std::string::npos) << reset.note;
  const auto saturated = Previous(3, {{kMetric, {65535, true}}});
  EXPECT_EQ(JudgeCounterRise(&saturated, kCheck, kMetric, 65535, true, 1).kind, CounterRise::Kind::kNotJudged);
  const auto fresh = Previous(3, {});
  EXPECT_NE(JudgeCounterRise(&fresh, kCheck, kMetric, 65535, true, 1).note.find("saturated"), std::string::npos);
  const auto same_time = Previous(0, {});
  const CounterRise replayed = JudgeCounterRise(&same_time, kCheck, kMetric, 6, false, 1);
  EXPECT_EQ(replayed.kind, CounterRise::Kind::kNotJudged);
  EXPECT_NE(replayed.note.find("not older"), std::string::npos);
}

TEST(HoursBetween, ReadsRunStartsAndSnapshotCaptureTimes) {
  EXPECT_DOUBLE_EQ(*HoursBetween("2026-12-01T09:12:44", "2026-12-01T12:12:44Z"), 3);
  EXPECT_DOUBLE_EQ(*HoursBetween("2026-12-01T23:30:00Z", "2026-12-02T00:00:00.5Z"), 0.5);
  EXPECT_FALSE(HoursBetween("yesterday", "2026-12-01T12:12:44Z"));
  EXPECT_FALSE(HoursBetween("2026-12-01T09:12:44+02", "2026-12-01T12:12:44Z"));
}

}  // namespace
}  // namespace gpuconform
