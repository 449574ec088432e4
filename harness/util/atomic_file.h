// WriteFileAtomically: the publish sequence a crash cannot tear — write a temporary file
// in the same directory, fsync it, rename it over the target, fsync the directory.
// Contract: afterwards the path holds either the old contents or the new, never a mix;
// parent directories are created; errors name the path and the failing step.
// AtomicFileWriter is the same sequence for a document written in pieces (a 10,000-node
// report is hundreds of MB, and need not exist in memory at once): Append, then Commit.
// Until Commit succeeds the target is untouched; a writer dropped without Commit removes
// its temporary file.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "harness/util/result.h"

namespace gpuconform {

Result<bool> WriteFileAtomically(const std::string& path, const std::string& contents);
// The same for a copy of the file at `from`, read a chunk at a time (a log of gigabytes).
Result<bool> CopyFileAtomically(const std::string& from, const std::string& path);

class AtomicFileWriter {
 public:
  // Creates the parent directories and the temporary file.
  static Result<std::unique_ptr<AtomicFileWriter>> Open(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Buffered; the first failure is kept and returned by Commit (later appends are dropped).
  void Append(std::string_view text);
  // Flushes, fsyncs and renames over the target. Once only.
  Result<bool> Commit();

 private:
  AtomicFileWriter(std::string path, std::string temp, int fd);
  void Flush();

  std::string path_;
  std::string temp_;
  int fd_ = -1;
  std::string buffer_;
  std::string error_;  // the first failure, with its step
  bool committed_ = false;
};

}  // namespace gpuconform
