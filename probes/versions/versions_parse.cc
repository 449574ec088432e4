#include "probes/versions/versions_parse.h"

#include <regex>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::versions {

namespace {

// The first non-blank line and its 1-based number; tools print the version there.
struct FirstLine {
  std::string text;
  int number = 0;
};

FirstLine FirstNonBlankLine(const std::string& text) {
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    if (const std::string_view line = Trim(next->text); !line.empty()) return {std::string(line), next->number};
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

Result<std::string> ParseGpuconformVersion(const std::string& text, const std::string& origin) {
  // The suffix after '+' names the commit, so two builds of one release differ, as they should.
  static const std::regex kGpuconform(R"(([0-9]+(?:\.[0-9]+)+(?:\+[0-9A-Za-z.]+)?))");
  return MatchFirstLine(text, origin, kGpuconform, "a version such as 0.1.0 or 1.2.0+12.gabc1234");
}

Result<NvidiaSmiVersions> ParseNvidiaSmiVersions(const std::string& xml, const std::string& origin) {
  auto inventory = nvidia_smi::ParseNvidiaSmiGpus(xml, origin);
  if (!inventory) return Error{inventory.error()};
  return VersionsOf(*inventory, origin);
}

Result<NvidiaSmiVersions> VersionsOf(const nvidia_smi::GpuInventory& inventory, const std::string& origin) {
  if (inventory.driver_version.empty()) return ErrorAt(origin, 1, "<nvidia_smi_log> has no <driver_version>");
  return NvidiaSmiVersions{inventory.driver_version, inventory.cuda_version};
}

}  // namespace gpuconform::versions
