// Tests of the JUnit writer: golden files, schema validity (xmllint against the schemas in
// ../shared/realdata/junit-schema), verdict counting, hostile messages and atomic files.
// Regenerate the goldens after an intended change with GPUCONFORM_UPDATE_GOLDEN=1.
#include "reports/junit_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "harness/util/atomic_file.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

// A string literal with every byte, embedded NULs included.
template <std::size_t N>
std::string Bytes(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

// --- Inputs -------------------------------------------------------------------------------

// The cases as a run with a fixed record, as every report reads it.
Run FixedRun(std::vector<CheckResult> cases = {}) {
  Run run;
  run.record.hostname = "rank0.example";
  run.record.ended_utc = "2026-12-02T14:00:00";
  run.record.profile = "h100-sxm-8";
  run.record.gpuconform_version = "0.1.0";
  run.record.mode = "snapshot fixtures/snapshots/healthy";
  run.stated_properties = {{"cluster", "demo"}, {"nodes", "2"}};
  run.cases = std::move(cases);
  return run;
}

// Two suites, interleaved; pass, fail with two findings, error, skip; node and cluster
// cases; measurements with and without unit, threshold and source. Times are exact binary
// fractions, so the rendered document is the same on every machine and needs no masking.
std::vector<CheckResult> MixedVerdicts() {
  std::vector<CheckResult> results;

  CheckResult links_node1 = Passed("NvSwitch", "AllLinksActive", "node1");
  links_node1.time_s = 0.25;
  links_node1.measurements.push_back({"active_links", "144", "links", "== 144", "HGX H100 datasheet"});
  results.push_back(links_node1);

  CheckResult links_node2 = Failed(
      "NvSwitch", "AllLinksActive", "node2",
      {{"link-inactive", "node2/gpu3/link11", "link 11 is inactive; expected active (reseat or RMA the GPU)"},
       {"link-slow", "node2/gpu5/link2", "link 2 runs at 25 GB/s; expected 26.562 GB/s"}});
  links_node2.time_s = 0.5;
  links_node2.measurements.push_back({"active_links", "143", "links", "== 144", "HGX H100 datasheet"});
  results.push_back(links_node2);

  CheckResult munge_key = Errored("Munge", "KeyIdenticalOnAllNodes", "", "file-absent",
                                  "munge-key.digest absent on node2: cannot compare keys");
  munge_key.time_s = 0.125;
  results.push_back(munge_key);

  CheckResult fabric = Skipped("NvSwitch", "FabricManagerRunning", "node1",
                               "profile h100-sxm-8 has no NVSwitch fabric manager");
  results.push_back(fabric);

  CheckResult daemon = Passed("Munge", "DaemonAnswers", "node1");
  daemon.time_s = 1.0;
  daemon.measurements.push_back({"munge_version", "0.5.15", "", "", ""});
  daemon.measurements.push_back({"round_trip", "2", "ms", "", "local baseline"});
  results.push_back(daemon);

  CheckResult cluster_pass = Passed("Munge", "KeyDigestsReadable");
  cluster_pass.time_s = 0.03125;
  results.push_back(cluster_pass);
  return results;
}

// --- Helpers --------------------------------------------------------------------------------

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

pugi::xml_document Parse(const std::string& xml) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed = document.load_string(xml.c_str());
  EXPECT_TRUE(parsed) << parsed.description() << " at offset " << parsed.offset << "\n" << xml;
  return document;
}

pugi::xml_node SuiteNamed(const pugi::xml_document& document, const std::string& name) {
  return document.child("testsuites").find_child_by_attribute("testsuite", "name", name.c_str());
}

pugi::xml_node CaseNamed(pugi::xml_node suite, const std::string& name) {
  return suite.find_child_by_attribute("testcase", "name", name.c_str());
}

std::string PropertyValue(pugi::xml_node suite, const std::string& name) {
  return suite.child("properties")
      .find_child_by_attribute("property", "name", name.c_str())
      .attribute("value")
      .value();
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

struct CommandOutcome {
  int exit_status = -1;
  std::string output;
};

CommandOutcome RunCommand(const std::string& command) {
  CommandOutcome outcome;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) outcome.output += buffer;
  const int status = pclose(pipe);
  outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

bool XmllintInstalled() { return std::system("command -v xmllint >/dev/null 2>&1") == 0; }

fs::path SchemaDir() { return fs::path(GPUCONFORM_REALDATA_DIR) / "junit-schema"; }

// Each test gets its own directory, removed afterwards, so tests can run in parallel.
class JunitTempDir : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gpuconform-junit-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr) << "mkdtemp " << pattern;
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string WriteTemp(const std::string& name, const std::string& contents) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << contents;
    return path.string();
  }

  std::vector<std::string> FileNames() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

class JunitSchemaTest : public JunitTempDir {
 protected:
  void SetUp() override {
    if (!fs::is_directory(SchemaDir())) {
      GTEST_SKIP() << "the realdata folder is absent (" << SchemaDir().string()
                   << "); schema validation needs ../shared/realdata beside the repository";
    }
    if (!XmllintInstalled()) GTEST_SKIP() << "xmllint is not installed (Debian: libxml2-utils)";
    JunitTempDir::SetUp();
  }

  CommandOutcome Validate(const std::string& xml, const std::string& schema_file) {
    const std::string path = WriteTemp("report.xml", xml);
    return RunCommand("xmllint --noout --schema " + ShellQuote((SchemaDir() / schema_file).string()) +
                      " " + ShellQuote(path));
  }

  void ExpectValid(const std::string& xml, const std::string& schema_file) {
    const CommandOutcome outcome = Validate(xml, schema_file);
    EXPECT_EQ(outcome.exit_status, 0) << schema_file << ":\n" << outcome.output << "\n" << xml;
  }
};

constexpr const char* kJenkinsSchema = "jenkins-xunit-junit-10.xsd";
constexpr const char* kAntSchema = "windyroad-JUnit.xsd";
constexpr const char* kSurefireSchema = "surefire-test-report.xsd";

// --- Golden files ---------------------------------------------------------------------------

void ExpectMatchesGolden(const std::string& rendered, const std::string& golden_name) {
  const fs::path golden = fs::path(GPUCONFORM_SOURCE_DIR) / "fixtures" / "junit" / golden_name;
  const char* update = std::getenv("GPUCONFORM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    const Result<bool> written = WriteFileAtomically(golden.string(), rendered);
    ASSERT_TRUE(written.ok()) << written.error();
  }
  ASSERT_TRUE(fs::exists(golden)) << golden.string()
                                  << " is missing; run with GPUCONFORM_UPDATE_GOLDEN=1 to create it";
  EXPECT_EQ(rendered, ReadFile(golden))
      << "rendered JUnit differs from " << golden.string()
      << "; if the change is intended, rerun with GPUCONFORM_UPDATE_GOLDEN=1 and review the diff";
}

TEST(JunitGolden, MixedVerdictsReportMatchesGoldenFile) {
  ExpectMatchesGolden(RenderJunit(FixedRun(MixedVerdicts())), "mixed-verdicts.xml");
}

TEST(JunitGolden, SurefireSuiteDocumentMatchesGoldenFile) {
  ExpectMatchesGolden(RenderJunitSuite(FixedRun(MixedVerdicts()), "NvSwitch"),
                      "mixed-verdicts-surefire-NvSwitch.xml");
}

// --- Schema validity ------------------------------------------------------------------------

TEST_F(JunitSchemaTest, ReportValidatesAgainstJenkinsXunitSchema) {
  ExpectValid(RenderJunit(FixedRun(MixedVerdicts())), kJenkinsSchema);
}

TEST_F(JunitSchemaTest, ReportValidatesAgainstStrictAntSchema) {
  ExpectValid(RenderJunit(FixedRun(MixedVerdicts())), kAntSchema);
}

TEST_F(JunitSchemaTest, EmptyRunValidatesAgainstBothSchemas) {
  const std::string xml = RenderJunit(FixedRun({}));
  ExpectValid(xml, kJenkinsSchema);
  ExpectValid(xml, kAntSchema);
}

TEST_F(JunitSchemaTest, ReportWithoutHostnameOrTimestampValidatesAgainstBothSchemas) {
  gpuconform::Run run = FixedRun(MixedVerdicts());
  run.record.hostname = "";
  run.record.ended_utc = "not a time";
  const std::string xml = RenderJunit(run);
  ExpectValid(xml, kJenkinsSchema);
  ExpectValid(xml, kAntSchema);
}

// A CI system reading the file tells a partial report by its properties: "complete" is false,
// and "incomplete" says how the run ended; a complete report says "complete" true.
TEST_F(JunitSchemaTest, APartialReportSaysSoInItsPropertiesAndValidatesAgainstBothSchemas) {
  gpuconform::Run run = FixedRun(MixedVerdicts());
  EXPECT_NE(RenderJunit(run).find(R"(<property name="complete" value="true" />)"), std::string::npos);
  run.record.incomplete = "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z";
  const std::string xml = RenderJunit(run);
  EXPECT_NE(xml.find(R"(<property name="complete" value="false" />)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(<property name="incomplete" value="the run was terminated by SIGTERM at 2026-12-07T09:00:05Z" />)"),
            std::string::npos)
      << xml;
  ExpectValid(xml, kJenkinsSchema);
  ExpectValid(xml, kAntSchema);
}

TEST_F(JunitSchemaTest, GarbageInMessagesStillValidatesAgainstBothSchemas) {
  std::vector<CheckResult> results = {
      Failed("Storage", "Fsync", "node1",
             {{"torn-read", "node1/\x1b[0m/scratch", Bytes("got \x00\x07\x1b[31mred\xff\xfe\xc0\xaf\xed\xa0\x80")},
              {"unavailable", "", ""}}),
      Errored("Storage", "Probe", "node2", "unparseable", Bytes("bin\0ary \x0b\x0c\x7f"))};
  results[0].measurements.push_back({"\x02", "\x03", "\x04", "", ""});
  const std::string xml = RenderJunit(FixedRun(results));
  ExpectValid(xml, kJenkinsSchema);
  ExpectValid(xml, kAntSchema);
}

// Tools print anything; every text field of a result may carry arbitrary bytes (a code is a
// catalogue entry, checked when compiled).
TEST_F(JunitSchemaTest, RandomBytesInEveryFieldStillValidateAgainstBothSchemas) {
  std::mt19937 random(20261202);
  auto random_bytes = [&random] {
    std::string bytes(std::uniform_int_distribution<int>(0, 24)(random), '\0');
    for (char& byte : bytes) byte = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(random));
    return bytes;
  };
  for (int round = 0; round < 10; ++round) {
    CheckResult result = Failed(random_bytes(), random_bytes(), random_bytes(),
                                {{"unparseable", random_bytes(), random_bytes()}});
    result.measurements.push_back({random_bytes(), random_bytes(), random_bytes(), random_bytes(), random_bytes()});
    gpuconform::Run run = FixedRun({result, Skipped(result.suite, random_bytes(), "", random_bytes())});
    run.record.hostname = random_bytes();
    run.stated_properties = {{random_bytes(), random_bytes()}};
    const std::string xml = RenderJunit(run);
    ExpectValid(xml, kJenkinsSchema);
    ExpectValid(xml, kAntSchema);
    run.cases = {result};
    ExpectValid(RenderJunitSuite(run, result.suite), kSurefireSchema);
  }
}

TEST_F(JunitSchemaTest, SurefireSuiteDocumentValidatesAgainstSurefireSchema) {
  ExpectValid(RenderJunitSuite(FixedRun(MixedVerdicts()), "NvSwitch"), kSurefireSchema);
  ExpectValid(RenderJunitSuite(FixedRun(MixedVerdicts()), "Munge"), kSurefireSchema);
}

TEST_F(JunitSchemaTest, SurefireSuiteDocumentValidatesAgainstJenkinsXunitSchema) {
  ExpectValid(RenderJunitSuite(FixedRun(MixedVerdicts()), "NvSwitch"), kJenkinsSchema);
}

// Why the <testsuites> root carries no totals: the strict Ant schema declares no attribute
// on it, and Jenkins' has no "skipped" there. If a schema update ever allows them, this
// test fails and the writer can add them.
TEST_F(JunitSchemaTest, SchemasRejectRunTotalsOnTheRoot) {
  const std::string report = RenderJunit(FixedRun(MixedVerdicts()));
  const std::string with_totals =
      std::regex_replace(report, std::regex("<testsuites>"), "<testsuites tests=\"6\">");
  const std::string with_skipped =
      std::regex_replace(report, std::regex("<testsuites>"), "<testsuites skipped=\"1\">");
  ASSERT_NE(with_totals, report);
  EXPECT_NE(Validate(with_totals, kAntSchema).exit_status, 0);
  EXPECT_NE(Validate(with_skipped, kJenkinsSchema).exit_status, 0);
}

// --- Counting -------------------------------------------------------------------------------

TEST(JunitCounts, EachSuiteCountsItsOwnVerdicts) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node nvswitch = SuiteNamed(document, "NvSwitch");
  EXPECT_EQ(nvswitch.attribute("tests").as_int(), 3);
  EXPECT_EQ(nvswitch.attribute("failures").as_int(), 1);
  EXPECT_EQ(nvswitch.attribute("errors").as_int(), 0);
  EXPECT_EQ(nvswitch.attribute("skipped").as_int(), 1);
  const pugi::xml_node munge = SuiteNamed(document, "Munge");
  EXPECT_EQ(munge.attribute("tests").as_int(), 3);
  EXPECT_EQ(munge.attribute("failures").as_int(), 0);
  EXPECT_EQ(munge.attribute("errors").as_int(), 1);
  EXPECT_EQ(munge.attribute("skipped").as_int(), 0);
}

TEST(JunitCounts, SuiteTotalsAddUpToTheRun) {
  const std::vector<CheckResult> results = MixedVerdicts();
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  int tests = 0, failures = 0, errors = 0, skipped = 0, testcases = 0;
  for (const pugi::xml_node suite : document.child("testsuites").children("testsuite")) {
    tests += suite.attribute("tests").as_int();
    failures += suite.attribute("failures").as_int();
    errors += suite.attribute("errors").as_int();
    skipped += suite.attribute("skipped").as_int();
    for ([[maybe_unused]] const pugi::xml_node testcase : suite.children("testcase")) ++testcases;
  }
  EXPECT_EQ(tests, static_cast<int>(results.size()));
  EXPECT_EQ(testcases, static_cast<int>(results.size()));
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(skipped, 1);
}

TEST(JunitCounts, ErrorIsNeverCountedAsFailure) {
  const std::vector<CheckResult> results = {
      Errored("Munge", "DaemonAnswers", "node1", "timed-out", "munge -n timed out after 10 s"),
      Errored("Munge", "DaemonAnswers", "node2", "probe-failed", "permission denied")};
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  const pugi::xml_node munge = SuiteNamed(document, "Munge");
  EXPECT_EQ(munge.attribute("errors").as_int(), 2);
  EXPECT_EQ(munge.attribute("failures").as_int(), 0);
  for (const pugi::xml_node testcase : munge.children("testcase")) {
    EXPECT_TRUE(testcase.child("error")) << testcase.attribute("name").value();
    EXPECT_FALSE(testcase.child("failure")) << testcase.attribute("name").value();
  }
}

TEST(JunitCounts, SuitesAppearInFirstSeenOrderWithZeroBasedIds) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  std::vector<std::string> names, ids, packages;
  for (const pugi::xml_node suite : document.child("testsuites").children("testsuite")) {
    names.push_back(suite.attribute("name").value());
    ids.push_back(suite.attribute("id").value());
    packages.push_back(suite.attribute("package").value());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"NvSwitch", "Munge"}));
  EXPECT_EQ(ids, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(packages, (std::vector<std::string>{"gpuconform", "gpuconform"}));

  std::vector<std::string> nvswitch_cases;
  for (const pugi::xml_node testcase : SuiteNamed(document, "NvSwitch").children("testcase")) {
    nvswitch_cases.push_back(testcase.attribute("name").value());
  }
  EXPECT_EQ(nvswitch_cases, (std::vector<std::string>{"AllLinksActive/node1", "AllLinksActive/node2",
                                                      "FabricManagerRunning/node1"}));
}

TEST(JunitCounts, SuiteTimeIsTheSumOfCaseTimesWithThreeDecimals) {
  std::vector<CheckResult> results = {Passed("Storage", "A"), Passed("Storage", "B")};
  results[0].time_s = 1.23449;
  results[1].time_s = 2.0;
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  const pugi::xml_node suite = SuiteNamed(document, "Storage");
  EXPECT_STREQ(suite.attribute("time").value(), "3.234");
  EXPECT_STREQ(CaseNamed(suite, "A").attribute("time").value(), "1.234");
  EXPECT_STREQ(CaseNamed(suite, "B").attribute("time").value(), "2.000");
}

TEST(JunitCounts, NegativeOrNonFiniteTimeIsReportedAsZero) {
  std::vector<CheckResult> results = {Passed("Storage", "A"), Passed("Storage", "B")};
  results[0].time_s = -1.0;
  results[1].time_s = std::numeric_limits<double>::quiet_NaN();
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  const pugi::xml_node suite = SuiteNamed(document, "Storage");
  EXPECT_STREQ(suite.attribute("time").value(), "0.000");
  EXPECT_STREQ(CaseNamed(suite, "A").attribute("time").value(), "0.000");
  EXPECT_STREQ(CaseNamed(suite, "B").attribute("time").value(), "0.000");
}

// --- Content of a case ----------------------------------------------------------------------

TEST(JunitContent, FailureLeadsWithFirstFindingAndListsAllFindings) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node failure =
      CaseNamed(SuiteNamed(document, "NvSwitch"), "AllLinksActive/node2").child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "link-inactive");
  EXPECT_STREQ(failure.attribute("message").value(),
               "node2/gpu3/link11: link 11 is inactive; expected active (reseat or RMA the GPU)");
  EXPECT_STREQ(failure.text().get(),
               "link-inactive: node2/gpu3/link11: link 11 is inactive; expected active (reseat or RMA the GPU)\n"
               "link-slow: node2/gpu5/link2: link 2 runs at 25 GB/s; expected 26.562 GB/s");
}

TEST(JunitContent, MessageThatAlreadyNamesItsEntityIsNotPrefixedTwice) {
  const std::vector<CheckResult> results = {
      Failed("NvSwitch", "AllLinksActive", "node2", {{"link-inactive", "node2/gpu3", "node2/gpu3 has 17 links"}})};
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  EXPECT_STREQ(CaseNamed(SuiteNamed(document, "NvSwitch"), "AllLinksActive/node2")
                   .child("failure").attribute("message").value(),
               "node2/gpu3 has 17 links");
}

TEST(JunitContent, ErrorCarriesItsCodeAsType) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node error = CaseNamed(SuiteNamed(document, "Munge"), "KeyIdenticalOnAllNodes").child("error");
  ASSERT_TRUE(error);
  EXPECT_STREQ(error.attribute("type").value(), "file-absent");
  EXPECT_STREQ(error.attribute("message").value(),
               "cluster: munge-key.digest absent on node2: cannot compare keys");
}

TEST(JunitContent, AClusterWideCauseOnManyNodesIsOneLineWithTheNodesAsAHostlist) {
  std::vector<Finding> findings;
  for (const std::string node : {"gpu001", "gpu002", "gpu003"}) {
    findings.push_back({"file-absent", node, node + ": no clock.txt (the snapshot has no nodes/" + node + "/clock.txt)"});
  }
  findings.push_back({"file-absent", "gpu004", "gpu004: clock.txt is empty"});
  CheckResult result = Errored("Munge", "ClockSkewWithinTtl", "", "file-absent", "");
  result.findings = findings;
  const pugi::xml_document document = Parse(RenderJunit(FixedRun({result})));
  const pugi::xml_node error = CaseNamed(SuiteNamed(document, "Munge"), "ClockSkewWithinTtl").child("error");
  EXPECT_STREQ(error.attribute("message").value(), "gpu001: no clock.txt (the snapshot has no nodes/gpu001/clock.txt)")
      << "the message attribute is still the first finding";
  EXPECT_STREQ(error.text().get(),
               "file-absent: gpu[001-003]: no clock.txt (the snapshot has no nodes/gpu[001-003]/clock.txt)\n"
               "file-absent: gpu004: gpu004: clock.txt is empty");
}

TEST(JunitContent, SkippedCarriesTheReason) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node skipped =
      CaseNamed(SuiteNamed(document, "NvSwitch"), "FabricManagerRunning/node1").child("skipped");
  ASSERT_TRUE(skipped);
  EXPECT_STREQ(skipped.attribute("message").value(),
               "node1: profile h100-sxm-8 has no NVSwitch fabric manager");
}

TEST(JunitContent, PassHasNoOutcomeElement) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node pass = CaseNamed(SuiteNamed(document, "NvSwitch"), "AllLinksActive/node1");
  ASSERT_TRUE(pass);
  EXPECT_FALSE(pass.first_child());
  EXPECT_STREQ(pass.attribute("classname").value(), "NvSwitch");
}

TEST(JunitContent, FailureWithoutFindingsStillHasTheRequiredType) {
  CheckResult result = Passed("Storage", "Fsync", "node1");
  result.verdict = Verdict::kFail;
  const pugi::xml_document document = Parse(RenderJunit(FixedRun({result})));
  const pugi::xml_node failure = CaseNamed(SuiteNamed(document, "Storage"), "Fsync/node1").child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").value(), "fail");
}

TEST(JunitContent, FindingsOfAPassingResultAreKeptInSystemOut) {
  CheckResult result = Passed("Storage", "Fsync", "node1");
  result.findings.push_back({"read-below-floor", "node1/scratch", "fsync took 90 ms"});
  const pugi::xml_document document = Parse(RenderJunit(FixedRun({result})));
  EXPECT_STREQ(SuiteNamed(document, "Storage").child("system-out").text().get(),
               "Fsync/node1: read-below-floor: node1/scratch: fsync took 90 ms\n");
}

TEST(JunitContent, MeasurementsBecomeSuitePropertiesNamedAfterTheirCase) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  const pugi::xml_node nvswitch = SuiteNamed(document, "NvSwitch");
  EXPECT_EQ(PropertyValue(nvswitch, "AllLinksActive/node1.active_links"),
            "144 links (threshold == 144, source HGX H100 datasheet)");
  EXPECT_EQ(PropertyValue(nvswitch, "AllLinksActive/node2.active_links"),
            "143 links (threshold == 144, source HGX H100 datasheet)");
  const pugi::xml_node munge = SuiteNamed(document, "Munge");
  EXPECT_EQ(PropertyValue(munge, "DaemonAnswers/node1.munge_version"), "0.5.15");
  EXPECT_EQ(PropertyValue(munge, "DaemonAnswers/node1.round_trip"), "2 ms (source local baseline)");
  EXPECT_EQ(PropertyValue(munge, "AllLinksActive/node1.active_links"), "");
}

TEST(JunitContent, RunPropertiesAppearOnEverySuite) {
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(MixedVerdicts())));
  for (const char* suite_name : {"NvSwitch", "Munge"}) {
    const pugi::xml_node suite = SuiteNamed(document, suite_name);
    EXPECT_EQ(PropertyValue(suite, "profile"), "h100-sxm-8") << suite_name;
    EXPECT_EQ(PropertyValue(suite, "version"), "0.1.0") << suite_name;
    EXPECT_EQ(PropertyValue(suite, "mode"), "snapshot fixtures/snapshots/healthy") << suite_name;
    EXPECT_EQ(PropertyValue(suite, "cluster"), "demo") << suite_name;
    EXPECT_EQ(PropertyValue(suite, "nodes"), "2") << suite_name;
    EXPECT_STREQ(suite.attribute("hostname").value(), "rank0.example") << suite_name;
    EXPECT_STREQ(suite.attribute("timestamp").value(), "2026-12-02T14:00:00") << suite_name;
  }
}

TEST(JunitContent, SpecialCharactersRoundTripThroughTheDocument) {
  const std::string message = "expected <8> & \"GPUs\" 'here'\tand\nthere";
  const std::vector<CheckResult> results = {Errored("Munge", "Key", "node1", "unparseable", message)};
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  const pugi::xml_node error = CaseNamed(SuiteNamed(document, "Munge"), "Key/node1").child("error");
  EXPECT_EQ(std::string(error.attribute("message").value()), "node1: " + message);
  EXPECT_STREQ(error.attribute("type").value(), "unparseable");
}

TEST(JunitContent, IllegalControlCharactersAreStripped) {
  const std::vector<CheckResult> results = {
      Errored("Munge", "Key", "node1", "unparseable", Bytes("bad\x00\x1b[31mred\x08\x0b\x0c ok\x7f"))};
  const std::string xml = RenderJunit(FixedRun(results));
  const pugi::xml_document document = Parse(xml);
  const pugi::xml_node error = CaseNamed(SuiteNamed(document, "Munge"), "Key/node1").child("error");
  EXPECT_STREQ(error.attribute("message").value(), "node1: bad[31mred ok\x7f");
  EXPECT_STREQ(error.attribute("type").value(), "unparseable");
  EXPECT_EQ(xml.find("&#"), xml.find("&#10;")) << "no character reference except newlines:\n" << xml;
}

TEST(JunitContent, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const std::vector<CheckResult> results = {
      Errored("Munge", "Key", "node1", "unparseable", "caf\xe9 \xff ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")};
  const pugi::xml_document document = Parse(RenderJunit(FixedRun(results)));
  EXPECT_STREQ(CaseNamed(SuiteNamed(document, "Munge"), "Key/node1").child("error").attribute("message").value(),
               "node1: caf\xef\xbf\xbd \xef\xbf\xbd ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST_F(JunitTempDir, DocumentWithGarbageIsWellFormedForXmllint) {
  if (!XmllintInstalled()) GTEST_SKIP() << "xmllint is not installed (Debian: libxml2-utils)";
  const std::vector<CheckResult> results = {
      Failed("Storage", "Fsync", "node1", {{"torn-read", "e\x1f", Bytes("\x00\x1b\xff\xfe\xef\xbf\xbe")}})};
  const std::string path = WriteTemp("garbage.xml", RenderJunit(FixedRun(results)));
  const CommandOutcome outcome = RunCommand("xmllint --noout " + ShellQuote(path));
  EXPECT_EQ(outcome.exit_status, 0) << outcome.output;
}

TEST(JunitContent, MissingHostnameBecomesLocalhostAndBadTimestampIsReplaced) {
  gpuconform::Run run = FixedRun(MixedVerdicts());
  run.record.hostname = " ";
  run.record.ended_utc = "yesterday";
  const pugi::xml_document document = Parse(RenderJunit(run));
  const pugi::xml_node suite = SuiteNamed(document, "Munge");
  EXPECT_STREQ(suite.attribute("hostname").value(), "localhost");
  EXPECT_TRUE(std::regex_match(suite.attribute("timestamp").value(),
                               std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")))
      << suite.attribute("timestamp").value();
}

TEST(JunitContent, TimestampZoneAndFractionAreCut) {
  gpuconform::Run run = FixedRun(MixedVerdicts());
  run.record.ended_utc = "2026-12-02T14:00:00.250Z";
  const pugi::xml_document document = Parse(RenderJunit(run));
  EXPECT_STREQ(SuiteNamed(document, "Munge").attribute("timestamp").value(), "2026-12-02T14:00:00");
}

// --- Surefire single-suite document --------------------------------------------------------

TEST(JunitSuite, SuiteDocumentHoldsOnlyThatSuite) {
  const pugi::xml_document document = Parse(RenderJunitSuite(FixedRun(MixedVerdicts()), "Munge"));
  const pugi::xml_node suite = document.child("testsuite");
  ASSERT_TRUE(suite);
  EXPECT_STREQ(suite.attribute("name").value(), "Munge");
  EXPECT_EQ(suite.attribute("tests").as_int(), 3);
  EXPECT_EQ(suite.attribute("errors").as_int(), 1);
  EXPECT_EQ(suite.attribute("failures").as_int(), 0);
  EXPECT_EQ(suite.attribute("skipped").as_int(), 0);
  EXPECT_STREQ(suite.attribute("time").value(), "1.156");
  EXPECT_EQ(PropertyValue(suite, "DaemonAnswers/node1.round_trip"), "2 ms (source local baseline)");
  for (const pugi::xml_node testcase : suite.children("testcase")) {
    EXPECT_STREQ(testcase.attribute("classname").value(), "Munge");
  }
}

// --- Files ------------------------------------------------------------------------------

TEST_F(JunitTempDir, WriteJunitFileLeavesOnlyTheReport) {
  const std::string path = (dir_ / "junit.xml").string();
  const Result<bool> written = WriteJunitFile(path, FixedRun(MixedVerdicts()));
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(FileNames(), (std::vector<std::string>{"junit.xml"}));
  EXPECT_EQ(ReadFile(path), RenderJunit(FixedRun(MixedVerdicts())));
}

TEST_F(JunitTempDir, WriteJunitFileReplacesAnOlderReportWhole) {
  const std::string path = (dir_ / "junit.xml").string();
  std::ofstream(path) << std::string(100000, 'x');
  const std::vector<CheckResult> results = {Passed("Munge", "DaemonAnswers", "node1")};
  const Result<bool> written = WriteJunitFile(path, FixedRun(results));
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(ReadFile(path), RenderJunit(FixedRun(results)));
  EXPECT_EQ(FileNames(), (std::vector<std::string>{"junit.xml"}));
}

TEST_F(JunitTempDir, UnwritablePathGivesAnErrorNamingThePath) {
  // A regular file where a directory should be: fails even for root, unlike permissions.
  WriteTemp("not-a-dir", "x");
  const std::string path = (dir_ / "not-a-dir" / "junit.xml").string();
  const Result<bool> written = WriteJunitFile(path, FixedRun(MixedVerdicts()));
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find(path), std::string::npos) << written.error();
}

TEST_F(JunitTempDir, WriteJunitDirWritesOneSurefireFilePerSuite) {
  const Result<int> written = WriteJunitDir((dir_ / "junit").string(), FixedRun(MixedVerdicts()));
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(written.value(), 2);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir_ / "junit")) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"TEST-Munge.xml", "TEST-NvSwitch.xml"}));
  EXPECT_EQ(ReadFile(dir_ / "junit" / "TEST-NvSwitch.xml"),
            RenderJunitSuite(FixedRun(MixedVerdicts()), "NvSwitch"));
}

TEST_F(JunitTempDir, WriteJunitDirKeepsSuiteFilesInsideTheDirectory) {
  const std::vector<CheckResult> results = {Passed("../escape", "A"), Passed(".._escape", "B"), Passed("", "C")};
  const Result<int> written = WriteJunitDir((dir_ / "junit").string(), FixedRun(results));
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(written.value(), 3);
  EXPECT_EQ(FileNames(), (std::vector<std::string>{"junit"}));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir_ / "junit")) names.push_back(entry.path().filename());
  EXPECT_EQ(names.size(), 3u);
}

TEST_F(JunitTempDir, WriteJunitDirIntoAFileGivesAnErrorNamingTheDirectory) {
  const std::string dir = WriteTemp("not-a-dir", "x");
  const Result<int> written = WriteJunitDir(dir, FixedRun(MixedVerdicts()));
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().find(dir), std::string::npos) << written.error();
}

}  // namespace
}  // namespace gpuconform
