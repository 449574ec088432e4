#include "harness/text_util.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

// Contains searches with memmem, which must never see the null pointer an empty view may hold.
TEST(TextUtil, ContainsHandlesEmptyViewsAndShortTexts) {
  EXPECT_TRUE(Contains(std::string_view(), ""));
  EXPECT_FALSE(Contains(std::string_view(), "x"));
  EXPECT_FALSE(Contains("ab", "abc"));
  EXPECT_TRUE(Contains("an unhandled system error", "system error"));
  EXPECT_TRUE(Contains("error", "error"));
  EXPECT_FALSE(Contains("terror", "errors"));
}

}  // namespace
}  // namespace gpuconform
