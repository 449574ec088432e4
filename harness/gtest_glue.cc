#include "harness/gtest_glue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "harness/text_util.h"

namespace gpuconform {

namespace {

// "A:B" -> "A:A/*:B:B/*" for patterns that name a whole check.
std::string ExpandPatterns(const std::string& patterns) {
  std::string expanded;
  std::size_t start = 0;
  while (start <= patterns.size()) {
    auto end = patterns.find(':', start);
    if (end == std::string::npos) end = patterns.size();
    const std::string piece = patterns.substr(start, end - start);
    if (!piece.empty()) {
      if (!expanded.empty()) expanded += ':';
      expanded += piece;
      if (piece.find_first_of("*?/") == std::string::npos) expanded += ":" + piece + "/*";
    }
    start = end + 1;
  }
  return expanded;
}

}  // namespace

namespace {

// GoogleTest's pattern syntax: '*' any run, '?' one character.
bool GlobMatches(const char* pattern, const char* name) {
  if (*pattern == '\0') return *name == '\0';
  if (*pattern == '*') return GlobMatches(pattern + 1, name) || (*name != '\0' && GlobMatches(pattern, name + 1));
  if (*name == '\0') return false;
  return (*pattern == '?' || *pattern == *name) && GlobMatches(pattern + 1, name + 1);
}

}  // namespace

bool FilterMaySelect(const std::string& filter, const std::string& suite, const std::string& check) {
  const std::string positive = filter.substr(0, filter.find('-'));
  if (positive.empty()) return true;
  const std::string name = suite + "." + check;
  std::size_t start = 0;
  while (start <= positive.size()) {
    auto end = positive.find(':', start);
    if (end == std::string::npos) end = positive.size();
    std::string pattern = positive.substr(start, end - start);
    pattern = pattern.substr(0, pattern.find('/'));
    if (!pattern.empty() && GlobMatches(pattern.c_str(), name.c_str())) return true;
    start = end + 1;
  }
  return false;
}

std::string ExpandCheckFilter(const std::string& filter) {
  if (filter.empty()) return "*";
  // GoogleTest syntax: POSITIVE[-NEGATIVE]; only the first '-' separates, so node names
  // with dashes stay intact in the negative part.
  const auto dash = filter.find('-');
  if (dash == std::string::npos) return ExpandPatterns(filter);
  const std::string positive = ExpandPatterns(filter.substr(0, dash));
  return (positive.empty() ? "*" : positive) + "-" + ExpandPatterns(filter.substr(dash + 1));
}

std::string FilterAlsoSelecting(const std::string& filter, const std::string& check) {
  const auto dash = filter.find('-');
  const std::string positive = filter.substr(0, dash);
  const std::string negative = dash == std::string::npos ? "" : filter.substr(dash);
  if (positive.empty() || positive == "*") return filter;  // already selects everything
  return positive + ":" + check + negative;
}

namespace {

constexpr const char* kFindingOrigin = "gpuconform";  // short enough to need no allocation

class VerdictTest : public testing::Test {
 public:
  explicit VerdictTest(const CheckResult* result) : result_(result) {}
  void TestBody() override {
    for (const auto& m : result_->measurements) {
      RecordProperty(m.name, m.value + (m.unit.empty() ? "" : " " + m.unit));
    }
    switch (result_->verdict) {
      case Verdict::kPass: break;
      case Verdict::kSkip:
        GTEST_SKIP() << (result_->findings.empty() ? "" : result_->findings.front().message);
        break;
      // GoogleTest records each finding by its code only: the messages are in our own reports,
      // which nothing here replaces, and GoogleTest keeps every message twice with the source
      // file's name (at 10,000 nodes, 160,000 failing cases held 136 MB that way).
      case Verdict::kFail:
      case Verdict::kRegression:
        for (const auto& f : result_->findings) ADD_FAILURE_AT(kFindingOrigin, 0) << f.code;
        break;
      case Verdict::kError:
        for (const auto& f : result_->findings) ADD_FAILURE_AT(kFindingOrigin, 0) << "error " << f.code;
        break;
    }
  }

 private:
  const CheckResult* result_;
};

// Records which tests the filter let run; makes no MPI call (architecture §4).
class RanRecorder : public testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const testing::TestInfo& info) override { ran_.push_back(&info); }
  const std::vector<const testing::TestInfo*>& ran() const { return ran_; }

 private:
  std::vector<const testing::TestInfo*> ran_;
};

}  // namespace

std::vector<CheckResult> RunAsGtests(std::vector<CheckResult> results, const std::string& filter) {
  int argc = 1;
  char program[] = "gpuconform";
  char* argv[] = {program, nullptr};
  testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(filter, ExpandCheckFilter(filter));

  // Each registered test, by its TestInfo, to the index of its result: at 10,000 nodes there
  // are some 300,000, so no map from names and no copies of the results.
  std::vector<std::pair<const testing::TestInfo*, std::size_t>> index_of;
  index_of.reserve(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult* pointer = &results[i];
    const testing::TestInfo* info =
        testing::RegisterTest(pointer->suite.c_str(), pointer->CaseName().c_str(), nullptr, nullptr, __FILE__,
                              __LINE__, [pointer]() -> testing::Test* { return new VerdictTest(pointer); });
    index_of.emplace_back(info, i);
  }
  std::sort(index_of.begin(), index_of.end());

  auto& listeners = testing::UnitTest::GetInstance()->listeners();
  // Our terminal report replaces GoogleTest's printer: it aggregates across nodes.
  delete listeners.Release(listeners.default_result_printer());
  auto* recorder = new RanRecorder;
  listeners.Append(recorder);
  const int gtest_status = RUN_ALL_TESTS();
  (void)gtest_status;  // the exit status comes from our verdicts, which tell failure from error

  std::vector<CheckResult> ran;
  ran.reserve(recorder->ran().size());
  for (const testing::TestInfo* info : recorder->ran()) {
    const auto it = std::lower_bound(index_of.begin(), index_of.end(), std::make_pair(info, std::size_t{0}));
    if (it != index_of.end() && it->first == info) ran.push_back(std::move(results[it->second]));
  }
  return ran;
}

}  // namespace gpuconform
