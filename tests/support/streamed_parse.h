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

namespace gpuconform::test_support {

inline std::string ReadWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

inline std::string FixturesDir() { return std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures"; }

}  // namespace gpuconform::test_support
