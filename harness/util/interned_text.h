// InternedText: an immutable string held once per process however many values name it, for
// the texts a fleet's results repeat verbatim (a measurement's source: the profile's citation,
// often hundreds of characters, the same on every GPU of every node). A copy is one pointer.
// Contract: equal texts share one stored string, which lives until the process exits; the
// stored set only grows, so intern only texts drawn from a small set (profiles, constants),
// never per-node or measured text. Interning is thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace gpuconform {

class InternedText {
 public:
  InternedText();
  InternedText(std::string_view text);  // NOLINT: implicit, so a std::string or literal converts
  InternedText(const std::string& text) : InternedText(std::string_view(text)) {}  // NOLINT
  InternedText(const char* text) : InternedText(std::string_view(text)) {}          // NOLINT

  const std::string& str() const { return *text_; }
  operator const std::string&() const { return *text_; }  // NOLINT: reads as the string it holds
  bool empty() const { return text_->empty(); }
  std::size_t size() const { return text_->size(); }
  const char* c_str() const { return text_->c_str(); }
  std::size_t find(std::string_view part, std::size_t from = 0) const { return text_->find(part, from); }

  friend bool operator==(const InternedText& a, const InternedText& b) { return a.text_ == b.text_; }
  friend bool operator==(const InternedText& a, std::string_view b) { return *a.text_ == b; }
  friend bool operator==(const InternedText& a, const std::string& b) { return *a.text_ == b; }
  friend bool operator==(const InternedText& a, const char* b) { return *a.text_ == b; }
  friend std::string operator+(const std::string& a, const InternedText& b) { return a + *b.text_; }
  friend std::string operator+(const char* a, const InternedText& b) { return a + *b.text_; }
  friend std::ostream& operator<<(std::ostream& out, const InternedText& text) { return out << *text.text_; }

 private:
  const std::string* text_;  // in the process's pool, never freed
};

}  // namespace gpuconform
