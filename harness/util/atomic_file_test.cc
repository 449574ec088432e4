// AtomicFileWriter and WriteFileAtomically: pieces land in order, a large piece passes the
// buffer, nothing is published before Commit, a writer dropped without Commit leaves neither
// the target nor its temporary file, and a path that cannot be created is an error naming it.
#include "harness/util/atomic_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gpuconform-atomic-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  int EntriesInDir() const { return static_cast<int>(std::distance(fs::directory_iterator(dir_), {})); }

  fs::path dir_;
};

TEST_F(AtomicFile, PiecesLandInOrderAndOnlyOnCommit) {
  const fs::path target = dir_ / "sub" / "report.xml";
  auto writer = AtomicFileWriter::Open(target.string());
  ASSERT_TRUE(writer.ok()) << writer.error();
  const std::string large(3 << 20, 'x');  // larger than the writer's buffer
  (*writer)->Append("head ");
  (*writer)->Append(large);
  (*writer)->Append(" tail");
  EXPECT_FALSE(fs::exists(target)) << "published before Commit";
  const Result<bool> committed = (*writer)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.error();
  EXPECT_EQ(Read(target), "head " + large + " tail");
  EXPECT_EQ(static_cast<int>(std::distance(fs::directory_iterator(dir_ / "sub"), {})), 1) << "temporary file left";
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::others_read, fs::perms::others_read);
}

TEST_F(AtomicFile, DroppedWriterLeavesTheOldContentsAndNoTemporaryFile) {
  const fs::path target = dir_ / "report.json";
  ASSERT_TRUE(WriteFileAtomically(target.string(), "old").ok());
  {
    auto writer = AtomicFileWriter::Open(target.string());
    ASSERT_TRUE(writer.ok()) << writer.error();
    (*writer)->Append("new and unfinished");
  }
  EXPECT_EQ(Read(target), "old");
  EXPECT_EQ(EntriesInDir(), 1);
}

TEST_F(AtomicFile, UncreatableDirectoryIsAnErrorNamingThePath) {
  const fs::path blocker = dir_ / "a-file";
  ASSERT_TRUE(WriteFileAtomically(blocker.string(), "x").ok());
  const std::string target = (blocker / "report.xml").string();
  auto writer = AtomicFileWriter::Open(target);
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.error().find(target), std::string::npos) << writer.error();
  const Result<bool> whole = WriteFileAtomically(target, "x");
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.error().find(target), std::string::npos) << whole.error();
}

TEST_F(AtomicFile, CommitTwiceIsAnError) {
  auto writer = AtomicFileWriter::Open((dir_ / "once").string());
  ASSERT_TRUE(writer.ok()) << writer.error();
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_FALSE((*writer)->Commit().ok());
}

}  // namespace
}  // namespace gpuconform
