#include "harness/util/line_source.h"

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>
#include <vector>

namespace gpuconform {
namespace {

struct Collected {
  std::vector<std::string> lines;
  bool last_terminated = true;
};

Collected Collect(LineSource& source) {
  Collected out;
  while (const auto line = source.Next()) {
    out.lines.emplace_back(line->text);
    out.last_terminated = line->terminated;
  }
  return out;
}

// Hands `text` out `chunk` bytes at a time.
ChunkLines::Reader ReaderOf(const std::string& text, std::size_t chunk) {
  auto at = std::make_shared<std::size_t>(0);
  return [text, chunk, at](char* buffer, std::size_t size) -> long {
    const std::size_t n = std::min({chunk, size, text.size() - *at});
    std::memcpy(buffer, text.data() + *at, n);
    *at += n;
    return static_cast<long>(n);
  };
}

TEST(LineSource, ChunksOfAnySizeGiveTheLinesOfTheWholeText) {
  for (const std::string text : {"", "a", "a\n", "a\nbb\n\nccc", "\n\n", "one\r\ntwo\r\n"}) {
    TextLines whole(text);
    const Collected expected = Collect(whole);
    for (const std::size_t chunk : {1, 2, 3, 5, 64}) {
      ChunkLines chunked(ReaderOf(text, chunk), 4);
      const Collected got = Collect(chunked);
      EXPECT_EQ(got.lines, expected.lines) << "'" << text << "' in chunks of " << chunk;
      EXPECT_EQ(got.last_terminated, expected.last_terminated) << "'" << text << "'";
    }
  }
}

// Each line's number, with its text and whether a newline ended it.
std::vector<std::tuple<int, std::string, bool>> Numbered(LineSource& source) {
  std::vector<std::tuple<int, std::string, bool>> out;
  while (const auto line = source.Next()) out.emplace_back(line->number, std::string(line->text), line->terminated);
  return out;
}

TEST(LineSource, LinesAreNumberedFromOneWhateverTheChunks) {
  // "spans" crosses chunks of 3 and 4 bytes, the empty line keeps its number, and the last
  // line, which no newline ends, is numbered like the others.
  const std::string text = "a\nspans\n\nlast";
  const std::vector<std::tuple<int, std::string, bool>> expected = {
      {1, "a", true}, {2, "spans", true}, {3, "", true}, {4, "last", false}};
  TextLines whole(text);
  EXPECT_EQ(Numbered(whole), expected);
  for (const std::size_t chunk : {1, 3, 4, 64}) {
    ChunkLines chunked(ReaderOf(text, chunk), 4);
    EXPECT_EQ(Numbered(chunked), expected) << "in chunks of " << chunk;
  }
}

TEST(LineSource, ALineWithoutEndKeepsOnlyItsHead) {
  const std::string text = std::string(kMaxStreamedLineBytes * 3, 'x') + "\nnext\n";
  ChunkLines chunked(ReaderOf(text, 1000), 4096);
  const Collected got = Collect(chunked);
  ASSERT_EQ(got.lines.size(), 2u);
  EXPECT_EQ(got.lines[0].size(), kMaxStreamedLineBytes);
  EXPECT_EQ(got.lines[1], "next");
}

TEST(LineSource, AReadErrorEndsTheLinesAndSaysWhy) {
  bool first = true;
  ChunkLines failing(
      [&](char* buffer, std::size_t) -> long {
        if (!first) return -1;
        first = false;
        std::memcpy(buffer, "a\nb", 3);
        return 3;
      },
      16, [] { return std::string("read failed: Input/output error"); });
  const Collected got = Collect(failing);
  EXPECT_EQ(got.lines, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(failing.error(), "read failed: Input/output error");
}

}  // namespace
}  // namespace gpuconform
