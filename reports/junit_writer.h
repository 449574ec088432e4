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

#include "harness/core/verdict.h"
#include "harness/util/result.h"
#include "results/run.h"

namespace gpuconform {

// The run's record gives each suite its hostname, timestamp (the run's end), profile and mode;
// run.stated_properties follow them as run-wide <properties>.
std::string RenderJunit(const Run& run);
// One Surefire-style document for one suite.
std::string RenderJunitSuite(const Run& run, const std::string& suite);

Result<bool> WriteJunitFile(const std::string& path, const Run& run);
// Writes DIR/TEST-<suite>.xml for every suite; returns the number of files.
Result<int> WriteJunitDir(const std::string& dir, const Run& run);

}  // namespace gpuconform
