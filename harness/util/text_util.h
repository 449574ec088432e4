// Small text helpers shared by the parsers. Pure; no allocation surprises.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

// "origin:line: message" — how every parser says where its input went wrong.
Error ErrorAt(const std::string& origin, int line, const std::string& message);
// Text quoted for a message, clipped to 60 characters with control characters shown as
// '?', so a line of garbage cannot flood or corrupt a report.
std::string QuoteForMessage(std::string_view text);

std::string_view Trim(std::string_view text);
std::vector<std::string_view> SplitLines(std::string_view text);  // '\n', strips '\r'
// A line less the '\r' of a "\r\n" ending, as SplitLines gives it (for a LineSource's lines).
std::string_view WithoutCarriageReturn(std::string_view line);
std::vector<std::string_view> SplitWords(std::string_view line);  // on runs of spaces/tabs
// Items between separators, as std::getline reads them: an empty text has no items, and a
// trailing separator adds none ("a,,b," is "a", "", "b"). Copies, so a temporary text is safe.
std::vector<std::string> SplitOn(std::string_view text, char separator);
bool StartsWith(std::string_view text, std::string_view prefix);
bool Contains(std::string_view text, std::string_view needle);
std::string StripAnsiEscapes(std::string_view text);
std::string Join(const std::vector<std::string>& parts, std::string_view separator);
std::string Lowercase(std::string_view text);  // ASCII letters only, as tools' keys and names are

// Bytes as lowercase hex digits, and back; FromHex is nullopt on an odd length or a digit
// other than 0-9a-f.
std::string ToHex(std::string_view bytes);
std::optional<std::string> FromHex(std::string_view hex);

}  // namespace gpuconform
