#include "reports/xml_writer.h"

#include <utility>

namespace gpuconform {

namespace {

// pugixml writes a control character as two decimal digits ("&#09;"), so this does too.
void AppendCharacterReference(std::string& out, unsigned char c) {
  out += "&#";
  out += static_cast<char>('0' + c / 10);
  out += static_cast<char>('0' + c % 10);
  out += ';';
}

void AppendEscaped(std::string& out, std::string_view text, bool attribute) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>' && !attribute) {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else if (byte < 0x20 && (attribute || (c != '\t' && c != '\n' && c != '\r'))) {
      AppendCharacterReference(out, byte);
    } else {
      out += c;
    }
  }
}

}  // namespace

XmlWriter::XmlWriter(Sink sink) : sink_(std::move(sink)) {}

void XmlWriter::Declaration() { sink_("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"); }

void XmlWriter::Indent(std::size_t depth) {
  scratch_.assign(depth * 2, ' ');
  sink_(scratch_);
}

void XmlWriter::EndStartTag(bool then_newline) {
  OpenElement& element = open_.back();
  if (!element.start_tag_open) return;
  sink_(then_newline ? ">\n" : ">");
  element.start_tag_open = false;
}

void XmlWriter::Open(std::string_view name) {
  if (!open_.empty()) {
    EndStartTag(true);
    open_.back().has_children = true;
  }
  Indent(open_.size());
  scratch_.assign("<").append(name);
  sink_(scratch_);
  open_.push_back(OpenElement{std::string(name)});
}

void XmlWriter::Attribute(std::string_view name, std::string_view value) {
  scratch_.assign(" ").append(name).append("=\"");
  AppendEscaped(scratch_, value, true);
  scratch_ += '"';
  sink_(scratch_);
}

void XmlWriter::Text(std::string_view text) {
  EndStartTag(false);
  open_.back().has_text = true;
  scratch_.clear();
  AppendEscaped(scratch_, text, false);
  sink_(scratch_);
}

void XmlWriter::Close() {
  const OpenElement element = std::move(open_.back());
  open_.pop_back();
  if (element.start_tag_open) {
    sink_(" />\n");
    return;
  }
  if (element.has_children) Indent(open_.size());
  scratch_.assign("</").append(element.name).append(">\n");
  sink_(scratch_);
}

}  // namespace gpuconform
