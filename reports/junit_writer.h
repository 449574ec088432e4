// JUnit XML reports, streamed with XmlWriter from the run's CheckResults.
// Contract: one <testsuite> per suite in first-seen order, one <testcase> per result;
// kFail -> <failure>, kError -> <error>, kSkip -> <skipped>, each counted separately;
// measurements go to <properties>. The document validates against both the Jenkins xUnit
// JUnit-10 schema and the strict Ant schema (id, package, hostname, timestamp, properties,
// system-out and system-err on every suite). Files are published atomically.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/result.h"
#include "harness/verdict.h"

namespace gpuconform {

struct ReportMeta {
  std::string hostname;       // where the report was written (rank 0)
  std::string timestamp;      // ISO 8601 without zone, e.g. "2026-12-02T14:00:00"
  std::string profile;        // profile name
  std::string version;        // gpuconform version
  std::string mode;           // "live" or "snapshot DIR"
  std::vector<std::pair<std::string, std::string>> properties;  // run-wide properties
};

std::string RenderJunit(const std::vector<CheckResult>& results, const ReportMeta& meta);
// One Surefire-style document for one suite.
std::string RenderJunitSuite(const std::vector<CheckResult>& results, const std::string& suite,
                             const ReportMeta& meta);

Result<bool> WriteJunitFile(const std::string& path, const std::vector<CheckResult>& results,
                            const ReportMeta& meta);
// Writes DIR/TEST-<suite>.xml for every suite; returns the number of files.
Result<int> WriteJunitDir(const std::string& dir, const std::vector<CheckResult>& results,
                          const ReportMeta& meta);

}  // namespace gpuconform
