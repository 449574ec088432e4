// The reason catalogue: its entries are well formed, the CLI prints them, and every code a
// report carries is one of them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <set>
#include <string>

#include "harness/core/process_runner.h"
#include "harness/core/reason_code.h"
#include "harness/core/verdict.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

bool IsKebabCase(std::string_view code) {
  if (code.empty() || code.front() == '-' || code.back() == '-') return false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && !(c == '-' && code[i - 1] != '-')) return false;
  }
  return true;
}

TEST(ReasonCatalogue, CodesAreUniqueKebabCaseWithMeaningAndNextStep) {
  std::set<std::string_view> seen;
  for (const ReasonEntry& entry : kReasons) {
    EXPECT_TRUE(seen.insert(entry.code).second) << "duplicate code " << entry.code;
    EXPECT_TRUE(IsKebabCase(entry.code)) << entry.code;
    EXPECT_FALSE(entry.meaning.empty()) << entry.code;
    EXPECT_FALSE(entry.next_step.empty()) << entry.code;
  }
}

TEST(ReasonCatalogue, WhatCouldNotBeObtainedIsToolingNeverHardware) {
  for (const char* code : {"tool-missing", "timed-out", "probe-failed", "file-absent", "unavailable", "unparseable",
                           "not-measured", "not-reported", "not-in-log", "bad-profile", "internal-error"}) {
    const ReasonEntry* entry = FindReason(code);
    ASSERT_NE(entry, nullptr) << code;
    EXPECT_EQ(entry->fault_class, FaultClass::kTooling) << code;
  }
  for (const char* code : {"link-inactive", "port-state", "pcie-width", "gpu-count", "busbw-below-floor"}) {
    EXPECT_EQ(FindReason(code)->fault_class, FaultClass::kHardware) << code;
  }
  for (const char* code : {"key-differs", "gres-count", "nccl-socket-not-fabric"}) {
    EXPECT_EQ(FindReason(code)->fault_class, FaultClass::kConfiguration) << code;
  }
}

TEST(ReasonCatalogue, ReasonCodeNamesItsEntry) {
  constexpr ReasonCode code("link-inactive");
  static_assert(code.code() == "link-inactive");
  EXPECT_EQ(code, "link-inactive");
  EXPECT_EQ(&code.entry(), FindReason("link-inactive"));
  EXPECT_EQ(FindReason("no-such-code"), nullptr);
  EXPECT_EQ(Skipped("S", "C", "", "why").findings.front().code, "not-applicable");
}

CommandResult Gpuconform(std::vector<std::string> args) {
  args.insert(args.begin(), GPUCONFORM_BINARY);
  return RunCommand(args, 120s);
}

TEST(ReasonsCli, JsonListsEveryEntryWithTheFourKeys) {
  auto r = Gpuconform({"reasons", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto entries = nlohmann::json::parse(r.stdout_text);
  ASSERT_TRUE(entries.is_array());
  EXPECT_EQ(entries.size(), std::size(kReasons));
  const std::set<std::string> classes = {"hardware", "configuration", "tooling"};
  for (const auto& entry : entries) {
    for (const char* key : {"code", "fault_class", "meaning", "next_step"}) {
      ASSERT_TRUE(entry.contains(key) && entry[key].is_string()) << key << " in " << entry.dump();
    }
    EXPECT_TRUE(classes.count(entry["fault_class"].get<std::string>())) << entry.dump();
  }
}

TEST(ReasonsCli, TextListsEveryCode) {
  auto r = Gpuconform({"reasons"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const ReasonEntry& entry : kReasons) {
    EXPECT_NE(r.stdout_text.find(std::string(entry.code) + " ("), std::string::npos) << entry.code;
  }
}

TEST(ReasonsCli, ExplainPrintsOneEntryAndRefusesAnUnknownCode) {
  auto known = Gpuconform({"explain", "link-inactive"});
  EXPECT_EQ(known.exit_code, 0) << known.stderr_text;
  EXPECT_NE(known.stdout_text.find("link-inactive (hardware)"), std::string::npos) << known.stdout_text;
  EXPECT_NE(known.stdout_text.find(FindReason("link-inactive")->next_step), std::string::npos) << known.stdout_text;
  auto unknown = Gpuconform({"explain", "link-inactiv"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.stderr_text.find("unknown reason code 'link-inactiv'"), std::string::npos) << unknown.stderr_text;
  EXPECT_NE(unknown.stderr_text.find("link-inactive"), std::string::npos) << "suggests the close code";
}

TEST(ReasonCatalogue, EveryRenamedCodeLeadsToACatalogueCodeAndIsNoLongerOne) {
  for (const RenamedReason& renamed : kRenamedReasons) {
    EXPECT_NE(FindReason(renamed.code), nullptr) << renamed.old_code << " -> " << renamed.code;
    EXPECT_EQ(FindReason(renamed.old_code), nullptr) << renamed.old_code << " is both old and current";
  }
}

TEST(ReasonsCli, ExplainOfARenamedCodeNamesTheNewOne) {
  auto r = Gpuconform({"explain", "unreadable"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("unreadable was renamed to unparseable"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("unparseable (tooling)"), std::string::npos) << r.stdout_text;
}

// Every type= in a report of every snapshot fixture is a catalogue code.
TEST(ReasonsCli, EveryJunitTypeOfEverySnapshotIsACatalogueCode) {
  const std::filesystem::path snapshots = std::filesystem::path(GPUCONFORM_SOURCE_DIR) / "fixtures/snapshots";
  const std::filesystem::path junit =
      std::filesystem::temp_directory_path() / ("gpuconform-reasons-" + std::to_string(getpid()) + ".xml");
  int reports = 0;
  for (const auto& dir : std::filesystem::directory_iterator(snapshots)) {
    const std::string name = dir.path().filename().string();
    const std::string profile = name.rfind("local-", 0) == 0 ? "local" : "h100-sxm-8";
    std::filesystem::remove(junit);
    auto r = Gpuconform({"run", "--snapshot", dir.path().string(), "--profile", profile, "--junit", junit.string()});
    if (r.exit_code == 2) continue;  // a snapshot that cannot be read (invalid-manifest) writes no report
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_file(junit.c_str())) << name << ": " << r.stderr_text;
    ++reports;
    for (const auto& typed : doc.select_nodes("//*[@type]")) {
      const std::string type = typed.node().attribute("type").value();
      EXPECT_NE(FindReason(type), nullptr) << name << ": type=\"" << type << "\" is not in the catalogue";
    }
  }
  std::filesystem::remove(junit);
  EXPECT_GT(reports, 20);
}

}  // namespace
}  // namespace gpuconform
