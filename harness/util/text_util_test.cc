#include "harness/util/text_util.h"

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

// The rail-pairs file's lists and the torchrun gather's fields are split with these rules,
// the ones std::getline gave them before: no item for nothing, none after a final separator.
TEST(TextUtil, SplitOnKeepsInnerEmptiesAndDropsOneTrailingSeparator) {
  EXPECT_TRUE(SplitOn("", ',').empty());
  EXPECT_EQ(SplitOn("mlx5_0", ','), (std::vector<std::string>{"mlx5_0"}));
  EXPECT_EQ(SplitOn("a,,b,", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(SplitOn(",a", ','), (std::vector<std::string>{"", "a"}));
  EXPECT_EQ(SplitOn("x\ty", '\t'), (std::vector<std::string>{"x", "y"}));
}

}  // namespace
}  // namespace gpuconform
