// Test support for streamed parsers (harness/util/line_source.h): the same file read whole and
// read in chunks from one byte to the reader's own size, and the files a parser's equivalence
// is checked on (fixtures by name, realdata's published outputs).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "harness/core/raw_lines.h"
#include "tests/support/test_support.h"

namespace gpuconform::test_support {

inline std::string ReadWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What a parse gave, as the text a whole and a streamed parse are compared by: "error: " and the
// error for a refused input, else what `describe(out, value)` writes of the value.
template <typename T, typename Describe>
std::string DescribedParse(const Result<T>& result, Describe describe) {
  if (!result) return "error: " + result.error();
  std::ostringstream out;
  describe(out, *result);
  return out.str();
}

// Expects `streamed(lines)` to describe the facts `whole(text)` describes, for the file read in
// chunks of every size from one byte to kRawChunkBytes.
inline void ExpectChunkedEqualsWhole(const std::filesystem::path& path,
                                     const std::function<std::string(const std::string& text)>& whole,
                                     const std::function<std::string(LineSource& lines)>& streamed) {
  const std::string expected = whole(ReadWhole(path));
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{4096}, kRawChunkBytes}) {
    auto lines = FileLines(path.string(), chunk);
    ASSERT_TRUE(lines) << lines.error();
    EXPECT_EQ(streamed(**lines), expected) << path << " read in chunks of " << chunk;
  }
}

// The files under `root` (recursively) that `wanted` picks, sorted; capture's ".error" files
// are left out.
inline std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& root,
                                                     const std::function<bool(const std::filesystem::path&)>& wanted) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() != ".error" && wanted(entry.path())) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A realdata folder's published outputs: its .txt files but their .source.txt provenance notes.
inline std::vector<std::filesystem::path> PublishedOutputs(const std::filesystem::path& dir) {
  return FilesUnder(dir, [](const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    return name.ends_with(".txt") && !name.ends_with(".source.txt");
  });
}

// Runs `expect` on each published output of the realdata folder `folder`, of which there must be
// some; skips the test where the folder is absent.
inline void ForEachPublishedOutput(const std::string& folder,
                                   const std::function<void(const std::filesystem::path&)>& expect) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, folder);
  const std::vector<std::filesystem::path> outputs = PublishedOutputs(dir);
  EXPECT_FALSE(outputs.empty()) << folder;
  for (const auto& path : outputs) expect(path);
}

inline std::string FixturesDir() { return std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures"; }

}  // namespace gpuconform::test_support
