#include "reports/junit_writer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <set>
#include <string_view>
#include <system_error>

#include "harness/core/finding_causes.h"
#include "harness/util/atomic_file.h"
#include "harness/util/timestamp.h"
#include "reports/xml_writer.h"

// What the three schemas allow, and why the documents look the way they do
// (schemas: jenkins-xunit junit-10.xsd, windyroad JUnit.xsd, Maven surefire-test-report.xsd):
//
// * <testsuites> root: windyroad declares no attributes on it at all, so any of name, tests,
//   failures, errors, time makes the document invalid there; Jenkins allows those five but
//   not "skipped". Run totals on the root therefore cannot validate against both, and the
//   root carries none. Nothing is lost: every <testsuite> carries its own counts, and the
//   totals are their sums.
// * <testsuite> in the aggregate: windyroad requires, in this order, <properties>, the
//   <testcase>s, <system-out>, <system-err>, and the attributes name, timestamp (no zone),
//   hostname, tests, failures, errors, time, package and id; Jenkins accepts all of that
//   (it allows those children in any order and declares those attributes).
// * <testcase>: windyroad allows at most one of <skipped>, <error>, <failure>, requires a
//   "type" on <error>/<failure>, allows "message" on all three, and allows text in all three.
//   Jenkins allows the same. Neither allows <properties> inside a <testcase>, so measurements
//   go to the suite's <properties>, named "<CaseName>.<measurement>" (see MeasurementValue).
// * Surefire single-suite document: Surefire declares neither hostname, id nor package and no
//   suite-level <system-out>/<system-err>, and requires "skipped"; windyroad requires hostname
//   and both system elements. One single-suite document cannot satisfy both, so
//   RenderJunitSuite targets Surefire (and Jenkins, which accepts it), not windyroad.

namespace gpuconform {

namespace {

// What every suite element says about the run, read from the run's record.
struct SuiteHeader {
  std::string incomplete;  // RunRecord::incomplete: why the run ended early, empty when complete
  std::string hostname;   // where the report was written (rank 0)
  std::string timestamp;  // the run's end, ISO 8601
  std::string profile;
  std::string version;
  std::string mode;       // "live" or "snapshot DIR"
  const std::vector<std::pair<std::string, std::string>>& properties;
};

SuiteHeader HeaderOf(const Run& run) {
  return {run.record.incomplete, run.record.hostname, run.record.ended_utc, run.record.profile, run.record.gpuconform_version, run.record.mode,
          run.stated_properties};
}

}  // namespace

namespace {

constexpr const char* kPackage = "gpuconform";
constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

// XML 1.0 production [2] Char: the only characters a document may contain, even escaped.
bool IsXmlChar(char32_t code_point) {
  if (code_point == 0x9 || code_point == 0xA || code_point == 0xD) return true;
  if (code_point >= 0x20 && code_point <= 0xD7FF) return true;
  if (code_point >= 0xE000 && code_point <= 0xFFFD) return true;
  return code_point >= 0x10000 && code_point <= 0x10FFFF;
}

bool IsContinuationByte(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 sequence at text[pos] (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t DecodeUtf8(std::string_view text, std::size_t pos, char32_t& code_point) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  std::size_t length = 0;
  unsigned char min_second = 0x80, max_second = 0xBF;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code_point = lead & 0x0F;
    if (lead == 0xE0) min_second = 0xA0;
    if (lead == 0xED) max_second = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code_point = lead & 0x07;
    if (lead == 0xF0) min_second = 0x90;
    if (lead == 0xF4) max_second = 0x8F;
  } else {
    return 0;
  }
  if (pos + length > text.size()) return 0;
  const auto second = static_cast<unsigned char>(text[pos + 1]);
  if (second < min_second || second > max_second) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[pos + i]);
    if (!IsContinuationByte(byte)) return 0;
    code_point = (code_point << 6) | (byte & 0x3F);
  }
  return length;
}

// Tools print garbage (binary, Latin-1, terminal escapes) and the report must stay
// well-formed anyway: XmlWriter (like pugixml) would write a control character as a character reference
// such as "&#27;", which XML 1.0 forbids. So control characters are dropped and bytes that
// are not UTF-8 become U+FFFD, which shows a reader that something was there.
std::string XmlSafe(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    char32_t code_point = 0;
    const std::size_t length = DecodeUtf8(text, pos, code_point);
    if (length == 0) {
      safe += kReplacementCharacter;
      ++pos;
      continue;
    }
    if (IsXmlChar(code_point)) {
      safe.append(text.substr(pos, length));
    } else if (code_point >= 0x20) {
      safe += kReplacementCharacter;  // U+FFFE, U+FFFF: not characters, but not controls
    }
    pos += length;
  }
  return safe;
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// windyroad types names as xs:token with minLength 1, so a blank one would be invalid.
std::string NonBlank(std::string_view text, std::string_view fallback) {
  std::string safe = XmlSafe(text);
  return IsBlank(safe) ? std::string(fallback) : safe;
}

std::string FormatSeconds(double seconds) {
  // Surefire's time pattern allows at most three decimals and no sign or exponent.
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

bool IsDigits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

int ToInt(std::string_view digits) { return std::stoi(std::string(digits)); }

// windyroad's timestamp is "YYYY-MM-DDTHH:MM:SS" exactly (no fraction, no zone).
bool IsReportTimestamp(std::string_view text) {
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':') {
    return false;
  }
  for (const std::size_t field : {0, 5, 8, 11, 14, 17}) {
    if (!IsDigits(text.substr(field, field == 0 ? 4 : 2))) return false;
  }
  const std::chrono::year_month_day date{std::chrono::year{ToInt(text.substr(0, 4))},
                                         std::chrono::month{unsigned(ToInt(text.substr(5, 2)))},
                                         std::chrono::day{unsigned(ToInt(text.substr(8, 2)))}};
  return date.ok() && ToInt(text.substr(11, 2)) < 24 && ToInt(text.substr(14, 2)) < 60 &&
         ToInt(text.substr(17, 2)) < 60;
}

// A caller may hand in "…Z" or fractional seconds; those parts are cut rather than the
// whole report made invalid. Without a usable timestamp the report is stamped now, since
// the attribute is required.
std::string ReportTimestamp(const std::string& requested) {
  const std::string_view head = std::string_view(requested).substr(0, 19);
  return IsReportTimestamp(head) ? std::string(head) : UtcIso8601().substr(0, 19);  // JUnit: no zone suffix
}

struct SuiteCases {
  std::string name;
  std::vector<const CheckResult*> cases;
};

std::vector<SuiteCases> GroupBySuiteInFirstSeenOrder(const std::vector<CheckResult>& results) {
  std::vector<SuiteCases> suites;
  for (const CheckResult& result : results) {
    // A suite's cases come together: the last suite is the one to try first, so a fleet's
    // cases are not each compared with every suite's name.
    auto it = !suites.empty() && suites.back().name == result.suite
                  ? suites.end() - 1
                  : std::find_if(suites.begin(), suites.end(),
                                 [&](const SuiteCases& suite) { return suite.name == result.suite; });
    if (it == suites.end()) it = suites.insert(suites.end(), SuiteCases{result.suite, {}});
    it->cases.push_back(&result);
  }
  return suites;
}

struct SuiteCounts {
  int tests = 0;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
  double time_s = 0.0;
};

SuiteCounts CountVerdicts(const SuiteCases& suite) {
  SuiteCounts counts;
  for (const CheckResult* result : suite.cases) {
    ++counts.tests;
    if (result->verdict == Verdict::kFail || result->verdict == Verdict::kRegression) ++counts.failures;
    if (result->verdict == Verdict::kError) ++counts.errors;
    if (result->verdict == Verdict::kSkip) ++counts.skipped;
    if (std::isfinite(result->time_s) && result->time_s > 0) counts.time_s += result->time_s;
  }
  return counts;
}

void SetAttribute(XmlWriter& xml, const char* name, std::string_view value) { xml.Attribute(name, XmlSafe(value)); }

void SetAttribute(XmlWriter& xml, const char* name, int value) { xml.Attribute(name, std::to_string(value)); }

// An element whose content is `text`; an empty one is written "<name />".
void AddTextElement(XmlWriter& xml, const char* name, std::string_view text) {
  xml.Open(name);
  if (!text.empty()) xml.Text(XmlSafe(text));
  xml.Close();
}

void AddProperty(XmlWriter& xml, std::string_view name, std::string_view value) {
  xml.Open("property");
  xml.Attribute("name", NonBlank(name, "unnamed"));
  SetAttribute(xml, "value", value);
  xml.Close();
}

void AddRunProperties(XmlWriter& xml, const SuiteHeader& meta) {
  AddProperty(xml, "profile", meta.profile);
  AddProperty(xml, "version", meta.version);
  AddProperty(xml, "mode", meta.mode);
  AddProperty(xml, "complete", meta.incomplete.empty() ? "true" : "false");
  if (!meta.incomplete.empty()) AddProperty(xml, "incomplete", meta.incomplete);
  for (const auto& [name, value] : meta.properties) AddProperty(xml, name, value);
}

// "452.1 GB/s (threshold >= 460, source nccl-tests baseline)": one readable property per
// measurement keeps Jenkins' property table legible; every field of the Measurement is in
// it, and the parenthesised part is left out only when both threshold and source are empty.
std::string MeasurementValue(const Measurement& measurement) {
  std::string value = measurement.value;
  if (!measurement.unit.empty()) value += " " + measurement.unit;
  std::vector<std::string> context;
  if (!measurement.threshold.empty()) context.push_back("threshold " + measurement.threshold);
  if (!measurement.source.empty()) context.push_back("source " + measurement.source);
  if (!context.empty()) {
    value += " (" + context.front();
    if (context.size() > 1) value += ", " + context.back();
    value += ")";
  }
  return value;
}

void AddMeasurementProperties(XmlWriter& xml, const SuiteCases& suite) {
  for (const CheckResult* result : suite.cases) {
    for (const Measurement& measurement : result->measurements) {
      AddProperty(xml, result->CaseName() + "." + measurement.name, MeasurementValue(measurement));
    }
  }
}

std::string FindingLine(const Finding& finding) {
  return finding.code.str() + ": " + finding.entity + ": " + finding.message;
}

// One line per finding; findings of a cluster-wide case that differ only in their node are one
// line with the nodes as a hostlist (a Munge check on 10,000 nodes is not 10,000 lines).
std::string FindingLines(const CheckResult& result) {
  std::vector<NodeFinding> findings;
  for (const Finding& finding : result.findings) findings.push_back({result.node, &finding});
  std::string lines;
  for (const Cause& cause : GroupCauses(findings)) {
    if (!lines.empty()) lines += "\n";
    lines += cause.nodes.size() > 1 ? cause.first->code.str() + ": " + CauseLine(cause) : FindingLine(*cause.first);
  }
  return lines;
}

// The contract says a failure message starts with the node (and GPU/link/NIC); a check
// that already led with its entity is not made to repeat it.
std::string LeadMessage(const Finding& finding) {
  if (finding.entity.empty() || finding.message.starts_with(finding.entity)) return finding.message;
  return finding.entity + ": " + finding.message;
}

const char* OutcomeElement(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFail:
    case Verdict::kRegression:
      return "failure";
    case Verdict::kError: return "error";
    case Verdict::kSkip: return "skipped";
    case Verdict::kPass: break;
  }
  return nullptr;
}

// windyroad requires "type" on <failure> and <error>; a result built without findings
// still gets one, named after its verdict.
void AddOutcome(XmlWriter& xml, const CheckResult& result) {
  const char* element = OutcomeElement(result.verdict);
  if (element == nullptr) return;
  xml.Open(element);
  const bool has_findings = !result.findings.empty();
  if (has_findings) SetAttribute(xml, "message", LeadMessage(result.findings.front()));
  if (result.verdict != Verdict::kSkip) {
    SetAttribute(xml, "type", has_findings ? result.findings.front().code.str()
                                           : std::string(VerdictName(result.verdict)));
  }
  const std::string lines = FindingLines(result);
  if (!lines.empty()) xml.Text(XmlSafe(lines));
  xml.Close();
}

// Leaves the <testcase> open, so a caller may add to it.
void OpenTestcase(XmlWriter& xml, const CheckResult& result) {
  xml.Open("testcase");
  SetAttribute(xml, "name", result.CaseName());
  SetAttribute(xml, "classname", NonBlank(result.suite, "unnamed"));
  SetAttribute(xml, "time", FormatSeconds(result.time_s));
  AddOutcome(xml, result);
}

// A passing result has no element to carry findings, so any it has (a builder never adds
// them, but nothing forbids it) are kept as output lines rather than dropped.
std::string PassNotes(const CheckResult& result) {
  if (result.verdict != Verdict::kPass || result.findings.empty()) return "";
  std::string notes;
  for (const Finding& finding : result.findings) {
    notes += result.CaseName() + ": " + FindingLine(finding) + "\n";
  }
  return notes;
}

void SetCountAttributes(XmlWriter& xml, const SuiteCounts& counts) {
  SetAttribute(xml, "tests", counts.tests);
  SetAttribute(xml, "failures", counts.failures);
  SetAttribute(xml, "errors", counts.errors);
  SetAttribute(xml, "skipped", counts.skipped);
  SetAttribute(xml, "time", FormatSeconds(counts.time_s));
}

void AddProperties(XmlWriter& xml, const SuiteCases& suite, const SuiteHeader& meta) {
  xml.Open("properties");
  AddRunProperties(xml, meta);
  AddMeasurementProperties(xml, suite);
  xml.Close();
}

void AddAggregateSuite(XmlWriter& xml, const SuiteCases& suite, int id, const SuiteHeader& meta,
                       const std::string& timestamp) {
  xml.Open("testsuite");
  SetAttribute(xml, "name", NonBlank(suite.name, "unnamed"));
  SetCountAttributes(xml, CountVerdicts(suite));
  SetAttribute(xml, "timestamp", timestamp);
  SetAttribute(xml, "hostname", NonBlank(meta.hostname, "localhost"));
  SetAttribute(xml, "id", id);
  SetAttribute(xml, "package", kPackage);

  AddProperties(xml, suite, meta);
  std::string notes;
  for (const CheckResult* result : suite.cases) {
    OpenTestcase(xml, *result);
    xml.Close();
    notes += PassNotes(*result);
  }
  AddTextElement(xml, "system-out", notes);
  AddTextElement(xml, "system-err", "");
  xml.Close();
}

void AddSurefireSuite(XmlWriter& xml, const SuiteCases& suite, const SuiteHeader& meta) {
  xml.Open("testsuite");
  SetAttribute(xml, "name", NonBlank(suite.name, "unnamed"));
  SetCountAttributes(xml, CountVerdicts(suite));
  SetAttribute(xml, "timestamp", ReportTimestamp(meta.timestamp));

  AddProperties(xml, suite, meta);
  for (const CheckResult* result : suite.cases) {
    OpenTestcase(xml, *result);
    const std::string notes = PassNotes(*result);
    if (!notes.empty()) AddTextElement(xml, "system-out", notes);
    xml.Close();
  }
  xml.Close();
}

void WriteAggregate(XmlWriter& xml, const std::vector<CheckResult>& results, const SuiteHeader& meta) {
  xml.Declaration();
  xml.Open("testsuites");
  const std::string timestamp = ReportTimestamp(meta.timestamp);
  int id = 0;
  for (const SuiteCases& suite : GroupBySuiteInFirstSeenOrder(results)) {
    AddAggregateSuite(xml, suite, id++, meta, timestamp);
  }
  xml.Close();
}

// Suite names are identifiers, but a file name must not be able to escape DIR.
std::string SafeFileComponent(std::string_view name) {
  std::string safe;
  for (const char c : name) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    safe += plain ? c : '_';
  }
  if (safe.empty() || safe.find_first_not_of('.') == std::string::npos) safe = "unnamed" + safe;
  return safe;
}

// Two suite names that differ only in unsafe characters would otherwise share a file,
// and the second would silently replace the first.
std::string UniqueFileName(std::string_view suite, int index, std::set<std::string>& used_names) {
  std::string name = "TEST-" + SafeFileComponent(suite) + ".xml";
  if (!used_names.insert(name).second) {
    name = "TEST-" + SafeFileComponent(suite) + "-" + std::to_string(index) + ".xml";
    used_names.insert(name);
  }
  return name;
}

}  // namespace

std::string RenderJunit(const Run& run) {
  std::string out;
  XmlWriter xml([&out](std::string_view piece) { out.append(piece); });
  WriteAggregate(xml, run.cases, HeaderOf(run));
  return out;
}

std::string RenderJunitSuite(const Run& run, const std::string& suite) {
  SuiteCases selected{suite, {}};
  for (const CheckResult& result : run.cases) {
    if (result.suite == suite) selected.cases.push_back(&result);
  }
  std::string out;
  XmlWriter xml([&out](std::string_view piece) { out.append(piece); });
  xml.Declaration();
  AddSurefireSuite(xml, selected, HeaderOf(run));
  return out;
}

// Streamed into the file: at 10,000 nodes the document is some 180 MB.
Result<bool> WriteJunitFile(const std::string& path, const Run& run) {
  auto file = AtomicFileWriter::Open(path);
  if (!file.ok()) return Error{file.error()};
  AtomicFileWriter& writer = **file;
  XmlWriter xml([&writer](std::string_view piece) { writer.Append(piece); });
  WriteAggregate(xml, run.cases, HeaderOf(run));
  return writer.Commit();
}

Result<int> WriteJunitDir(const std::string& dir, const Run& run) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot write JUnit reports to " + dir + ": " + ec.message()};
  int written = 0;
  std::set<std::string> used_names;
  for (const SuiteCases& suite : GroupBySuiteInFirstSeenOrder(run.cases)) {
    const std::filesystem::path path =
        std::filesystem::path(dir) / UniqueFileName(suite.name, written, used_names);
    Result<bool> status = WriteFileAtomically(path.string(), RenderJunitSuite(run, suite.name));
    if (!status.ok()) return Error{status.error()};
    ++written;
  }
  return written;
}

}  // namespace gpuconform
