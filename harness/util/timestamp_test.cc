// Timestamps are UTC ISO 8601 to the second, whatever the machine's time zone.
#include "harness/util/timestamp.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

TEST(Timestamp, IsUtcIso8601ToTheSecond) {
  EXPECT_EQ(UtcIso8601(std::chrono::system_clock::time_point{}), "1970-01-01T00:00:00Z");
  const auto later = std::chrono::system_clock::time_point{} + std::chrono::seconds(1796311560);
  EXPECT_EQ(UtcIso8601(later), "2026-12-03T15:26:00Z");
}

}  // namespace
}  // namespace gpuconform
