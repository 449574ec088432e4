#include <gtest/gtest.h>

#include "tests/support/test_support.h"

#include <filesystem>
#include <map>
#include <fstream>
#include <random>
#include <sstream>

#include "harness/core/profile.h"
#include "probes/nccl_log/nccl_log_parse.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "suites/allreduce/allreduce_checks.h"

namespace gpuconform::allreduce {

using namespace gpuconform::nccl_log;
using namespace gpuconform::nccl_tests;
namespace {

const std::string kRealdata = GPUCONFORM_REALDATA_DIR;
constexpr long long kGiB = 1LL << 30;
constexpr long long kMiB = 1LL << 20;

std::string ReadRealdata(const std::string& name) {
  return test_support::ReadFile(std::filesystem::path(kRealdata) / "nccl-tests-output" / name);
}

// Skips, saying so, when the realdata folder is absent.
#define REQUIRE_REALDATA()                                      \
  GPUCONFORM_REALDATA_OR_SKIP(realdata_dir, "nccl-tests-output"); \
  (void)realdata_dir

BandwidthTable ParseRealdata(const std::string& name) {
  auto table = ParseNcclTestsOutput(ReadRealdata(name), name);
  EXPECT_TRUE(table) << table.error();
  return table ? *table : BandwidthTable{};
}

Profile Builtin(const std::string& name) {
  auto profile = LoadProfile(name);
  EXPECT_TRUE(profile) << profile.error();
  return profile ? *profile : Profile{};
}

// A profile with the given floors only, for thresholds a .source.txt states but no
// built-in profile carries.
Profile TestProfile(const std::string& name, std::vector<AllreduceFloor> floors) {
  Profile profile;
  profile.name = name;
  profile.file = "test:" + name;
  profile.Set(AllreduceFloors{std::move(floors)});
  return profile;
}

const Measurement* FindMeasurement(const CheckResult& result, const std::string& name) {
  for (const auto& measurement : result.measurements) {
    if (measurement.name == name) return &measurement;
  }
  return nullptr;
}

std::string Messages(const CheckResult& result) {
  std::string text;
  for (const auto& finding : result.findings) text += finding.message + "\n";
  return text;
}

BandwidthTable SyntheticTable(int nodes, std::vector<std::pair<long long, double>> size_busbw) {
  BandwidthTable table;
  table.origin = "all_reduce_perf.txt";
  table.nodes = nodes;
  table.ranks = nodes;
  for (const auto& [size, busbw] : size_busbw) {
    BandwidthRow row;
    row.size_bytes = size;
    row.busbw_gb_per_s = busbw;
    row.algbw_gb_per_s = busbw;
    row.checked = true;
    table.rows.push_back(row);
  }
  return table;
}

// ---- realdata: parsing ----

TEST(NcclTestsParse, ReadsSrunPrefixedTableWithoutDeviceLines) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("aws-2x-p5-h100-allreduce.txt");
  ASSERT_EQ(table.rows.size(), 32u);
  EXPECT_EQ(table.rows.front().size_bytes, 8);
  EXPECT_EQ(table.rows.back().size_bytes, 16 * kGiB);
  EXPECT_DOUBLE_EQ(table.rows.back().busbw_gb_per_s, 487.09);  // out-of-place, not in-place 487.26
  EXPECT_DOUBLE_EQ(table.rows.back().time_us, 66132);
  EXPECT_EQ(table.nodes, 0);  // no "# Rank" lines in the excerpt
  EXPECT_EQ(RanksImpliedByBusbw(table), 16);
  EXPECT_FALSE(table.ended_with_summary);
  for (const auto& row : table.rows) EXPECT_TRUE(row.checked && row.correct);
}

TEST(NcclTestsParse, ReadsMpirunTaggedTableAndAverage) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("aws-batch-p5-8gpu-allreduce.txt");
  ASSERT_EQ(table.rows.size(), 32u);
  EXPECT_DOUBLE_EQ(table.rows.back().busbw_gb_per_s, 483.05);
  EXPECT_TRUE(table.ended_with_summary);
  EXPECT_DOUBLE_EQ(table.reported_avg_busbw_gb_per_s, 156.742);
  EXPECT_EQ(RanksImpliedByBusbw(table), 8);  // the .source.txt: one 8-GPU node
}

TEST(NcclTestsParse, SkipsElisionInIndentedExcerpt) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("aws-eks-2x-p5-h100-allreduce-excerpt.txt");
  ASSERT_EQ(table.rows.size(), 7u);
  EXPECT_EQ(table.rows.front().size_bytes, 0);
  EXPECT_EQ(table.rows[1].size_bytes, 64 * kMiB);
  EXPECT_DOUBLE_EQ(table.rows.back().busbw_gb_per_s, 437.79);
  EXPECT_DOUBLE_EQ(table.reported_avg_busbw_gb_per_s, 52.9753);
}

TEST(NcclTestsParse, NotApplicableWrongMeansUnchecked) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("azure-aks-ndv4-2node-allreduce-sriov.txt");
  ASSERT_EQ(table.rows.size(), 16u);
  EXPECT_EQ(table.rows.back().size_bytes, 8 * kGiB);
  EXPECT_DOUBLE_EQ(table.rows.back().busbw_gb_per_s, 187.22);
  for (const auto& row : table.rows) EXPECT_FALSE(row.checked);
}

TEST(NcclTestsParse, CountsRanksAndHostsFromDeviceLines) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("gcp-a3mega-2node-h100-allreduce.txt");
  EXPECT_EQ(table.ranks, 16);
  EXPECT_EQ(table.nodes, 2);
  ASSERT_EQ(table.rows.size(), 31u);
  EXPECT_DOUBLE_EQ(table.rows.back().busbw_gb_per_s, 338.82);
}

TEST(NcclTestsParse, EveryRealFileParsesWithAscendingSizes) {
  REQUIRE_REALDATA();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kRealdata + "/nccl-tests-output")) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".source.txt")) continue;
    ++files;
    const BandwidthTable table = ParseRealdata(name);
    ASSERT_FALSE(table.rows.empty()) << name;
    for (std::size_t i = 1; i < table.rows.size(); ++i) {
      EXPECT_LT(table.rows[i - 1].size_bytes, table.rows[i].size_bytes) << name;
    }
  }
  EXPECT_EQ(files, 6);
}

// ---- realdata: verdicts agree with each .source.txt ----

TEST(NcclTestsVerdict, Aws2xP5H100PassesTwoNodeFloor) {
  REQUIRE_REALDATA();
  BandwidthTable table = ParseRealdata("aws-2x-p5-h100-allreduce.txt");
  table.nodes = 2;  // the .source.txt: 2x p5.48xlarge; the excerpt has no device lines
  // The .source.txt's criterion "busbw > ~400 GB/s at large sizes", at 16 GiB.
  const Profile profile = TestProfile("p5-efa-2node", {{2, 16 * kGiB, 400, "aws-2x-p5-h100 .source.txt"}});
  const CheckResult result = CheckBusbwAtFloors(table, profile);
  EXPECT_EQ(result.verdict, Verdict::kPass) << Messages(result);
  const Measurement* judged = FindMeasurement(result, "busbw@16GiB");
  ASSERT_NE(judged, nullptr);
  EXPECT_EQ(judged->value, "487.09");
  EXPECT_EQ(judged->threshold, ">= 400");
  EXPECT_EQ(CheckResultsCorrect(table).verdict, Verdict::kPass);
  // h100-sxm-8 has a 1-node floor only: a 2-node run is not judged against it.
  EXPECT_EQ(CheckBusbwAtFloors(table, Builtin("h100-sxm-8")).verdict, Verdict::kSkip);
}

TEST(NcclTestsVerdict, AwsBatchP5SingleNodePassesH100Floor) {
  REQUIRE_REALDATA();
  BandwidthTable table = ParseRealdata("aws-batch-p5-8gpu-allreduce.txt");
  // No device lines, but h100-sxm-8 has exactly one floor (1 node, 16 GiB, 460) and the
  // sweep reaches 16 GiB: 483.05 >= 460.
  const CheckResult unknown_nodes = CheckBusbwAtFloors(table, Builtin("h100-sxm-8"));
  EXPECT_EQ(unknown_nodes.verdict, Verdict::kPass) << Messages(unknown_nodes);
  table.nodes = 1;
  const CheckResult result = CheckBusbwAtFloors(table, Builtin("h100-sxm-8"));
  EXPECT_EQ(result.verdict, Verdict::kPass) << Messages(result);
  ASSERT_NE(FindMeasurement(result, "busbw@16GiB"), nullptr);
  EXPECT_EQ(FindMeasurement(result, "busbw@16GiB")->threshold, ">= 460");
  EXPECT_EQ(CheckResultsCorrect(table).verdict, Verdict::kPass);
}

TEST(NcclTestsVerdict, EksExcerptJudgedOnLargeSizesNotOnAverage) {
  REQUIRE_REALDATA();
  BandwidthTable table = ParseRealdata("aws-eks-2x-p5-h100-allreduce-excerpt.txt");
  table.nodes = 2;  // the .source.txt: 2x p5.48xlarge on EKS
  // Peak-busbw criterion of the .source.txt at the largest size printed (2 GiB); the average
  // (52.98 GB/s) would fail it, and is not looked at.
  const Profile profile = TestProfile("p5-efa-2node", {{2, 2 * kGiB, 400, "aws-eks .source.txt, peak busbw"}});
  const CheckResult result = CheckBusbwAtFloors(table, profile);
  EXPECT_EQ(result.verdict, Verdict::kPass) << Messages(result);
  EXPECT_LT(table.reported_avg_busbw_gb_per_s, 400);
  // Against h100-sxm-8's only floor (16 GiB) the excerpt lacks the size: an error, not a pass.
  table.nodes = 0;
  const CheckResult missing = CheckBusbwAtFloors(table, Builtin("h100-sxm-8"));
  EXPECT_EQ(missing.verdict, Verdict::kError);
  EXPECT_NE(Messages(missing).find("no row at 16 GiB (17179869184 B); run up to that size (-e 16G)"),
            std::string::npos)
      << Messages(missing);
}

TEST(NcclTestsVerdict, AzureNdv4PassesA100TwoNodeFloorUnverified) {
  REQUIRE_REALDATA();
  BandwidthTable table = ParseRealdata("azure-aks-ndv4-2node-allreduce-sriov.txt");
  // The two a100-sxm-8 floors (1 and 2 nodes) cannot be chosen without the node count.
  EXPECT_EQ(CheckBusbwAtFloors(table, Builtin("a100-sxm-8")).verdict, Verdict::kError);
  table.nodes = 2;  // the .source.txt: 2 AKS nodes
  const CheckResult result = CheckBusbwAtFloors(table, Builtin("a100-sxm-8"));
  EXPECT_EQ(result.verdict, Verdict::kPass) << Messages(result);  // 187.22 >= 180 at 8 GiB
  ASSERT_NE(FindMeasurement(result, "busbw@8GiB"), nullptr);
  EXPECT_EQ(FindMeasurement(result, "busbw@8GiB")->threshold, ">= 180");
  const CheckResult correct = CheckResultsCorrect(table);
  EXPECT_EQ(correct.verdict, Verdict::kSkip);
  EXPECT_NE(Messages(correct).find("not verified"), std::string::npos);
}

TEST(NcclTestsVerdict, GcpA3MegaFailsInfinibandH100ExpectationPassesA3Mega) {
  REQUIRE_REALDATA();
  const BandwidthTable table = ParseRealdata("gcp-a3mega-2node-h100-allreduce.txt");
  ASSERT_EQ(table.nodes, 2);
  // The .source.txt: "below an 8x400G InfiniBand H100 expectation (~450+ GB/s)".
  const Profile infiniband = TestProfile("h100-ib-2node", {{2, 8 * kGiB, 450, "gcp-a3mega .source.txt"}});
  const CheckResult result = CheckBusbwAtFloors(table, infiniband);
  EXPECT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(Messages(result).find("338.82 GB/s at 8 GiB (2 nodes, 16 ranks) is below the floor of 450 GB/s"),
            std::string::npos)
      << Messages(result);
  // "reasonable GPUDirect-TCPXO multi-node bandwidth: pass for an A3-Mega profile".
  const Profile a3mega = TestProfile("a3-mega", {{2, 8 * kGiB, 300, "gcp-a3mega .source.txt"}});
  EXPECT_EQ(CheckBusbwAtFloors(table, a3mega).verdict, Verdict::kPass);
  EXPECT_EQ(CheckResultsCorrect(table).verdict, Verdict::kPass);
  // h100-sxm-8 states no 2-node floor: skipped, saying so.
  const CheckResult builtin = CheckBusbwAtFloors(table, Builtin("h100-sxm-8"));
  EXPECT_EQ(builtin.verdict, Verdict::kSkip);
  EXPECT_NE(Messages(builtin).find("2 nodes"), std::string::npos) << Messages(builtin);
}

TEST(NcclTestsVerdict, AwsP4deA100PassesEfaFailsInfinibandThreshold) {
  REQUIRE_REALDATA();
  BandwidthTable table = ParseRealdata("aws-2x-p4de-a100-allreduce.txt");
  table.nodes = 2;  // the .source.txt: 2x p4de.24xlarge
  // "~78 GB/s busbw is near the EFA cap: pass for a p4de/EFA profile" (largest size 2 GiB).
  const Profile efa = TestProfile("p4de-efa", {{2, 2 * kGiB, 70, "aws-2x-p4de .source.txt"}});
  EXPECT_EQ(CheckBusbwAtFloors(table, efa).verdict, Verdict::kPass);
  // "would fail an IB 8x200G A100 threshold": a100-sxm-8's 2-node 180 GB/s, at 2 GiB.
  const Profile infiniband = TestProfile("a100-ib-2node", {{2, 2 * kGiB, 180, "a100-sxm-8 2-node floor"}});
  EXPECT_EQ(CheckBusbwAtFloors(table, infiniband).verdict, Verdict::kFail);
  // The built-in floor sits at 8 GiB, which this sweep (up to 2 GiB) never reached.
  EXPECT_EQ(CheckBusbwAtFloors(table, Builtin("a100-sxm-8")).verdict, Verdict::kError);
}

// ---- parsing: shapes the real files do not show ----

TEST(NcclTestsParse, SkipsPromptsCommandLinesAndLogNoise) {
  const std::string text =
      "user@login:~$ srun -N2 ./all_reduce_perf -b 8 -e 16G -f 2 -g 1\n"
      "node1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
      "#\n# Using devices\n"
      "#  Rank  0 Group  0 Pid 1234 on hostA device 0 [0x53] NVIDIA H100\n"
      "#  Rank  1 Group  0 Pid 1235 on hostB device 0 [0x53] NVIDIA H100\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n"
      "           8             2     float     sum      -1    12.90    0.00    0.00      0\n"
      "          16             4     float     sum      -1    12.88    0.00    0.00    N/A\n"
      "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.001\n";
  const auto table = test_support::Parsed(ParseNcclTestsOutput(text, "log.txt"));
  EXPECT_EQ(table.ranks, 2);
  EXPECT_EQ(table.nodes, 2);
  ASSERT_EQ(table.rows.size(), 2u);  // out-of-place-only rows (9 columns)
  EXPECT_TRUE(table.rows[0].checked);
  EXPECT_FALSE(table.rows[1].checked);
}

TEST(NcclTestsParse, SeveralRunsReturnsLastCompleteOne) {
  const std::string header = "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n";
  const std::string first = header + "1024 256 float sum -1 10 1.00 1.00 0 10 1.00 1.00 0\n# Out of bounds values : 0 OK\n";
  const std::string second = header + "1024 256 float sum -1 10 2.00 2.00 0 10 2.00 2.00 0\n# Out of bounds values : 0 OK\n";
  const std::string cut = header + "1024 256 float sum -1 10 3.00 3.00 0 10 3.00 3.00 0\n";
  const auto runs = test_support::Parsed(ParseNcclTestsRuns(first + second + cut, "runs.txt"));
  EXPECT_EQ(runs.size(), 3u);
  auto chosen = ParseNcclTestsOutput(first + second + cut, "runs.txt");
  ASSERT_TRUE(chosen);
  EXPECT_DOUBLE_EQ(chosen->rows[0].busbw_gb_per_s, 2.00);
}

TEST(NcclTestsParse, SizeThatDoesNotAscendStartsANewCycle) {
  const std::string text =
      "8 2 float sum -1 10 0.00 0.00 0\n16 4 float sum -1 10 0.00 0.00 0\n"
      "8 2 float sum -1 10 0.00 0.00 0\n";
  const auto runs = test_support::Parsed(ParseNcclTestsRuns(text, "cycles.txt"));
  EXPECT_EQ(runs.size(), 2u);
}

TEST(NcclTestsParse, WrongCountsBothHalves) {
  const auto table =
      test_support::Parsed(ParseNcclTestsOutput("1024 256 float sum -1 10 1.00 1.00 3 10 1.00 1.00 4\n", "w.txt"));
  EXPECT_EQ(table.rows[0].wrong_elements, 7);
  EXPECT_FALSE(table.rows[0].correct);
}

TEST(NcclTestsParse, ErrorsNameOriginAndLine) {
  const std::string text = "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
                           "8 2 float sum -1 10 0.00 0.00 0 10 0.00 0.00 0\n"
                           "16 4 float sum -1 10 x 0.00 0 10 0.00 0.00 0\n";
  test_support::ExpectErrorStartingWith(ParseNcclTestsOutput(text, "bad.txt"), "bad.txt:3: ");
  auto none = ParseNcclTestsOutput("hello\nworld\n", "empty.txt");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rfind("empty.txt:", 0), 0u);
  auto gather = ParseNcclTestsOutput("8 2 float none -1 10 0.00 0.00 0\n", "gather.txt");
  EXPECT_FALSE(gather);
}

// The document src/util.cu (JSON_FILE_VERSION 2) writes: one line, %lf doubles, nwrong null
// under -c 0, devices = one entry per process.
constexpr char kJson[] =
    R"({"version":2,"start_time":"2025-01-01 10:00:00","args":["./all_reduce_perf","-J","r.json"],"env":[],)"
    R"("nccl_version":22703,"config":{"nthreads":1,"ngpus":8,"minimum_bytes":8,"maximum_bytes":17179869184,)"
    R"("step_factor":2,"warmup_iters":5,"iterations":20,"aggregated_iterations":1,"validation":1,"graph":0,)"
    R"("blocking_collectives":"false","per_iter_timing":"false","parallel_init":"false","devices":[)"
    R"({"rank":0,"group":0,"pid":11,"hostname":"hostA","device":0,"device_hex":"0000:04:00","device_info":"NVIDIA H100"},)"
    R"({"rank":8,"group":0,"pid":12,"hostname":"hostB","device":0,"device_hex":"0000:04:00","device_info":"NVIDIA H100"}]},)"
    R"("results":[{"size":8589934592,"count":2147483648,"type":"float","redop":"sum","root":"    -1",)"
    R"("out_of_place":{"time":33605.000000,"alg_bw":255.620000,"bus_bw":479.280000,"nwrong":0.000000},)"
    R"("in_place":{"time":33628.000000,"alg_bw":255.440000,"bus_bw":478.950000,"nwrong":0.000000},)"
    R"("actual_iterations":20,"experiment_name":"AllReduce"},)"
    R"({"size":17179869184,"count":4294967296,"type":"float","redop":"sum","root":"    -1",)"
    R"("out_of_place":{"time":66132.000000,"alg_bw":259.780000,"bus_bw":487.090000,"nwrong":null},)"
    R"("in_place":{"time":66109.000000,"alg_bw":259.870000,"bus_bw":487.260000,"nwrong":null},)"
    R"("actual_iterations":20,"experiment_name":"AllReduce"}],)"
    R"("out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":483.185000,"okay":"unchecked"},)"
    R"("errors":[],"end_time":"2025-01-01 10:01:00"})";

TEST(NcclTestsJson, ReadsResultsDevicesAndAverage) {
  const auto table = test_support::Parsed(ParseNcclTestsJson(kJson, "r.json"));
  EXPECT_EQ(table.ranks, 16);
  EXPECT_EQ(table.nodes, 2);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(table.rows[1].busbw_gb_per_s, 487.09);
  EXPECT_TRUE(table.rows[0].checked);
  EXPECT_FALSE(table.rows[1].checked);
  EXPECT_TRUE(table.ended_with_summary);
  EXPECT_DOUBLE_EQ(table.reported_avg_busbw_gb_per_s, 483.185);
}

TEST(NcclTestsJson, ErrorsOnNanTruncationAndOtherDocuments) {
  std::string nan_run = kJson;
  nan_run.replace(nan_run.find("487.090000"), 10, "\"nan\"");
  EXPECT_FALSE(ParseNcclTestsJson(nan_run, "r.json"));
  EXPECT_FALSE(ParseNcclTestsJson(R"({"version":2})", "r.json"));
  EXPECT_FALSE(ParseNcclTestsJson("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "r.json"));
  const std::string text = kJson;
  for (std::size_t length = 0; length < text.size(); ++length) {
    EXPECT_FALSE(ParseNcclTestsJson(text.substr(0, length), "r.json")) << length;
  }
}

// ---- fuzz: never crash on any bytes ----

TEST(NcclTestsFuzz, RandomBytesNeverCrash) {
  std::mt19937 random(6);
  const std::string alphabet = "0123456789 .-#:/NA\n\tfloatsum[]<>{}\",e";
  for (int round = 0; round < 3000; ++round) {
    std::string text(random() % 400, '\0');
    for (char& c : text) c = round % 2 ? static_cast<char>(random()) : alphabet[random() % alphabet.size()];
    auto runs = ParseNcclTestsRuns(text, "fuzz.txt");
    if (runs) {
      for (const auto& table : *runs) CheckResultsCorrect(table);
    }
    (void)ParseNcclTestsJson(text, "fuzz.json");
  }
}

TEST(NcclTestsFuzz, EveryTruncationOfRealFilesParsesOrErrors) {
  REQUIRE_REALDATA();
  const Profile profile = Builtin("h100-sxm-8");
  for (const std::string name : {"aws-batch-p5-8gpu-allreduce.txt", "gcp-a3mega-2node-h100-allreduce.txt",
                                 "azure-aks-ndv4-2node-allreduce-sriov.txt", "aws-eks-2x-p5-h100-allreduce-excerpt.txt",
                                 "aws-2x-p5-h100-allreduce.txt", "aws-2x-p4de-a100-allreduce.txt"}) {
    const std::string text = ReadRealdata(name);
    ASSERT_FALSE(text.empty()) << name;
    for (std::size_t length = 0; length <= text.size(); ++length) {
      auto table = ParseNcclTestsOutput(text.substr(0, length), name);
      if (!table) {
        EXPECT_EQ(table.error().rfind(name + ":", 0), 0u) << table.error();
        continue;
      }
      CheckBusbwAtFloors(*table, profile);
      CheckResultsCorrect(*table);
    }
  }
}

// ---- checks: each one made to fail ----

TEST(BusbwAtFloors, FailsBelowFloorNamingSizeObservedFloorAndSource) {
  const Profile profile = TestProfile("h100", {{1, 16 * kGiB, 460, "azurehpc-health-checks"}});
  const CheckResult result = CheckBusbwAtFloors(SyntheticTable(1, {{8 * kGiB, 470}, {16 * kGiB, 300}}), profile);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(Messages(result).find("300.00 GB/s at 16 GiB"), std::string::npos) << Messages(result);
  EXPECT_NE(Messages(result).find("floor of 460 GB/s (source: azurehpc-health-checks)"), std::string::npos);
  EXPECT_EQ(result.findings[0].code, "busbw-below-floor");
  ASSERT_NE(FindMeasurement(result, "busbw@8GiB"), nullptr);
  EXPECT_EQ(FindMeasurement(result, "busbw@8GiB")->threshold, "");
  EXPECT_EQ(FindMeasurement(result, "busbw@16GiB")->threshold, ">= 460");
  EXPECT_EQ(FindMeasurement(result, "busbw@16GiB")->source, "azurehpc-health-checks");
}

TEST(BusbwAtFloors, ErrorsWhenNodeCountUnknownAndSeveralFloors) {
  const Profile profile = TestProfile("a100", {{1, 16 * kGiB, 228, "a"}, {2, 8 * kGiB, 180, "b"}});
  const CheckResult result = CheckBusbwAtFloors(SyntheticTable(0, {{8 * kGiB, 187}}), profile);
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_EQ(result.findings[0].code, "node-count-unknown");
  EXPECT_NE(Messages(result).find("how many nodes"), std::string::npos);
}

TEST(BusbwAtFloors, SkipsWithoutFloorForTheNodeCountOrAnyFloor) {
  const Profile profile = TestProfile("h100", {{1, 16 * kGiB, 460, "a"}});
  EXPECT_EQ(CheckBusbwAtFloors(SyntheticTable(4, {{16 * kGiB, 100}}), profile).verdict, Verdict::kSkip);
  EXPECT_EQ(CheckBusbwAtFloors(SyntheticTable(1, {{16 * kGiB, 100}}), TestProfile("none", {})).verdict,
            Verdict::kSkip);
}

TEST(BusbwAtFloors, ErrorsOnEmptySweep) {
  const Profile profile = TestProfile("h100", {{1, 16 * kGiB, 460, "a"}});
  EXPECT_EQ(CheckBusbwAtFloors(SyntheticTable(1, {}), profile).verdict, Verdict::kError);
}

TEST(BusbwAtFloors, DiagnosesCollectivesOnTheManagementNetwork) {
  Profile local = Builtin("local");
  ASSERT_TRUE(local.nccl);
  EXPECT_DOUBLE_EQ(local.nccl->management_rate_gbit_per_s, 0.1);
  // The local cluster over eth0: 64 MiB in 7.7 s across 3 ranks, busbw 0.012 GB/s.
  const CheckResult result = CheckBusbwAtFloors(SyntheticTable(3, {{64 * kMiB, 0.012}}), local);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(Messages(result).find("busbw 0.012 GB/s is at most the eth0 rate (0.0125 GB/s): collectives are probably on "
                                  "eth0; set NCCL_SOCKET_IFNAME=ens1 / OMPI_MCA_btl_tcp_if_include=ens1"),
            std::string::npos)
      << Messages(result);
  // Over ens1 it conforms, and a slow-but-not-eth0 failure carries no eth0 diagnosis.
  EXPECT_EQ(CheckBusbwAtFloors(SyntheticTable(3, {{64 * kMiB, 0.25}}), local).verdict, Verdict::kPass);
  local.nccl->socket_ifname.clear();
  AllreduceFloors floors = local.GetOrDefault<AllreduceFloors>();
  floors.floors[0].busbw_floor_gb_per_s = 1;
  local.Set(floors);
  const CheckResult slow = CheckBusbwAtFloors(SyntheticTable(3, {{64 * kMiB, 0.25}}), local);
  ASSERT_EQ(slow.verdict, Verdict::kFail);
  EXPECT_EQ(Messages(slow).find("collectives are probably on"), std::string::npos) << Messages(slow);
  const CheckResult unpinned = CheckBusbwAtFloors(SyntheticTable(3, {{64 * kMiB, 0.008}}), local);
  EXPECT_NE(Messages(unpinned).find("NCCL_SOCKET_IFNAME=the fabric interface"), std::string::npos)
      << Messages(unpinned);
}

TEST(ResultsCorrect, FailsListingWrongSizes) {
  BandwidthTable table = SyntheticTable(2, {{kMiB, 1}, {8 * kGiB, 180}});
  table.rows[1].correct = false;
  table.rows[1].wrong_elements = 12;
  const CheckResult result = CheckResultsCorrect(table);
  ASSERT_EQ(result.verdict, Verdict::kFail);
  EXPECT_NE(Messages(result).find("8 GiB (12 wrong elements)"), std::string::npos) << Messages(result);
  EXPECT_EQ(Messages(result).find("1 MiB"), std::string::npos);
  EXPECT_EQ(CheckResultsCorrect(SyntheticTable(2, {})).verdict, Verdict::kError);
}

TEST(HumanSizes, BinaryUnitsWhenExact) {
  EXPECT_EQ(HumanSize(17179869184), "16 GiB");
  EXPECT_EQ(HumanSize(64 * kMiB), "64 MiB");
  EXPECT_EQ(HumanSize(8), "8 B");
  EXPECT_EQ(HumanSize(1000), "1000 B");
  EXPECT_EQ(HumanSize(0), "0 B");
}

}  // namespace
}  // namespace gpuconform::allreduce

namespace gpuconform::allreduce {
namespace {

BandwidthTable OneRowTable(int ranks, long long size_bytes, double busbw_gb_per_s) {
  BandwidthTable table;
  table.origin = "sweep";
  table.ranks = ranks;
  table.nodes = ranks;
  table.rows.push_back({size_bytes, 1.0, busbw_gb_per_s, busbw_gb_per_s, true, true});
  return table;
}

TEST(EfficiencyAgainstFabric, RecordsTheBoundAndFailsBelowTheFloor) {
  Profile local = test_support::BuiltinProfile("local");
  ASSERT_NE(local.Get<FabricExpectation>(), nullptr);
  EXPECT_DOUBLE_EQ(local.Get<FabricExpectation>()->node_bandwidth_gbit_per_s, 13.5);
  const auto ok = CheckEfficiencyAgainstFabric(OneRowTable(3, 64LL << 20, 0.3), local);
  EXPECT_EQ(ok.verdict, Verdict::kPass);
  ASSERT_EQ(ok.measurements.size(), 2u);
  EXPECT_EQ(ok.measurements[0].name, "efficiency@64MiB");
  EXPECT_EQ(ok.measurements[0].value, "0.178");  // 0.3 / (13.5 / 8)
  const auto slow = CheckEfficiencyAgainstFabric(OneRowTable(3, 64LL << 20, 0.01), local);
  ASSERT_EQ(slow.verdict, Verdict::kFail);
  EXPECT_NE(slow.findings[0].message.find("is 0.6% of the 1.69 GB/s the fabric allows (3 nodes at 13.5 Gbit/s"),
            std::string::npos)
      << slow.findings[0].message;
}

TEST(EfficiencyAgainstFabric, WithoutAFloorItIsRecordedAndSkipped) {
  Profile h100 = test_support::BuiltinProfile("h100-sxm-8");
  ASSERT_NE(h100.Get<FabricExpectation>(), nullptr);
  FabricExpectation fabric = *h100.Get<FabricExpectation>();
  fabric.allreduce_efficiency_floor_fraction = 0;
  h100.Set(fabric);
  // aws-2x-p5: 16 ranks on 2 nodes, 487 GB/s busbw at 16 GiB. Over 2 nodes each node moves
  // 1x bytes at 400 GB/s, and busbw's factor for 16 ranks is 1.875: the bound is 750 GB/s.
  BandwidthTable two_nodes = OneRowTable(16, 16LL << 30, 487.0);
  two_nodes.nodes = 2;
  const auto result = CheckEfficiencyAgainstFabric(two_nodes, h100);
  EXPECT_EQ(result.verdict, Verdict::kSkip);
  EXPECT_EQ(result.measurements[0].value, "0.649");
  Profile none = h100;
  none.Unset<FabricExpectation>();
  EXPECT_EQ(CheckEfficiencyAgainstFabric(OneRowTable(16, 16LL << 30, 487.0), none).verdict, Verdict::kSkip);
}

TEST(EfficiencyAgainstFabric, SourcedFloorsOfTheGpuProfilesPassNvidiasFigureAndFailBelowIt) {
  // NVIDIA's "46-48 GB/s per NDR NIC" on 2 nodes of 8 H100s: 8 x 46 = 368 GB/s busbw passes,
  // 8 x 44 = 352 GB/s fails.
  for (const char* name : {"h100-sxm-8", "h200-sxm-8"}) {
    const Profile profile = test_support::BuiltinProfile(name);
    ASSERT_NE(profile.Get<FabricExpectation>(), nullptr) << name;
    EXPECT_DOUBLE_EQ(profile.Get<FabricExpectation>()->allreduce_efficiency_floor_fraction, 0.49) << name;
    BandwidthTable table = OneRowTable(16, 16LL << 30, 368.0);
    table.nodes = 2;
    EXPECT_EQ(CheckEfficiencyAgainstFabric(table, profile).verdict, Verdict::kPass) << name;
    table.rows[0].busbw_gb_per_s = 352.0;
    const auto slow = CheckEfficiencyAgainstFabric(table, profile);
    ASSERT_EQ(slow.verdict, Verdict::kFail) << name;
    EXPECT_NE(slow.findings[0].message.find("is 46.9% of the 750.00 GB/s the fabric allows (2 nodes at 3200 Gbit/s"),
              std::string::npos)
        << slow.findings[0].message;
  }
  // a100-sxm-8: the Azure 2-node floor of 180 GB/s is the floor fraction 0.48 of 375 GB/s.
  const Profile a100 = test_support::BuiltinProfile("a100-sxm-8");
  BandwidthTable table = OneRowTable(16, 8LL << 30, 180.0);
  table.nodes = 2;
  EXPECT_EQ(CheckEfficiencyAgainstFabric(table, a100).verdict, Verdict::kPass);
  table.rows[0].busbw_gb_per_s = 170.0;
  EXPECT_EQ(CheckEfficiencyAgainstFabric(table, a100).verdict, Verdict::kFail);
}

TEST(EfficiencyAgainstFabric, UnknownNodeCountIsAnErrorNotAGuess) {
  BandwidthTable table = OneRowTable(16, 16LL << 30, 368.0);
  table.nodes = 0;
  const auto result = CheckEfficiencyAgainstFabric(table, test_support::BuiltinProfile("h100-sxm-8"));
  ASSERT_EQ(result.verdict, Verdict::kError);
  EXPECT_NE(result.findings[0].message.find("does not say how many nodes took part"), std::string::npos)
      << result.findings[0].message;
}

// ---- realdata: efficiency verdicts agree with each .source.txt ----

TEST(NcclTestsEfficiencyVerdict, RealOutputsJudgedAsTheirSourcesSay) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "nccl-tests-output");
  struct Case {
    std::string file;
    std::string profile;
    int nodes;  // from the .source.txt where the table has no device lines; 0 = the table says
    Verdict expected;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"aws-2x-p5-h100-allreduce.txt", "h100-sxm-8", 2, Verdict::kPass, "healthy 2-node H100 result (487 GB/s)"},
      {"aws-eks-2x-p5-h100-allreduce-excerpt.txt", "h100-sxm-8", 2, Verdict::kPass,
       "large-message busbw is healthy (438 GB/s at 2 GiB)"},
      {"gcp-a3mega-2node-h100-allreduce.txt", "h100-sxm-8", 0, Verdict::kFail,
       "below an 8x400G InfiniBand H100 expectation (339 GB/s)"},
      {"azure-aks-ndv4-2node-allreduce-sriov.txt", "a100-sxm-8", 2, Verdict::kPass, "187 >= 180: pass"},
      {"aws-2x-p4de-a100-allreduce.txt", "a100-sxm-8", 2, Verdict::kFail,
       "would fail an IB 8x200G A100 threshold (78 GB/s)"},
      {"aws-batch-p5-8gpu-allreduce.txt", "h100-sxm-8", 1, Verdict::kSkip, "a single node: no fabric crossed"},
  };
  for (const auto& c : cases) {
    auto parsed = ParseNcclTestsOutput(test_support::ReadFile(dir / c.file), c.file);
    ASSERT_TRUE(parsed) << c.file << ": " << parsed.error();
    BandwidthTable table = *parsed;
    if (c.nodes > 0) table.nodes = c.nodes;
    const auto result = CheckEfficiencyAgainstFabric(table, test_support::BuiltinProfile(c.profile));
    EXPECT_EQ(result.verdict, c.expected) << c.file << " on " << c.profile << " (" << c.why << ")\n"
                                          << test_support::Describe({result});
  }
}

// ---- the NCCL log cited when a floor fails ----

nccl_log::InterNodeTransport TransportOfFixture(const std::string& fixture, const Profile& profile) {
  const std::string text = test_support::ReadFile(test_support::FixtureDir(fixture) + "/cluster/nccl-debug.log");
  auto log = nccl_log::ParseNcclLog(text, fixture);
  EXPECT_TRUE(log) << log.error();
  return log ? nccl_log::SummarizeInterNodeTransport(*log, profile) : nccl_log::InterNodeTransport{};
}

// A 2-node a100-sxm-8 run below its 180 GB/s floor, judged with the fixture's NCCL log.
std::string FloorFailureWithLog(const std::string& fixture, nccl_log::InterNodeTransport::Kind kind) {
  const Profile a100 = test_support::BuiltinProfile("a100-sxm-8");
  const auto transport = TransportOfFixture(fixture, a100);
  EXPECT_EQ(transport.kind, kind) << fixture;
  BandwidthTable table = OneRowTable(16, 8LL << 30, 120.0);
  table.nodes = 2;
  const auto result = CheckBusbwAtFloors(table, a100, &transport);
  EXPECT_EQ(result.verdict, Verdict::kFail) << fixture;
  return result.findings.empty() ? "" : result.findings[0].message;
}

TEST(BusbwAtFloors, CitesTheNcclLogSocketFallbackAndItsFix) {
  const std::string message =
      FloorFailureWithLog("nccl-socket-fallback-eth0", nccl_log::InterNodeTransport::Kind::kSocket);
  EXPECT_NE(message.find("NCCL log: NET/Socket on eth0 for channel 00/0 (rank 0, gpu-node-01, line 214; 8 of 8 "
                         "inter-node channels off NET/IB), an interface profile a100-sxm-8 forbids"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("NET/IB found no device on gpu-node-01"), std::string::npos) << message;
  EXPECT_NE(message.find("NCCL_IB_DISABLE"), std::string::npos) << message;
}

TEST(BusbwAtFloors, SaysTheTransportWasRightWhenTheLogShowsNetIb) {
  const std::string message =
      FloorFailureWithLog("nccl-h100-2node-healthy", nccl_log::InterNodeTransport::Kind::kAsProfiled);
  EXPECT_NE(message.find("NCCL log: all "), std::string::npos) << message;
  EXPECT_NE(message.find("inter-node channels on NET/IB"), std::string::npos) << message;
  EXPECT_NE(message.find("the transport was right, so look at the fabric"), std::string::npos) << message;
}

TEST(BusbwAtFloors, PassingRunsAndRunsWithoutALogCarryNoLogDiagnosis) {
  const Profile a100 = test_support::BuiltinProfile("a100-sxm-8");
  const auto transport = TransportOfFixture("nccl-h100-2node-healthy", a100);
  BandwidthTable table = OneRowTable(16, 8LL << 30, 190.0);
  table.nodes = 2;
  EXPECT_EQ(CheckBusbwAtFloors(table, a100, &transport).verdict, Verdict::kPass);
  table.rows[0].busbw_gb_per_s = 120.0;
  const auto without_log = CheckBusbwAtFloors(table, a100);
  ASSERT_EQ(without_log.verdict, Verdict::kFail);
  EXPECT_EQ(without_log.findings[0].message.find("NCCL log"), std::string::npos);
}

// Each fixture fails exactly NcclTestsEfficiencyAgainstFabric, citing the NCCL log.
// (It holds no run of gpuconform's own NCCL backend, so those checks are errors.)
TEST(AllreduceFixtures, SlowRunsFailEfficiencyCitingWhatTheNcclLogShows) {
  struct Case {
    std::string fixture;
    std::vector<std::string> message_parts;
  };
  const std::vector<Case> cases = {
      {"nccl-allreduce-slow-on-socket",
       {"busbw 4.12 GB/s at 16 GiB", "NCCL log: NET/Socket on eth0 for channel 00/0 (rank 0, gpu-node-01",
        "an interface profile h100-sxm-8 forbids", "NET/IB found no device"}},
      {"nccl-allreduce-slow-on-ib",
       {"busbw 187.50 GB/s at 16 GiB is 25.0% of the 750.00 GB/s", "inter-node channels on NET/IB",
        "the transport was right, so look at the fabric"}},
  };
  for (const auto& c : cases) {
    const auto results = test_support::EvaluateSuitesOnSnapshot(
        test_support::FixtureDir(c.fixture), test_support::BuiltinProfile("h100-sxm-8"), {"AllreduceBandwidth"});
    std::map<std::string, Verdict> verdicts;
    for (const auto& [name, result] : results) verdicts[name] = result.verdict;
    const std::map<std::string, Verdict> expected = {
        {"AllreduceBandwidth.MpiBusbwAtFloors", Verdict::kSkip},
        {"AllreduceBandwidth.MpiResultsCorrect", Verdict::kSkip},
        {"AllreduceBandwidth.MpiNoSlowNode", Verdict::kSkip},
        {"AllreduceBandwidth.MpiFaultIsolation", Verdict::kSkip},  // no cluster/isolation.txt either
        {"AllreduceBandwidth.MpiEfficiencyAgainstFabric", Verdict::kSkip},
        {"AllreduceBandwidth.MpiSmallMessageLatency", Verdict::kSkip},
        // The snapshot holds no gpuconform NCCL run: under a GPU profile that is an error.
        {"AllreduceBandwidth.NcclBusbwAtFloors", Verdict::kError},
        {"AllreduceBandwidth.NcclResultsCorrect", Verdict::kError},
        {"AllreduceBandwidth.NcclEfficiencyAgainstFabric", Verdict::kError},
        {"AllreduceBandwidth.NcclSmallMessageLatency", Verdict::kError},
        {"AllreduceBandwidth.NcclTestsBusbwAtFloors", Verdict::kSkip},  // h100-sxm-8: no 2-node floor
        {"AllreduceBandwidth.NcclTestsResultsCorrect", Verdict::kPass},
        {"AllreduceBandwidth.NcclTestsEfficiencyAgainstFabric", Verdict::kFail},
        {"AllreduceBandwidth.NcclTestsSmallMessageLatency", Verdict::kSkip},  // h100-sxm-8: no ceiling
    };
    EXPECT_EQ(verdicts, expected) << c.fixture;
    const auto found = results.find("AllreduceBandwidth.NcclTestsEfficiencyAgainstFabric");
    ASSERT_NE(found, results.end()) << c.fixture;
    ASSERT_FALSE(found->second.findings.empty()) << c.fixture;
    for (const auto& part : c.message_parts) {
      EXPECT_NE(found->second.findings[0].message.find(part), std::string::npos)
          << c.fixture << ": " << found->second.findings[0].message;
    }
  }
}

}  // namespace
}  // namespace gpuconform::allreduce
