#include "probes/versions/versions_parse.h"

#include <pugixml.hpp>
#include <regex>

#include "harness/text_util.h"

namespace gpuconform::versions {

namespace {

// The first non-blank line and its 1-based number; tools print the version there.
struct FirstLine {
  std::string text;
  int number = 0;
};

FirstLine FirstNonBlankLine(const std::string& text) {
  int number = 0;
  for (auto line : SplitLines(text)) {
    ++number;
    if (!Trim(line).empty()) return {std::string(Trim(line)), number};
  }
  return {};
}


Result<std::string> MatchFirstLine(const std::string& text, const std::string& origin, const std::regex& pattern,
                                   const std::string& expected) {
  const FirstLine first = FirstNonBlankLine(text);
  if (first.number == 0) return ErrorAt(origin, 1, "empty output; expected " + expected);
  std::smatch match;
  if (!std::regex_match(first.text, match, pattern)) {
    return ErrorAt(origin, first.number, "expected " + expected + ", got '" + first.text.substr(0, 80) + "'");
  }
  return match[1].str();
}

int LineOfOffset(const std::string& text, std::ptrdiff_t offset) {
  int line = 1;
  for (std::ptrdiff_t i = 0; i < offset && i < static_cast<std::ptrdiff_t>(text.size()); ++i) {
    if (text[i] == '\n') ++line;
  }
  return line;
}

}  // namespace

Result<std::string> ParseKernelRelease(const std::string& text, const std::string& origin) {
  static const std::regex kRelease(R"(([0-9]+\.[0-9]+[0-9A-Za-z.+_~-]*))");
  return MatchFirstLine(text, origin, kRelease, "a kernel release such as 6.1.0-18-amd64");
}

Result<std::string> ParseSlurmdVersion(const std::string& text, const std::string& origin) {
  static const std::regex kSlurm(R"(slurm(?:-wlm)? ([0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.-]*))");
  return MatchFirstLine(text, origin, kSlurm, "'slurm <version>' as printed by slurmd -V");
}

Result<std::string> ParseMungedVersion(const std::string& text, const std::string& origin) {
  static const std::regex kMunge(R"(munge-([0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.-]*)(?: \(.*\))?)");
  return MatchFirstLine(text, origin, kMunge, "'munge-<version> (<date>)' as printed by munged --version");
}

Result<std::string> ParseMpiLibraryVersion(const std::string& text, const std::string& origin) {
  // "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, ..." — the library and version
  // come before the first comma; the rest is build metadata that differs harmlessly.
  static const std::regex kMpi(R"(([A-Za-z][A-Za-z() ]*[A-Za-z)] v?[0-9]+(?:\.[0-9]+)+[0-9A-Za-z.-]*).*)");
  return MatchFirstLine(text, origin, kMpi, "an MPI library version such as 'Open MPI v4.1.4'");
}

Result<std::string> ParseDottedVersion(const std::string& text, const std::string& origin) {
  static const std::regex kDotted(R"(([0-9]+(?:\.[0-9]+)+))");
  return MatchFirstLine(text, origin, kDotted, "a version such as 2.18.3");
}

Result<NvidiaSmiVersions> ParseNvidiaSmiVersions(const std::string& xml, const std::string& origin) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) {
    return ErrorAt(origin, LineOfOffset(xml, parsed.offset), std::string("invalid XML: ") + parsed.description());
  }
  const pugi::xml_node log = doc.child("nvidia_smi_log");
  if (!log) return ErrorAt(origin, 1, "not nvidia-smi -q -x output (no <nvidia_smi_log> root)");
  NvidiaSmiVersions versions;
  versions.driver = Trim(log.child_value("driver_version"));
  versions.cuda = Trim(log.child_value("cuda_version"));
  if (versions.driver.empty()) return ErrorAt(origin, 1, "<nvidia_smi_log> has no <driver_version>");
  return versions;
}

}  // namespace gpuconform::versions
