#include "harness/util/interned_text.h"

#include <functional>
#include <mutex>
#include <unordered_set>

namespace gpuconform {

namespace {

// Looked up by string_view, so a text already held costs no copy.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// Node-based, so a stored string never moves as the set grows; never destroyed, so an
// InternedText in a static never outlives what it points to.
struct Pool {
  std::mutex mutex;
  std::unordered_set<std::string, TextHash, std::equal_to<>> texts;
};

const std::string* Intern(std::string_view text) {
  static Pool* pool = new Pool;
  const std::lock_guard<std::mutex> lock(pool->mutex);
  if (const auto held = pool->texts.find(text); held != pool->texts.end()) return &*held;
  return &*pool->texts.emplace(text).first;
}

}  // namespace

InternedText::InternedText() {
  static const std::string* const empty = Intern("");
  text_ = empty;
}

InternedText::InternedText(std::string_view text) : text_(Intern(text)) {}

}  // namespace gpuconform
