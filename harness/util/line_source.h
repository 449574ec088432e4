// LineSource: text as a stream of lines, pulled one at a time, so that a parser of logs that
// reach gigabytes (NCCL_DEBUG=INFO, kernel logs, nccl-tests sweeps) never needs them whole.
// Contract: lines come in order without their '\n' (a '\r' before it is kept: the parser
// decides), each with its 1-based number, so that a parser names file:line without counting;
// the last line says whether a newline ended it (a log cut off inside a line).
// A line's text is valid until the next call to Next. Pure: TextLines splits a text the
// caller holds; ChunkLines splits what a reader function hands it in chunks, holding at most
// one chunk and one line's head (lines past max_line_bytes keep only their head).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpuconform {

struct Line {
  std::string_view text;  // without the '\n'
  bool terminated = true;  // false only for a last line that no newline ended
  int number = 0;          // 1-based: the first line is 1
};

class LineSource {
 public:
  virtual ~LineSource() = default;
  // The next line, or nullopt at the end (or after a read error: see error()).
  virtual std::optional<Line> Next() = 0;
  // Why the lines stopped early (a read that failed; the caller names the source), else empty.
  virtual std::string error() const { return {}; }
};

// The lines of a text held by the caller (which must outlive the source).
class TextLines : public LineSource {
 public:
  explicit TextLines(std::string_view text) : text_(text) {}
  std::optional<Line> Next() override;

 private:
  std::string_view text_;
  std::size_t start_ = 0;
  int number_ = 0;  // of the last line handed out
};

// Lines longer than this keep only their first kMaxStreamedLineBytes: no parser judges more of
// a line (the NCCL parser reads 8 KiB), and a line without newlines cannot grow the buffer.
inline constexpr std::size_t kMaxStreamedLineBytes = 64 * 1024;

// The lines of a stream of chunks. `read(buffer, size)` fills up to size bytes and returns how
// many (0 at the end); a negative value is a read error, described by `describe_error`.
class ChunkLines : public LineSource {
 public:
  using Reader = std::function<long(char* buffer, std::size_t size)>;
  ChunkLines(Reader read, std::size_t chunk_bytes, std::function<std::string()> describe_error = {});
  std::optional<Line> Next() override;
  std::string error() const override { return error_; }

 private:
  bool Refill();  // reads the next chunk into buffer_; false at the end or on an error

  Reader read_;
  std::function<std::string()> describe_error_;
  std::string buffer_;   // the current chunk
  std::size_t start_ = 0;  // where the next line begins in buffer_
  std::size_t end_ = 0;    // how much of buffer_ holds data
  std::string line_;     // a line that spans chunks: its head so far, capped
  bool at_end_ = false;
  std::string error_;
  int number_ = 0;  // of the last line handed out
};

}  // namespace gpuconform
