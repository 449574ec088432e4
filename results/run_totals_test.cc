#include "results/run_totals.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

// A case of check S.<check> with this verdict (and no findings: the totals count verdicts).
CheckResult Case(const std::string& check, const std::string& node, Verdict verdict) {
  CheckResult result = Stamped(Passed(), "S", check, node);
  result.verdict = verdict;
  return result;
}

TEST(ExitStatus, FailureBeatsErrorBeatsPass) {
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kPass), Case("B", "", Verdict::kSkip)}), 0);
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kPass), Case("B", "", Verdict::kError)}), 3);
  EXPECT_EQ(ExitStatusFor({Case("A", "", Verdict::kError), Case("B", "", Verdict::kFail)}), 1);
  EXPECT_EQ(ExitStatusFor({}), 0);
}

TEST(RunTotals, CountsChecksNotCases) {
  const auto totals = CountChecks({Case("A", "n1", Verdict::kPass), Case("A", "n2", Verdict::kFail),
                                   Case("B", "", Verdict::kSkip), Case("C", "", Verdict::kError)});
  EXPECT_EQ(totals.checks, 3);
  EXPECT_EQ(totals.cases, 4);
  EXPECT_EQ(totals.failed, 1);
  EXPECT_EQ(totals.skipped, 1);
  EXPECT_EQ(totals.errored, 1);
}
}  // namespace
}  // namespace gpuconform
