// InternedText: equal texts share one stored string; it reads as the string it holds.
#include "harness/util/interned_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "harness/core/verdict.h"

namespace gpuconform {
namespace {

TEST(InternedText, EqualTextsShareOneString) {
  const std::string citation(600, 'c');
  const InternedText a = citation;
  const InternedText b = std::string(citation);
  EXPECT_EQ(&a.str(), &b.str());
  EXPECT_EQ(a, b);
  EXPECT_NE(&a.str(), &InternedText("other").str());
}

TEST(InternedText, ReadsAsTheStringItHolds) {
  const InternedText text = "NVIDIA H100 datasheet";
  EXPECT_EQ(text, "NVIDIA H100 datasheet");
  EXPECT_EQ(text, std::string("NVIDIA H100 datasheet"));
  EXPECT_EQ(text.size(), 21u);
  EXPECT_NE(text.find("H100"), std::string::npos);
  EXPECT_EQ("source " + text, "source NVIDIA H100 datasheet");
  std::ostringstream out;
  out << text;
  EXPECT_EQ(out.str(), "NVIDIA H100 datasheet");
  const std::string& held = text;
  EXPECT_EQ(held, "NVIDIA H100 datasheet");
}

TEST(InternedText, DefaultIsEmpty) {
  EXPECT_TRUE(InternedText().empty());
  EXPECT_EQ(InternedText(), InternedText(""));
}

TEST(InternedText, AMeasurementsSourceIsHeldOnceForEveryNode) {
  const std::string source = "the profile's citation, the same on every GPU of every node";
  const Measurement first{"gpu00001.gpu0.nvlinks", "18", "links", "== 18", source};
  const Measurement second{"gpu00002.gpu0.nvlinks", "18", "links", "== 18", source};
  EXPECT_EQ(&first.source.str(), &second.source.str());
  EXPECT_EQ(second.source, source);
}

}  // namespace
}  // namespace gpuconform
