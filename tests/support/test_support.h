// Test-only helpers shared by the project's tests: where the realdata and the fixtures are,
// reading a file, a built-in profile, evaluating suites against a snapshot, the assertions the
// suites' tests all make (one finding, a refused input), and noise and truncation sweeps for
// parsers. Header-only, so it adds no source to any library.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/profile.h"
#include "harness/core/snapshot_source.h"
#include "harness/core/suite_registry.h"
#include "harness/util/result.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::test_support {

// A fresh directory under `under`, removed with everything in it when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& under = std::filesystem::temp_directory_path().string()) {
    std::string pattern = under + "/gpuconform-test-XXXXXX";
    path_ = ::mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    std::error_code error;
    if (!path_.empty()) std::filesystem::remove_all(path_, error);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Environment variables set for one test, each put back as it was when the object goes. For
// what the process or its libraries read themselves (TMPDIR); gpuconform's own settings reach
// probes through RunOptions.
class ScopedEnvironment {
 public:
  void Set(const std::string& name, const std::string& value) {
    const char* old = ::getenv(name.c_str());
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) {
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        ::unsetenv(it->first.c_str());
      }
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// The realdata folder, or nullopt when this build has none (the tests that need it skip).
inline std::optional<std::filesystem::path> RealdataDir(const std::string& folder) {
#ifdef GPUCONFORM_REALDATA_DIR
  const std::filesystem::path dir = std::filesystem::path(GPUCONFORM_REALDATA_DIR) / folder;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return dir;
#else
  (void)folder;
#endif
  return std::nullopt;
}

// Skips the test, saying so, when the realdata folder is absent.
#define GPUCONFORM_REALDATA_OR_SKIP(var, folder)                                                        \
  const auto var##_found = ::gpuconform::test_support::RealdataDir(folder);                                \
  if (!var##_found) {                                                                                   \
    GTEST_SKIP() << "the realdata folder " << (folder)                                                  \
                 << " is absent (GPUCONFORM_REALDATA_DIR undefined or not checked out): nothing to test"; \
  }                                                                                                     \
  const std::filesystem::path var = *var##_found

// The file's bytes, or nullopt when it cannot be opened (for tests that assert it exists).
inline std::optional<std::string> ReadFileIfPresent(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The data files of a realdata folder (not their .source.txt), sorted.
inline std::vector<std::filesystem::path> DataFiles(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 11 && name.substr(name.size() - 11) == ".source.txt") continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline Profile BuiltinProfile(const std::string& name) {
  auto profile = LoadProfile(name);
  EXPECT_TRUE(profile) << profile.error();
  return profile ? profile.value() : Profile{};
}

inline std::string FixtureDir(const std::string& name) {
  return std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/" + name;
}

// A profile named `name` whose NCCL runs over sockets on `ifname`: all the fabric-interface
// checks read of a profile.
inline Profile SocketFabricProfile(const std::string& name, const std::string& ifname) {
  Profile profile;
  profile.name = name;
  profile.nccl = NcclExpectation{};
  profile.nccl->network = "Socket";
  profile.nccl->socket_ifname = ifname;
  return profile;
}

// Every check of the named suites on a snapshot, keyed "Suite.Check".
inline std::map<std::string, CheckResult> EvaluateSuitesOnSnapshot(const std::string& snapshot_dir,
                                                                   const Profile& profile,
                                                                   const std::vector<std::string>& suite_names) {
  std::map<std::string, CheckResult> by_name;
  auto snapshot = OpenSnapshot(snapshot_dir);
  EXPECT_TRUE(snapshot) << snapshot.error();
  if (!snapshot) return by_name;
  std::vector<const SuiteDefinition*> suites;
  std::vector<ProbeSpec> probes;
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    if (std::find(suite_names.begin(), suite_names.end(), suite->name) == suite_names.end()) continue;
    suites.push_back(suite);
    probes.insert(probes.end(), suite->probes.begin(), suite->probes.end());
  }
  const ClusterRaw raw = FetchAll(**snapshot, probes);
  const std::vector<RankInfo> ranks;
  const SuiteContext context{raw, profile, ranks, false, ""};
  for (auto& result : EvaluateSuites(suites, context)) by_name.emplace(result.suite + "." + result.check, result);
  return by_name;
}

// The results of one registered suite on a snapshot, judged against `profile`.
inline std::vector<CheckResult> EvaluateSuiteOnSnapshot(const std::string& suite_name, const std::string& snapshot_dir,
                                                        const Profile& profile) {
  const SuiteDefinition* suite = nullptr;
  for (const auto* s : SuiteRegistry::Instance().Suites()) {
    if (s->name == suite_name) suite = s;
  }
  EXPECT_NE(suite, nullptr) << suite_name;
  auto snapshot = OpenSnapshot(snapshot_dir);
  EXPECT_TRUE(snapshot) << snapshot.error();
  if (!suite || !snapshot) return {};
  const ClusterRaw raw = FetchAll(**snapshot, suite->probes);
  const std::vector<RankInfo> ranks;
  return EvaluateOneSuite(*suite, SuiteContext{raw, profile, ranks, false, ""});
}

// The first result of `check` when suite `suite_name` is judged on the fixture snapshot
// `fixture` (FixtureDir) against `profile`; where the suite gives none, a failure and an
// empty result.
inline CheckResult CheckOnFixture(const std::string& suite_name, const std::string& check, const std::string& fixture,
                                  const Profile& profile) {
  for (const CheckResult& result : EvaluateSuiteOnSnapshot(suite_name, FixtureDir(fixture), profile)) {
    if (result.check == check) return result;
  }
  ADD_FAILURE() << "no " << check << " on " << fixture;
  return CheckResult{};
}

// Verdict of each test case in `results`, keyed by case name (the check, and the node where
// the check is per node).
inline std::map<std::string, Verdict> VerdictsByCase(const std::vector<CheckResult>& results) {
  std::map<std::string, Verdict> verdicts;
  for (const auto& r : results) verdicts[r.CaseName()] = r.verdict;
  return verdicts;
}

// Verdict of each check in `results`, keyed by check name.
inline std::map<std::string, Verdict> VerdictsByCheck(const std::vector<CheckResult>& results) {
  std::map<std::string, Verdict> verdicts;
  for (const auto& r : results) verdicts[r.check] = r.verdict;
  return verdicts;
}

// Every result with its verdict and findings, for assertion messages.
inline std::string Describe(const std::vector<CheckResult>& results) {
  std::string text;
  for (const auto& r : results) {
    text += r.TestName() + " " + VerdictName(r.verdict) + "\n";
    for (const auto& f : r.findings) text += "  " + f.message + "\n";
  }
  return text;
}

// Reproducible noise for parsers that must not crash: `count` strings, the i-th being
// `starts[i % starts.size()]` and then i % `max_extra` bytes of a linear congruential stream
// from `seed` (each byte the stream's top 8 bits or, with an `alphabet`, its character at the
// top 4 bits: noise made of the characters the format is built from).
struct NoiseSpec {
  std::uint32_t seed;
  int count;
  int max_extra;
  std::vector<std::string> starts = {""};
  std::string alphabet = "";
};

template <typename Use>
void ForEachNoisyString(const NoiseSpec& spec, Use use) {
  std::uint32_t state = spec.seed;
  for (int i = 0; i < spec.count; ++i) {
    std::string bytes = spec.starts[static_cast<std::size_t>(i) % spec.starts.size()];
    for (int j = 0; j < i % spec.max_extra; ++j) {
      state = state * 1664525u + 1013904223u;
      bytes += spec.alphabet.empty() ? static_cast<char>(state >> 24) : spec.alphabet[state >> 28];
    }
    use(bytes);
  }
}

// The check failed with exactly one finding, about `entity`, whose message starts with `start`.
inline void ExpectOnlyFinding(const CheckResult& result, const std::string& entity, const std::string& start) {
  ASSERT_EQ(result.verdict, Verdict::kFail) << result.TestName();
  ASSERT_EQ(result.findings.size(), 1u) << result.TestName();
  EXPECT_EQ(result.findings[0].entity, entity);
  EXPECT_EQ(result.findings[0].message.rfind(start, 0), 0u) << result.findings[0].message;
}

// The value of a parse the test expects to succeed. A refused input records a failure naming
// the parser's error and gives an empty T, so the test fails on its expectations rather than
// crashing on a missing value.
template <typename T>
T Parsed(const Result<T>& result) {
  EXPECT_TRUE(result) << result.error();
  return result ? *result : T{};
}

// The input was refused with an error that starts with `start` (most name origin and line).
template <typename T>
void ExpectErrorStartingWith(const Result<T>& result, const std::string& start) {
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().rfind(start, 0), 0u) << result.error();
}

// The input was refused with an error that holds `part`.
template <typename T>
void ExpectErrorContaining(const Result<T>& result, const std::string& part) {
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find(part), std::string::npos) << result.error();
}

// Texts a parser must refuse, each with the start of the error it must give for origin "f".
using RefusedInputs = std::vector<std::pair<std::string, std::string>>;

template <typename Parse>
void ExpectEachRefused(Parse parse, const RefusedInputs& bad) {
  for (const auto& [text, start] : bad) {
    auto result = parse(text, "f");
    ASSERT_FALSE(result) << text;
    EXPECT_EQ(result.error().rfind(start, 0), 0u) << result.error();
  }
}

// The check failed, and its first finding is about `entity` with a message that starts with
// `start` (where other findings may follow).
inline void ExpectFirstFinding(const CheckResult& result, const std::string& entity, const std::string& start) {
  ASSERT_EQ(result.verdict, Verdict::kFail) << result.TestName();
  ASSERT_FALSE(result.findings.empty()) << result.TestName();
  EXPECT_EQ(result.findings[0].entity, entity);
  EXPECT_EQ(result.findings[0].message.rfind(start, 0), 0u) << result.findings[0].message;
}

// Every prefix of `text` (and a sample of random byte strings) through `parse`: none may crash.
template <typename Parse>
void SurvivesTruncationAndNoise(const std::string& text, Parse parse) {
  for (std::size_t n = 0; n <= text.size(); ++n) (void)parse(text.substr(0, n), "fuzz");
  std::uint32_t state = 2463534242u;
  for (int i = 0; i < 1500; ++i) {
    std::string bytes = text.substr(0, static_cast<std::size_t>(i) % (text.size() + 1));
    for (int j = 0; j < (i % 61); ++j) {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      const std::size_t at = bytes.empty() ? 0 : state % bytes.size();
      if (j % 2 && !bytes.empty()) {
        bytes[at] = static_cast<char>(state >> 24);
      } else {
        bytes.insert(at, 1, static_cast<char>(state >> 16));
      }
    }
    (void)parse(bytes, "fuzz");
  }
}

}  // namespace gpuconform::test_support
