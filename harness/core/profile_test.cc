// Unit tests of profile loading: the built-in profiles carry the published figures, and a
// bad profile is refused with file:line:key, never accepted with a check silently off.
#include "harness/core/profile.h"
#include "suites/munge/munge_profile.h"
#include "tests/support/profile_text.h"
#include "tests/support/test_support.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace gpuconform {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kFile[] = "t.yaml";

using test_support::Lines;
using test_support::ParseError;

Profile MustLoad(const std::string& name) {
  Result<Profile> profile = LoadProfile(name);
  EXPECT_TRUE(profile.ok()) << profile.error();
  return profile.ok() ? profile.value() : Profile{};
}

// A file under the test's temporary directory, removed again when the test ends. The pid
// keeps tests that ctest runs in parallel from sharing one.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& contents)
      : path_(std::filesystem::path(testing::TempDir()) / (std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// ---- built-in profiles ------------------------------------------------------------------

TEST(BuiltinProfiles, IncludeTheFourContractNamesSortedByName) {
  std::vector<std::string> names;
  for (const BuiltinProfile& builtin : BuiltinProfiles()) names.push_back(builtin.name);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* required : {"a100-sxm-8", "h100-sxm-8", "h200-sxm-8", "local"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
}

TEST(BuiltinProfiles, EachParsesAndIsNamedAfterItsFile) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    Result<Profile> profile = ParseProfile(builtin.yaml, builtin.file);
    ASSERT_TRUE(profile.ok()) << profile.error();
    EXPECT_EQ(profile->name, builtin.name);
    EXPECT_EQ(profile->file, "topologies/" + builtin.name + ".yaml");
    EXPECT_FALSE(profile->description.empty()) << builtin.name;
  }
}

TEST(BuiltinProfiles, EachStartsWithACommentSayingWhatItDescribes) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    EXPECT_THAT(builtin.yaml, StartsWith("# " + builtin.name + ": ")) << builtin.file;
  }
}

TEST(BuiltinProfiles, EverySectionWithNumbersNamesItsSource) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const Profile profile = MustLoad(builtin.name);
    SCOPED_TRACE(builtin.name);
    if (profile.ExpectsGpus()) {
      EXPECT_FALSE(profile.gpu->source.empty());
    }
    if (profile.nvlink) {
      EXPECT_FALSE(profile.nvlink->source.empty());
    }
    if (profile.infiniband && profile.infiniband->present) {
      EXPECT_FALSE(profile.infiniband->source.empty());
    }
  }
}

// What the built-in 8-GPU profiles take from their published figures and differ in.
struct PublishedFigures {
  std::string model;
  int links_per_gpu;
  double p2p_bandwidth_floor_gb_per_s;
  int rate_gbit_per_s;
};

// 8 GPUs of `model` over 25 GB/s NVLinks and 8 rail NICs:
// the shape every built-in 8-GPU profile shares, with its own figures.
void ExpectPublishedFigures(const Profile& profile, const PublishedFigures& figures) {
  ASSERT_TRUE(profile.gpu && profile.nvlink && profile.infiniband);
  EXPECT_EQ(profile.gpu->count_per_node, 8);
  EXPECT_EQ(profile.gpu->model_contains, figures.model);
  EXPECT_EQ(profile.nvlink->links_per_gpu, figures.links_per_gpu);
  EXPECT_DOUBLE_EQ(profile.nvlink->link_bandwidth_gb_per_s, 25);
  EXPECT_DOUBLE_EQ(profile.nvlink->p2p_bandwidth_floor_gb_per_s, figures.p2p_bandwidth_floor_gb_per_s);
  EXPECT_EQ(profile.infiniband->rail_nics_per_node, 8);
  EXPECT_EQ(profile.infiniband->rate_gbit_per_s, figures.rate_gbit_per_s);
}

TEST(BuiltinProfiles, H100HasThePublishedNdH100V5Figures) {
  const Profile profile = MustLoad("h100-sxm-8");
  ASSERT_TRUE(profile.gpu && profile.nvlink && profile.infiniband && profile.nccl);
  ASSERT_NO_FATAL_FAILURE(ExpectPublishedFigures(profile, {"H100", 18, 335, 400}));
  EXPECT_TRUE(profile.ExpectsGpus());
  EXPECT_TRUE(profile.infiniband->present);
  EXPECT_EQ(profile.infiniband->link_layer, "InfiniBand");
}

TEST(BuiltinProfiles, H200HasThePublishedNdH200V5Figures) {
  const Profile profile = MustLoad("h200-sxm-8");
  ASSERT_NO_FATAL_FAILURE(ExpectPublishedFigures(profile, {"H200", 18, 335, 400}));
}

TEST(BuiltinProfiles, A100HasThePublishedNdA100V4Figures) {
  const Profile profile = MustLoad("a100-sxm-8");
  ASSERT_NO_FATAL_FAILURE(ExpectPublishedFigures(profile, {"A100", 12, 235, 200}));
}

TEST(BuiltinProfiles, GpuProfilesExpectNcclOverIbWithGdr) {
  for (const char* name : {"h100-sxm-8", "h200-sxm-8", "a100-sxm-8"}) {
    const Profile profile = MustLoad(name);
    ASSERT_TRUE(profile.nccl) << name;
    EXPECT_EQ(profile.nccl->network, "IB") << name;
    EXPECT_TRUE(profile.nccl->gpudirect_rdma) << name;
    EXPECT_EQ(profile.nccl->forbidden_ifnames, std::vector<std::string>{"eth0"}) << name;
  }
}

TEST(BuiltinProfiles, LocalHasNoGpusNoInfinibandAndPinsCollectivesToEns1) {
  const Profile profile = MustLoad("local");
  ASSERT_TRUE(profile.gpu && profile.infiniband && profile.nccl);
  EXPECT_FALSE(profile.ExpectsGpus());
  EXPECT_FALSE(profile.infiniband->present);
  EXPECT_FALSE(profile.nvlink.has_value());
  EXPECT_EQ(profile.nccl->network, "Socket");
  EXPECT_EQ(profile.nccl->socket_ifname, "ens1");
  EXPECT_EQ(profile.nccl->forbidden_ifnames, std::vector<std::string>{"eth0"});
}

// ---- LoadProfile --------------------------------------------------------------------------

TEST(LoadProfile, ByBuiltinNameRecordsTheBuiltinFile) {
  const Profile profile = MustLoad("h100-sxm-8");
  EXPECT_EQ(profile.name, "h100-sxm-8");
  EXPECT_EQ(profile.file, "topologies/h100-sxm-8.yaml");
}

TEST(LoadProfile, ByFilePathParsesThatFileAndNamesItInMessages) {
  const TempFile good("profile_test_good.yaml", Lines({"name: custom", "munge:", "  max_clock_skew_s: 60",
                                                       "  source: our site policy"}));
  const Profile profile = MustLoad(good.path());
  EXPECT_EQ(profile.name, "custom");
  EXPECT_EQ(profile.file, good.path());
  const auto* munge = profile.Get<munge::MungeExpectation>();
  ASSERT_NE(munge, nullptr);
  EXPECT_EQ(munge->max_clock_skew_s, 60);

  const TempFile bad("profile_test_bad.yaml", Lines({"name: custom", "munge:", "  max_clock_skew_s: soon"}));
  Result<Profile> refused = LoadProfile(bad.path());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), bad.path() + ":3:munge.max_clock_skew_s: expected an integer, got 'soon'");
}

TEST(LoadProfile, ABuiltinFileCopiedToDiskLoadsTheSame) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    const TempFile copy("profile_test_copy_" + builtin.name + ".yaml", builtin.yaml);
    EXPECT_EQ(MustLoad(copy.path()).name, builtin.name);
  }
}

TEST(LoadProfile, UnknownNameIsRefusedListingTheBuiltins) {
  Result<Profile> profile = LoadProfile("h100");
  ASSERT_FALSE(profile.ok());
  std::string names;
  for (const BuiltinProfile& builtin : BuiltinProfiles()) names += (names.empty() ? "" : ", ") + builtin.name;
  EXPECT_EQ(profile.error(), "unknown profile 'h100': not a built-in (" + names + ") and no such file");
  EXPECT_THAT(profile.error(), HasSubstr("a100-sxm-8, h100-sxm-8, h200-sxm-8"));
  EXPECT_THAT(profile.error(), HasSubstr("local"));
}

TEST(LoadProfile, MissingFileIsRefusedAsUnknownProfile) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / "profile_test_no_such.yaml").string();
  Result<Profile> profile = LoadProfile(path);
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.error(), StartsWith("unknown profile '" + path + "': not a built-in ("));
  EXPECT_THAT(profile.error(), HasSubstr("and no such file"));
}

TEST(LoadProfile, DirectoryIsRefusedNamingIt) {
  const std::string directory = testing::TempDir();
  Result<Profile> profile = LoadProfile(directory);
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.error(), StartsWith(directory + ": is a directory"));
}

TEST(LoadProfile, EmptyArgumentIsRefusedAsUnknownProfile) {
  Result<Profile> profile = LoadProfile("");
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.error(), StartsWith("unknown profile '': not a built-in"));
}

// ---- ParseProfile: what is accepted ----------------------------------------------------

TEST(ParseProfile, ANameAloneIsAProfileThatSaysNothingElse) {
  Result<Profile> profile = ParseProfile("name: minimal\n", kFile);
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile->name, "minimal");
  EXPECT_FALSE(profile->gpu || profile->nvlink || profile->infiniband || profile->nccl);
}

TEST(ParseProfile, LinkCounterRatesAreTheDefaultsOrTheSectionsWithItsSource) {
  const Profile plain = test_support::Parsed(ParseProfile("name: minimal\n", kFile));
  EXPECT_DOUBLE_EQ(plain.link_counters.ib_signal_errors_per_hour, 1);
  EXPECT_EQ(plain.link_counters.source, kDefaultCounterRateSource);
  const Profile set = test_support::Parsed(ParseProfile(
      "name: fleet\nlink_counters:\n  ib_signal_errors_per_hour: 4\n  source: our fleet's p99 rate\n", kFile));
  EXPECT_DOUBLE_EQ(set.link_counters.ib_signal_errors_per_hour, 4);
  EXPECT_DOUBLE_EQ(set.link_counters.ib_discards_per_hour, 100);
  EXPECT_DOUBLE_EQ(set.link_counters.nvlink_errors_per_hour, 1);
  EXPECT_DOUBLE_EQ(set.link_counters.pcie_correctable_per_hour, 10);
  EXPECT_EQ(set.link_counters.source, "our fleet's p99 rate");
  EXPECT_NE(ParseError("name: x\nlink_counters:\n  ib_signal_errors_per_hour: 4\n").find("source"),
            std::string::npos);
  EXPECT_NE(ParseError("name: x\nlink_counters:\n  nvlink_per_hour: 4\n  source: s\n").find("nvlink_per_hour"),
            std::string::npos);
}

TEST(ParseProfile, AcceptsTrueFalseCapitalised) {
  Result<Profile> profile =
      ParseProfile(Lines({"name: typed", "gpu:", "  present: True", "  count_per_node: 8", "  source: site"}), kFile);
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_TRUE(profile->ExpectsGpus());
}

TEST(ParseProfile, SectionWithoutNumbersNeedsNoSource) {
  Result<Profile> profile =
      ParseProfile(Lines({"name: n", "nccl:", "  network: IB", "gpu:", "  present: false"}), kFile);
  ASSERT_TRUE(profile.ok()) << profile.error();
  EXPECT_EQ(profile->nccl->network, "IB");
  EXPECT_FALSE(profile->ExpectsGpus());
}

// ---- ParseProfile: what is refused, with file:line:key --------------------------------

TEST(ParseProfile, RejectsInvalidYamlWithTheParserLine) {
  EXPECT_THAT(ParseError(Lines({"name: n", "gpu:", "  count_per_node: [8, 9", "  source: x"})),
              StartsWith("t.yaml:4: invalid YAML at column"));
  EXPECT_EQ(ParseError(Lines({"name: n", "description: a: b"})),
            "t.yaml:2: invalid YAML at column 15: illegal map value");
  EXPECT_THAT(ParseError(Lines({"name: n", "\tgpu: {}"})), StartsWith("t.yaml:2: invalid YAML"));
}

TEST(ParseProfile, RejectsEmptyTextAndComments) {
  EXPECT_EQ(ParseError(""), "t.yaml:1: empty profile: expected a YAML mapping with at least 'name'");
  EXPECT_THAT(ParseError("# only a comment\n"), StartsWith("t.yaml:1: empty profile"));
}

TEST(ParseProfile, RejectsANonMappingRoot) {
  EXPECT_THAT(ParseError(Lines({"- name: n"})), StartsWith("t.yaml:1: the top level must be a mapping"));
  EXPECT_THAT(
      ParseError(Lines({"# comment", "just text"})),
      StartsWith(
          "t.yaml:2: the top level must be a mapping of profile keys (name:, gpu:, ...), got 'just text'"));
}

TEST(ParseProfile, RejectsMoreThanOneDocument) {
  EXPECT_EQ(ParseError(Lines({"name: a", "---", "name: b"})),
            "t.yaml:2: a profile is one YAML document, but another one starts here");
}

TEST(ParseProfile, RejectsUnknownSectionKeyWithASuggestion) {
  EXPECT_THAT(ParseError(Lines({"name: n", "gpu:", "  present: true", "  count_per_nod: 8", "  source: x"})),
              StartsWith("t.yaml:4:gpu.count_per_nod: unknown key; did you mean 'count_per_node'?"));
}

TEST(ParseProfile, RejectsUnknownTopLevelKey) {
  EXPECT_THAT(ParseError(Lines({"name: n", "", "infinibnad:", "  present: false"})),
              StartsWith("t.yaml:3:infinibnad: unknown key; did you mean 'infiniband'?"));
  EXPECT_THAT(ParseError(Lines({"name: n", "colour: blue"})),
              StartsWith("t.yaml:2:colour: unknown key (a profile takes: name, description, gpu,"));
}

TEST(ParseProfile, RejectsDuplicateKeys) {
  EXPECT_EQ(ParseError(Lines(
                {"name: n", "munge:", "  max_clock_skew_s: 300", "  max_clock_skew_s: 30", "  source: x"})),
            "t.yaml:4:munge.max_clock_skew_s: duplicate key (first given at line 3)");
}

TEST(ParseProfile, RejectsAWordWhereAnIntegerBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: eight", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: expected an integer, got 'eight'");
}

TEST(ParseProfile, RejectsFractionsAndQuotedNumbersWhereAnIntegerBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: 8.5", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: expected an integer, got '8.5'");
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: '8'", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: expected an integer, got the quoted string '8'");
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: 8 GPUs", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: expected an integer, got '8 GPUs'");
}

TEST(ParseProfile, RejectsAListWhereANumberBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "nvlink:", "  links_per_gpu: 18", "  link_bandwidth_gb_per_s: [25]",
                              "  p2p_bandwidth_floor_gb_per_s: 335", "  source: x"})),
            "t.yaml:4:nvlink.link_bandwidth_gb_per_s: expected a number, got a list");
}

TEST(ParseProfile, RejectsYesNoWhereABooleanBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "infiniband:", "  present: yes"})),
            "t.yaml:3:infiniband.present: expected true or false, got 'yes'");
}

TEST(ParseProfile, RejectsAMappingWhereAStringBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "nccl:", "  network:", "    kind: IB"})),
            "t.yaml:3:nccl.network: expected a string, got a mapping");
}

TEST(ParseProfile, RejectsAScalarWhereAListBelongs) {
  EXPECT_EQ(ParseError(Lines({"name: n", "nccl:", "  network: IB", "  forbidden_ifnames: eth0"})),
            "t.yaml:4:nccl.forbidden_ifnames: expected a list, got 'eth0'");
}

TEST(ParseProfile, RejectsASectionThatIsNotAMapping) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu: 8"})), "t.yaml:2:gpu: expected a mapping, got '8'");
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:"})), "t.yaml:2:munge: expected a mapping, got nothing");
}

TEST(ParseProfile, RejectsZeroAndNegativeCounts) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: 0", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: must be positive, got '0'");
  EXPECT_EQ(ParseError(Lines({"name: n", "infiniband:", "  rail_nics_per_node: -8",
                              "  link_layer: InfiniBand", "  rate_gbit_per_s: 400", "  source: x"})),
            "t.yaml:3:infiniband.rail_nics_per_node: must be positive, got '-8'");
}

TEST(ParseProfile, RejectsCountsBeyondTheirType) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  count_per_node: 4294967297", "  source: x"})),
            "t.yaml:3:gpu.count_per_node: too large, got '4294967297'");
}

TEST(ParseProfile, RejectsASectionWithNumbersButNoSourceAtTheSectionLine) {
  EXPECT_THAT(
      ParseError(Lines({"name: n", "", "nvlink:", "  links_per_gpu: 18", "  link_bandwidth_gb_per_s: 25",
                        "  p2p_bandwidth_floor_gb_per_s: 335"})),
      StartsWith(
          "t.yaml:3:nvlink.source: missing; a section that holds numbers must say where they come from"));
}

TEST(ParseProfile, RejectsAnEmptySource) {
  EXPECT_EQ(ParseError(Lines({"name: n", "munge:", "  max_clock_skew_s: 300", "  source: ''"})),
            "t.yaml:4:munge.source: must not be empty");
}

TEST(ParseProfile, RejectsAMissingOrEmptyName) {
  EXPECT_EQ(ParseError(Lines({"# no name", "description: nameless"})),
            "t.yaml:2:name: missing; every profile has a name");
  EXPECT_EQ(ParseError(Lines({"name: ''"})), "t.yaml:1:name: must not be empty");
  EXPECT_EQ(ParseError(Lines({"name:"})), "t.yaml:1:name: expected a string, got nothing");
}

TEST(ParseProfile, RequiresCountsOfComponentsThatArePresent) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  model_contains: H100", "  source: x"})),
            "t.yaml:2:gpu.count_per_node: missing; required when gpu.present is true");
  EXPECT_EQ(ParseError(Lines({"name: n", "infiniband:", "  rail_nics_per_node: 8", "  rate_gbit_per_s: 400",
                              "  source: x"})),
            "t.yaml:2:infiniband.link_layer: missing; required when infiniband.present is true");
  EXPECT_EQ(ParseError(Lines({"name: n", "nvlink:", "  links_per_gpu: 18", "  source: x"})),
            "t.yaml:2:nvlink.link_bandwidth_gb_per_s: missing; an nvlink section states all of its numbers");
}

TEST(ParseProfile, RejectsNumbersForAComponentThatIsAbsent) {
  EXPECT_EQ(ParseError(Lines({"name: n", "gpu:", "  present: false", "  count_per_node: 8", "  source: x"})),
            "t.yaml:4:gpu.count_per_node: not allowed: gpu.present is false");
}

TEST(ParseProfile, RejectsAnUnknownLinkLayer) {
  EXPECT_EQ(ParseError(Lines({"name: n", "infiniband:", "  rail_nics_per_node: 8", "  link_layer: IB",
                              "  rate_gbit_per_s: 400", "  source: x"})),
            "t.yaml:4:infiniband.link_layer: expected 'InfiniBand' or 'Ethernet' (RoCE), as ibstat prints "
            "it, got 'IB'");
}

TEST(ParseProfile, RejectsASocketInterfaceThatIsAlsoForbidden) {
  EXPECT_EQ(ParseError(Lines({"name: n", "nccl:", "  network: Socket", "  socket_ifname: eth0",
                              "  forbidden_ifnames: [eth0]"})),
            "t.yaml:4:nccl.socket_ifname: 'eth0' is also in nccl.forbidden_ifnames");
}

TEST(ParseProfile, ReadsLinkCounterCountLimitsAndRejectsUnknownOrNegativeOnes) {
  auto profile = ParseProfile(Lines({"name: n", "link_counters:", "  count_limits: {recovery_errors: 0, "
                                     "aer_correctable: 20}", "  source: our policy"}),
                              "t.yaml");
  ASSERT_TRUE(profile) << profile.error();
  EXPECT_EQ(profile->link_counters.CountLimit("recovery_errors"), 0u);
  EXPECT_EQ(profile->link_counters.CountLimit("aer_correctable"), 20u);
  EXPECT_FALSE(profile->link_counters.CountLimit("crc_errors").has_value());
  EXPECT_THAT(ParseError(Lines({"name: n", "link_counters:", "  count_limits: {crc_eror: 1}", "  source: s"})),
              StartsWith("t.yaml:3:link_counters.count_limits.crc_eror: unknown counter 'crc_eror' (known: "));
  EXPECT_EQ(ParseError(Lines({"name: n", "link_counters:", "  count_limits: {crc_errors: -1}", "  source: s"})),
            "t.yaml:3:link_counters.count_limits.crc_errors: expected a whole number of errors (0 or more), got '-1'");
}

TEST(ParseProfile, ShowsBinaryValuesEscapedAndLongValuesShortened) {
  const std::string error =
      ParseError("name: n\ngpu:\n  count_per_node: \x01\x7f" + std::string(100, 'x') + "\n  source: x\n");
  EXPECT_THAT(error, StartsWith("t.yaml:3:gpu.count_per_node: expected an integer, got '\\x01\\x7fxxx"));
  EXPECT_THAT(error, HasSubstr("...'"));
  EXPECT_LT(error.size(), 120u);
}

TEST(ParseProfile, ReportsTheNameOfTheFileItWasGiven) {
  Result<Profile> profile =
      ParseProfile("name: n\nmunge:\n  max_clock_skew_s: x\n", "topologies/h100-sxm-8.yaml");
  ASSERT_FALSE(profile.ok());
  EXPECT_THAT(profile.error(), StartsWith("topologies/h100-sxm-8.yaml:3:munge.max_clock_skew_s: "));
}

// ---- ParseProfile: any byte string ------------------------------------------------------

void ExpectParsesOrNamesTheFile(const std::string& text, const std::string& file) {
  Result<Profile> profile = ParseProfile(text, file);
  if (!profile.ok()) {
    ASSERT_THAT(profile.error(), StartsWith(file + ":")) << "input of " << text.size() << " bytes";
  }
}

TEST(ParseProfileRobustness, EveryPrefixOfEveryBuiltinParsesOrNamesTheFile) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    for (std::size_t length = 0; length <= builtin.yaml.size(); ++length) {
      ExpectParsesOrNamesTheFile(builtin.yaml.substr(0, length), builtin.file);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ParseProfileRobustness, PseudoRandomBytesParseOrNameTheFile) {
  std::mt19937 random(20240601);  // fixed seed: a failure reproduces
  for (int i = 0; i < 3000; ++i) {
    std::string text(random() % 256, '\0');
    for (char& byte : text) byte = static_cast<char>(random() % 256);
    ExpectParsesOrNamesTheFile(text, kFile);
    if (HasFatalFailure()) return;
  }
}

TEST(ParseProfileRobustness, PseudoRandomYamlPunctuationParsesOrNamesTheFile) {
  // Bytes YAML gives meaning to find far more parser paths than uniform noise.
  static constexpr char kYamlBytes[] = "[]{}:-,?!&*|>'\"#%@` \n\t\r\\ab01.~\0\xff\xef\xbb\xbf";
  const std::string alphabet(kYamlBytes, sizeof kYamlBytes - 1);
  std::mt19937 random(7);
  for (int i = 0; i < 3000; ++i) {
    std::string text(random() % 128, '\0');
    for (char& byte : text) byte = alphabet[random() % alphabet.size()];
    ExpectParsesOrNamesTheFile(text, kFile);
    if (HasFatalFailure()) return;
  }
}

TEST(ParseProfileRobustness, MutatedBuiltinsParseOrNameTheFile) {
  std::mt19937 random(11);
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    for (int i = 0; i < 500; ++i) {
      std::string text = builtin.yaml;
      for (int flips = 1 + random() % 4; flips > 0; --flips) {
        text[random() % text.size()] = static_cast<char>(random() % 256);
      }
      ExpectParsesOrNamesTheFile(text, builtin.file);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(ParseProfileRobustness, InputsThatHangOrExhaustSomeYamlParsersAreRefused) {
  // A lone ',' makes yaml-cpp 0.7's LoadAll loop forever; '[:' and '{:' hung older releases.
  for (const char* text :
       {",", ",\n,", "[:", "{:", "[[:", "{# ke\ny{:", "- !+(.,.)", "&a [*a]", "*unknown", "\xef\xbb\xbf"}) {
    ExpectParsesOrNamesTheFile(text, kFile);
  }
  EXPECT_THAT(ParseError(std::string(100000, '[')), StartsWith("t.yaml:"));
  EXPECT_THAT(ParseError(std::string(100000, '{')), StartsWith("t.yaml:"));
  std::string nested_lists;
  for (int depth = 0; depth < 5000; ++depth) nested_lists += std::string(2 * depth, ' ') + "-\n";
  EXPECT_THAT(ParseError(nested_lists), StartsWith("t.yaml:"));
  EXPECT_THAT(ParseError(std::string("name: n\0gpu: 1\n", 15)), StartsWith("t.yaml:"));
}

}  // namespace
}  // namespace gpuconform
