// XmlWriter: an indented XML document written element by element to a sink, so a report of
// 300,000 test cases never exists in memory as a tree or as one string.
// Contract: the bytes are those pugixml writes with format_indent and a two-space indent (the
// unit tests compare the two on the same tree): one element per line; an element without
// children is "<name a="v" />"; an element whose only content is text is
// "<name>text</name>" on one line. Escaping follows pugixml: in attribute values & < " and
// every character below U+0020 (tab, newline and carriage return included) are escaped, in
// text & < > and the characters below U+0020 other than tab, newline and carriage return.
// The writer does not validate: callers pass names that are XML names and text that is
// valid UTF-8 without characters XML 1.0 forbids (junit_writer's XmlSafe).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuconform {

class XmlWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  explicit XmlWriter(Sink sink);

  void Declaration();  // <?xml version="1.0" encoding="UTF-8"?>
  void Open(std::string_view name);
  // Only between Open and the element's first child or text.
  void Attribute(std::string_view name, std::string_view value);
  // The element's whole content; an element with text has no child elements.
  void Text(std::string_view text);
  void Close();

 private:
  struct OpenElement {
    std::string name;
    bool start_tag_open = true;  // "<name a="v"" written, ">" not yet
    bool has_children = false;
    bool has_text = false;
  };
  void EndStartTag(bool then_newline);
  void Indent(std::size_t depth);

  Sink sink_;
  std::vector<OpenElement> open_;
  std::string scratch_;  // reused for escaping
};

}  // namespace gpuconform
