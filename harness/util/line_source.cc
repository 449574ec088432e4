#include "harness/util/line_source.h"

#include <algorithm>
#include <cstring>

namespace gpuconform {

std::optional<Line> TextLines::Next() {
  if (start_ >= text_.size()) return std::nullopt;
  const auto end = text_.find('\n', start_);
  if (end == std::string_view::npos) {
    const Line last{text_.substr(start_), false, ++number_};
    start_ = text_.size();
    return last;
  }
  const Line line{text_.substr(start_, end - start_), true, ++number_};
  start_ = end + 1;
  return line;
}

ChunkLines::ChunkLines(Reader read, std::size_t chunk_bytes, std::function<std::string()> describe_error)
    : read_(std::move(read)), describe_error_(std::move(describe_error)), buffer_(std::max<std::size_t>(chunk_bytes, 1), '\0') {}

bool ChunkLines::Refill() {
  if (at_end_) return false;
  const long got = read_(buffer_.data(), buffer_.size());
  if (got <= 0) {
    at_end_ = true;
    if (got < 0) error_ = describe_error_ ? describe_error_() : "read error";
    return false;
  }
  start_ = 0;
  end_ = static_cast<std::size_t>(got);
  return true;
}

std::optional<Line> ChunkLines::Next() {
  line_.clear();
  bool spanning = false;  // the line began in an earlier chunk: its head is in line_
  auto keep = [&](const char* data, std::size_t size) {
    line_.append(data, std::min(size, kMaxStreamedLineBytes - std::min(line_.size(), kMaxStreamedLineBytes)));
  };
  for (;;) {
    if (start_ < end_) {
      const char* begin = buffer_.data() + start_;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', end_ - start_));
      if (newline != nullptr) {
        const auto size = static_cast<std::size_t>(newline - begin);
        start_ += size + 1;
        if (!spanning) return Line{std::string_view(begin, std::min(size, kMaxStreamedLineBytes)), true, ++number_};
        keep(begin, size);
        return Line{line_, true, ++number_};
      }
      keep(begin, end_ - start_);  // no newline in the rest of the chunk: the line goes on
      spanning = true;
      start_ = end_;
    }
    if (!Refill()) {
      if (!spanning) return std::nullopt;
      return Line{line_, false, ++number_};
    }
  }
}

}  // namespace gpuconform
