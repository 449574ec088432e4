// XmlWriter against pugixml: the same tree, written by both, must be the same bytes, for every
// ASCII character in attribute values and text, UTF-8, empty elements, text-only elements and
// nesting. JUnit reports were written with pugixml before they were streamed; this keeps the
// two forms identical, so readers that parse them see no change.
#include "reports/xml_writer.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <sstream>
#include <string>

namespace gpuconform {
namespace {

std::string EveryAsciiCharacterAndUtf8() {
  std::string text;
  for (int c = 1; c < 128; ++c) text += static_cast<char>(c);
  return text + "\xC3\xA9 \xEF\xBF\xBD";
}

std::string WithPugixml(const std::string& text) {
  pugi::xml_document document;
  pugi::xml_node declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version").set_value("1.0");
  declaration.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node root = document.append_child("root");
  pugi::xml_node a = root.append_child("a");
  a.append_attribute("v").set_value(text.c_str());
  a.text().set(text.c_str());
  root.append_child("b").append_attribute("x").set_value(1);
  pugi::xml_node c = root.append_child("c");
  c.append_attribute("name").set_value("n");
  pugi::xml_node d = c.append_child("d");
  d.text().set("t");
  c.append_child("e").append_child("f").append_attribute("deep").set_value("yes");
  root.append_child("g").text().set("");
  root.append_child("h");
  std::ostringstream out;
  document.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

std::string WithXmlWriter(const std::string& text) {
  std::string out;
  XmlWriter xml([&out](std::string_view piece) { out.append(piece); });
  xml.Declaration();
  xml.Open("root");
  xml.Open("a");
  xml.Attribute("v", text);
  xml.Text(text);
  xml.Close();
  xml.Open("b");
  xml.Attribute("x", "1");
  xml.Close();
  xml.Open("c");
  xml.Attribute("name", "n");
  xml.Open("d");
  xml.Text("t");
  xml.Close();
  xml.Open("e");
  xml.Open("f");
  xml.Attribute("deep", "yes");
  xml.Close();
  xml.Close();
  xml.Close();
  xml.Open("g");
  xml.Text("");
  xml.Close();
  xml.Open("h");
  xml.Close();
  xml.Close();
  return out;
}

TEST(XmlWriter, WritesTheBytesPugixmlWrites) {
  const std::string text = EveryAsciiCharacterAndUtf8();
  EXPECT_EQ(WithXmlWriter(text), WithPugixml(text));
}

TEST(XmlWriter, EscapesMarkupInAttributesAndText) {
  std::string out;
  XmlWriter xml([&out](std::string_view piece) { out.append(piece); });
  xml.Open("m");
  xml.Attribute("q", "a<b & \"c\"\n");
  xml.Text("x<y & z>w\t");
  xml.Close();
  EXPECT_EQ(out, "<m q=\"a&lt;b &amp; &quot;c&quot;&#10;\">x&lt;y &amp; z&gt;w\t</m>\n");
  pugi::xml_document parsed;
  ASSERT_TRUE(parsed.load_string(out.c_str()));
  EXPECT_STREQ(parsed.child("m").attribute("q").value(), "a<b & \"c\"\n");
  EXPECT_STREQ(parsed.child("m").text().get(), "x<y & z>w\t");
}

}  // namespace
}  // namespace gpuconform
