// Tests of the HTML report (reports/html_report.h): unit tests of RenderHtmlReport on
// hand-built results (escaping, the heatmap's order and folding, the baseline bars, version
// drift, trends, findings, no URL anywhere), and end to end through the binary with a real
// browser: headless Chromium loads a 3-node report (with a regression against a baseline) and
// a 10,000-node one, the tests assert on the DOM it built and keep screenshots under
// BUILD/artifacts/html/ for a person to look at.
#include "reports/html_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/core/process_runner.h"
#include "harness/core/reason_catalogue.h"
#include "reports/html_svg.h"
#include "results/run_totals.h"
#include "tests/support/regression_fixture.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

RunRecord RunOf(std::vector<std::string> nodes, int exit_status = 0) {
  RunRecord run;
  run.run_id = "0123456789abcdef0123456789abcdef";
  run.started_utc = "2026-12-04T14:00:00Z";
  run.ended_utc = "2026-12-04T14:05:00Z";
  run.profile = "h100-sxm-8";
  run.mode = "snapshot /data/snap";
  run.nodes = std::move(nodes);
  run.exit_status = exit_status;
  return run;
}

CheckResult WithMetric(CheckResult result, const std::string& name, const std::string& value,
                       const std::string& threshold, const std::string& unit = "GB/s") {
  result.measurements.push_back({name, value, unit, threshold, "profile"});
  return result;
}

// The text of one section, from its opening tag to the next section's.
std::string Section(const std::string& page, const std::string& id) {
  const auto begin = page.find("<section id=\"" + id + "\"");
  if (begin == std::string::npos) return "";
  return page.substr(begin, page.find("</section>", begin) - begin);
}

std::size_t Occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

TEST(HtmlReport, EscapesEveryTextFromTheRun) {
  const std::string evil = "<b>&\"x\"";
  RunRecord run = RunOf({evil, "n2"}, 1);
  run.tags = {{"image", "ngc<24.05>&'x'"}};
  run.baseline_origin = "good<.json";
  CheckResult failed = Failed("Munge", "KeyIdenticalOnAllNodes", evil,
                              {{"key-differs", evil + "/key", "<script>alert(1)</script> & more"}});
  failed = WithMetric(failed, evil + ".p2p_min", "1", ">= 300");
  CheckResult versions = Passed("Software", "KernelVersionIdentical");
  versions = WithMetric(versions, evil + ".kernel", "6.1<rc>", "", "");
  const std::string page = RenderHtmlReport({run, {failed, versions, Passed("Munge", "KeyIdenticalOnAllNodes", "n2")}}, {{"S", "C", "m<", evil, "u", {{"r", "t", 1, "image=<new>"}}}});
  EXPECT_EQ(page.find(evil), std::string::npos) << "raw node name";
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<rc>"), std::string::npos);
  EXPECT_EQ(page.find("<new>"), std::string::npos);
  EXPECT_NE(page.find("&lt;b&gt;&amp;&quot;x&quot;"), std::string::npos);
  EXPECT_NE(page.find("ngc&lt;24.05&gt;&amp;&#39;x&#39;"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), std::string::npos);
}

TEST(HtmlReport, SummarySaysTheExitStatusItsMeaningAndTheCounts) {
  RunRecord run = RunOf({"n1", "n2"}, 4);
  run.tags = {{"image", "ngc-24.05"}};
  run.baseline_origin = "good.json";
  const std::string page = RenderHtmlReport({run, {Passed("S", "A", "n1"), Skipped("S", "B", "", "no")}}, {});
  const std::string summary = Section(page, "summary");
  EXPECT_NE(summary.find("data-exit-status=\"4\""), std::string::npos) << summary;
  EXPECT_NE(summary.find(ExitMeaning(4)), std::string::npos) << summary;
  EXPECT_NE(summary.find("image=ngc-24.05"), std::string::npos);
  EXPECT_NE(summary.find("good.json"), std::string::npos);
  EXPECT_NE(summary.find("<b>1</b>conform"), std::string::npos) << summary;
  EXPECT_NE(summary.find("<b>1</b>skipped"), std::string::npos) << summary;
}

TEST(HtmlReport, SummaryNamesTheNodesNotCoveredWithTheCoverage) {
  RunRecord run = RunOf({"node1", "node2"});
  EXPECT_EQ(Section(RenderHtmlReport({run, {Passed("S", "A", "node1")}}, {}), "summary").find("not covered"),
            std::string::npos);
  run.not_covered = {"node3"};
  const std::string summary = Section(RenderHtmlReport({run, {Passed("S", "A", "node1")}}, {}), "summary");
  EXPECT_NE(summary.find("<th>not covered</th><td>1 of 3 nodes the controller lists ran no task (67% covered): node3"),
            std::string::npos)
      << summary;
}

TEST(HtmlReport, HeatmapDrawsFailingNodesFirstThenRegressionThenError) {
  CheckResult regressed = Passed("S", "A", "n4");
  regressed.verdict = Verdict::kRegression;
  const std::vector<CheckResult> results = {
      Passed("S", "A", "n1"),
      Errored("S", "A", "n2", "tool-missing", "nvidia-smi: not found"),
      Failed("S", "A", "n3", {{"nvlink-count", "n3/gpu0/link1", "down"}}),
      regressed,
      Passed("S", "Cluster"),
  };
  const std::string heatmap = Section(RenderHtmlReport({RunOf({"n1", "n2", "n3", "n4"}), results}, {}), "heatmap");
  const auto n3 = heatmap.find("data-node=\"n3\""), n4 = heatmap.find("data-node=\"n4\""),
             n2 = heatmap.find("data-node=\"n2\"");
  ASSERT_NE(n3, std::string::npos) << heatmap;
  EXPECT_LT(n3, n4);
  EXPECT_LT(n4, n2);
  EXPECT_EQ(heatmap.find("data-node=\"n1\""), std::string::npos) << "a conforming node has no row of its own";
  EXPECT_NE(heatmap.find("data-node=\"cluster\""), std::string::npos) << "cluster-wide cases have their row";
  EXPECT_NE(heatmap.find("<b>1 conforming node(s)</b>"), std::string::npos);
  EXPECT_NE(heatmap.find("class=\"legend\""), std::string::npos);
}

TEST(HtmlReport, TenThousandConformingNodesFoldIntoOneRowAndThePageStaysSmall) {
  std::vector<std::string> nodes;
  std::vector<CheckResult> results;
  for (int i = 1; i <= 10000; ++i) {
    nodes.push_back(fmt::format("gpu{:05d}", i));
    const std::string p2p = i == 2 ? "120" : fmt::format("{}", 380 + i % 17);
    results.push_back(WithMetric(i == 2 ? Failed("NvSwitch", "P2pBandwidthAtFloor", nodes.back(),
                                                 {{"p2p-below-floor", nodes.back() + "/gpu3", "120 < 335"}})
                                        : Passed("NvSwitch", "P2pBandwidthAtFloor", nodes.back()),
                                 nodes.back() + ".p2p_min", p2p, ">= 335"));
    results.push_back(Passed("NvSwitch", "AllLinksActive", nodes.back()));
  }
  const std::string page = RenderHtmlReport({RunOf(nodes, 1), results}, {});
  EXPECT_LT(page.size(), 2'000'000u);
  const std::string heatmap = Section(page, "heatmap");
  EXPECT_EQ(Occurrences(heatmap, "<tr class=\"node "), 1u) << "only the failing node has a row";
  EXPECT_NE(heatmap.find("data-node=\"gpu00002\""), std::string::npos);
  EXPECT_NE(heatmap.find("<b>9999 conforming node(s)</b>"), std::string::npos);
  EXPECT_NE(heatmap.find("gpu[00001,00003-10000]"), std::string::npos);
  const std::string metrics = Section(page, "distributions");
  EXPECT_NE(metrics.find("Below the floor (1): <b class=\"node\">gpu00002</b> 120"), std::string::npos) << metrics;
  EXPECT_NE(Section(page, "findings").find("gpu00002"), std::string::npos);
}

TEST(HtmlReport, NodesWithTheSameProblemsShareOneRow) {
  std::vector<std::string> nodes;
  std::vector<CheckResult> results;
  for (int i = 1; i <= 500; ++i) {
    nodes.push_back(fmt::format("n{:03d}", i));
    results.push_back(Errored("S", "A", nodes.back(), "tool-missing", "ibstat: not found"));
    results.push_back(i == 7 ? Failed("S", "B", nodes.back(), {{"nvlink-count", "n007/gpu1", "17 links"}})
                             : Passed("S", "B", nodes.back()));
  }
  const std::string page = RenderHtmlReport({RunOf(nodes, 1), results}, {});
  const std::string heatmap = Section(page, "heatmap");
  EXPECT_EQ(Occurrences(heatmap, "<tr class=\"node "), 1u) << "n007 alone: its pattern differs";
  EXPECT_LT(heatmap.find("data-node=\"n007\""), heatmap.find("<tr class=\"group ")) << "the failure first";
  EXPECT_EQ(Occurrences(heatmap, "<tr class=\"group "), 1u);
  EXPECT_NE(heatmap.find("<b>499 nodes</b>"), std::string::npos) << heatmap;
  EXPECT_NE(heatmap.find("n[001-006,008-500]"), std::string::npos);
  EXPECT_NE(Section(page, "findings").find("n[001-500]"), std::string::npos) << "one group, all nodes";
}

TEST(HtmlReport, HeatmapCapsTheRowsOfDistinctPatternsAndCountsTheRest) {
  std::vector<std::string> nodes;
  std::vector<CheckResult> results;
  for (int i = 1; i <= 300; ++i) {
    nodes.push_back(fmt::format("n{:03d}", i));
    results.push_back(Errored("S", fmt::format("C{}", i), nodes.back(), "tool-missing", "x"));
  }
  const std::string heatmap = Section(RenderHtmlReport({RunOf(nodes, 3), results}, {}), "heatmap");
  EXPECT_EQ(Occurrences(heatmap, "<tr class=\"node "), 200u);
  EXPECT_NE(heatmap.find("<b>100 more node(s) with problems</b>"), std::string::npos);
}

TEST(HtmlReport, AHugeMessageIsClipped) {
  std::string paths;
  for (int i = 0; i < 20000; ++i) paths += fmt::format("gpu{:05d}: cannot parse /data/nodes/gpu{:05d}/checkpoint.txt; ", i, i);
  const std::string page =
      RenderHtmlReport({RunOf({"n1"}, 3), {Errored("Checkpoint", "AtomicPublish", "", "no-observation", paths)}}, {});
  EXPECT_LT(page.size(), 100'000u);
  EXPECT_NE(page.find("more characters)"), std::string::npos);
}

TEST(HtmlReport, ARegressionIsARedBarWithItsChangeInPercent) {
  CheckResult result = Passed("AllreduceBandwidth", "MpiBusbwAtFloors");
  result.verdict = Verdict::kRegression;
  Measurement busbw{"busbw@64MiB", "0.096", "GB/s", ">= 0.05", "measured"};
  busbw.baseline = {true, 0.12, -0.2, false, 0.1, true};
  Measurement latency{"latency_ms", "1.01", "ms", "<= 10", "profile"};
  latency.baseline = {true, 1.0, 0.01, false, 0.1, false};
  result.measurements = {latency, busbw};
  const std::string changes = Section(RenderHtmlReport({RunOf({"n1"}, 4), {result}}, {}), "changes");
  const auto regressed = changes.find("<tr class=\"regressed\">");
  ASSERT_NE(regressed, std::string::npos) << changes;
  EXPECT_LT(regressed, changes.find("<tr class=\"within\">")) << "regressions first";
  const std::string row = changes.substr(regressed, changes.find("</tr>", regressed) - regressed);
  EXPECT_NE(row.find("busbw@64MiB"), std::string::npos);
  EXPECT_NE(row.find("-20.0%"), std::string::npos) << row;
  EXPECT_NE(row.find("class=\"change\""), std::string::npos);
  EXPECT_NE(row.find(std::string("fill=\"") + std::string(html::VerdictColour(Verdict::kFail)) + "\""),
            std::string::npos)
      << row;
}

TEST(HtmlReport, VersionDriftShowsTheMajorityAndTheOddNode) {
  CheckResult kernel = Failed("Software", "KernelVersionIdentical", "", {{"version-skew", "node3", "node3 differs"}});
  for (const auto& [node, version] :
       {std::pair{"node1", "6.1.0-18-amd64"}, {"node2", "6.1.0-18-amd64"}, {"node3", "6.1.0-17-amd64"}}) {
    kernel = WithMetric(kernel, std::string(node) + ".kernel", version, "", "");
  }
  CheckResult slurm = Passed("Software", "SlurmVersionIdentical");
  for (const char* node : {"node1", "node2", "node3"})
    slurm = WithMetric(slurm, std::string(node) + ".slurm", "22.05.8", "", "");
  const std::string versions =
      Section(RenderHtmlReport({RunOf({"node1", "node2", "node3"}, 1), {slurm, kernel}}, {}), "versions");
  const auto drift = versions.find("<tr class=\"drift\" data-component=\"kernel\">");
  ASSERT_NE(drift, std::string::npos) << versions;
  EXPECT_LT(drift, versions.find("data-component=\"slurm\"")) << "drifting components first";
  const std::string row = versions.substr(drift, versions.find("</tr>", drift) - drift);
  EXPECT_NE(row.find("<code>6.1.0-18-amd64</code></td><td class=\"num\">2</td>"), std::string::npos) << row;
  EXPECT_NE(row.find("<code>6.1.0-17-amd64</code> on 1 node(s): <span class=\"hostlist\">node3</span>"),
            std::string::npos)
      << row;
  EXPECT_NE(versions.find("<tr class=\"same\" data-component=\"slurm\">"), std::string::npos);
}

TEST(HtmlReport, TrendsSectionOnlyWhenTrendsAreGivenWithItsChangeMarker) {
  const RunRecord run = RunOf({"n1"});
  EXPECT_EQ(RenderHtmlReport({run, {Passed("S", "A", "n1")}}, {}).find("id=\"trends\""), std::string::npos);
  MetricTrend trend{"AllreduceBandwidth", "NcclBusbwAtFloors", "busbw@16GiB", "", "GB/s", {}};
  for (int i = 0; i < 6; ++i) {
    trend.points.push_back({fmt::format("run{}", i), fmt::format("2026-12-0{}T14:00:00Z", i + 1),
                            470.0 - (i >= 4 ? 60 : 0), i == 4 ? "image=ngc-24.05" : ""});
  }
  const std::string trends = Section(RenderHtmlReport({run, {Passed("S", "A", "n1")}}, {trend}), "trends");
  ASSERT_FALSE(trends.empty());
  EXPECT_EQ(Occurrences(trends, "class=\"change-marker\""), 1u);
  EXPECT_NE(trends.find("image=ngc-24.05"), std::string::npos);
  EXPECT_NE(trends.find("busbw@16GiB"), std::string::npos);
  EXPECT_EQ(Occurrences(trends, "<circle"), 6u);
}

TEST(HtmlReport, FindingsAreGroupedByCheckAndCodeWithTheCataloguesNextStep) {
  const std::vector<CheckResult> results = {
      Failed("Munge", "KeyIdenticalOnAllNodes", "node1", {{"key-differs", "node1", "node1's key differs"}}),
      Failed("Munge", "KeyIdenticalOnAllNodes", "node2", {{"key-differs", "node2", "node2's key differs"}}),
      Errored("InfiniBand", "PortsActiveAtRate", "node3", "tool-missing", "ibstat: not found"),
      Passed("Munge", "KeyIdenticalOnAllNodes", "node3"),
  };
  const std::string findings =
      Section(RenderHtmlReport({RunOf({"node1", "node2", "node3"}, 1), results}, {}), "findings");
  EXPECT_EQ(Occurrences(findings, "<tr class=\"f-"), 2u) << findings;
  const auto key = findings.find("data-code=\"key-differs\"");
  ASSERT_NE(key, std::string::npos) << findings;
  EXPECT_LT(key, findings.find("data-code=\"tool-missing\"")) << "failures before errors";
  const std::string row = findings.substr(key, findings.find("</tr>", key) - key);
  EXPECT_NE(row.find(html::Escape(FindReason("key-differs")->next_step)), std::string::npos) << row;
  EXPECT_NE(row.find(html::Escape(FindReason("key-differs")->meaning)), std::string::npos);
  EXPECT_NE(row.find("node[1-2]"), std::string::npos) << row;
  EXPECT_NE(row.find("configuration"), std::string::npos);
  EXPECT_NE(row.find("node1&#39;s key differs"), std::string::npos) << "one example message";
}

TEST(HtmlReport, BusbwChartHasALinePerAllreduceSourceAndTheFloors) {
  CheckResult mpi = Passed("AllreduceBandwidth", "MpiBusbwAtFloors");
  CheckResult nccl = Passed("AllreduceBandwidth", "NcclBusbwAtFloors");
  for (const auto& size : {"1MiB", "4MiB", "16MiB", "64MiB"}) {
    mpi = WithMetric(mpi, std::string("busbw@") + size, "0.1", std::string(size) == "64MiB" ? ">= 0.05" : "");
    nccl = WithMetric(nccl, std::string("busbw@") + size, "300", "");
  }
  nccl = WithMetric(nccl, "busbw@16GiB", "470", ">= 460");
  const std::string busbw = Section(RenderHtmlReport({RunOf({"n1"}), {mpi, nccl}}, {}), "busbw");
  EXPECT_EQ(Occurrences(busbw, "<polyline"), 2u) << busbw;
  EXPECT_EQ(Occurrences(busbw, "class=\"floor\""), 2u);
  EXPECT_NE(busbw.find("floor 460"), std::string::npos);
  EXPECT_NE(busbw.find(">16GiB</text>"), std::string::npos);
  EXPECT_NE(busbw.find("MpiBusbwAtFloors"), std::string::npos);
  EXPECT_NE(busbw.find("NcclBusbwAtFloors"), std::string::npos);
  EXPECT_EQ(html::SizeInBytes("16GiB"), 16.0 * (1 << 30));
  EXPECT_EQ(html::SizeInBytes("64MiB"), 64.0 * (1 << 20));
  EXPECT_FALSE(html::SizeInBytes("big"));
}

TEST(HtmlReport, NamesNoUrlAndNeedsNoScript) {
  CheckResult result = Failed("S", "A", "n1", {{"nvlink-count", "n1", "down"}});
  Measurement busbw{"busbw@1MiB", "0.1", "GB/s", ">= 0.05", "p"};
  busbw.baseline = {true, 0.2, -0.5, false, 0.1, true};
  result.measurements = {busbw};
  const std::string page = RenderHtmlReport({RunOf({"n1", "n2"}, 1), {result, Passed("S", "A", "n2")}}, {{"S", "A", "m", "", "", {{"r", "t", 1, "x"}, {"r2", "t2", 2, ""}}}});
  for (const std::string forbidden : {"http://", "https://", "<script", "src=", "url(", "@import"}) {
    EXPECT_EQ(page.find(forbidden), std::string::npos) << forbidden;
  }
}

// ---- In a real browser -------------------------------------------------------------------

// Where the screenshots and pages are kept: BUILD/artifacts/html, beside the binary's build.
fs::path ArtifactsDir() {
  const fs::path dir = fs::path(GPUCONFORM_BINARY).parent_path() / "artifacts" / "html";
  fs::create_directories(dir);
  return dir;
}

bool ChromiumInstalled() { return RunCommand({"chromium", "--version"}, 60s).outcome == CommandOutcome::kExited; }
constexpr char kNoChromium[] = "chromium is not installed (Debian: apt-get install chromium)";

// Headless Chromium on a local file. As root it needs --no-sandbox; its own profile
// directory keeps concurrent runs apart.
CommandResult Chromium(const std::string& profile_dir, std::vector<std::string> args, const fs::path& page) {
  std::vector<std::string> argv = {"chromium",      "--headless",     "--no-sandbox",
                                   "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile_dir};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("file://" + page.string());
  return RunCommand(argv, 120s);
}

class HtmlBrowserTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!ChromiumInstalled()) GTEST_SKIP() << kNoChromium;
  }

  CommandResult Gpuconform(std::vector<std::string> args, std::chrono::seconds timeout = 120s) {
    args.insert(args.begin(), GPUCONFORM_BINARY);
    return RunCommand(args, timeout);
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  // The DOM Chromium built from the page, and how long Chromium took.
  std::pair<std::string, double> LoadedDom(const fs::path& page) {
    const CommandResult loaded = Chromium(Path("chromium-profile"), {"--dump-dom"}, page);
    EXPECT_TRUE(loaded.Succeeded()) << loaded.error << loaded.stderr_text.substr(0, 2000);
    return {loaded.stdout_text, loaded.elapsed_s};
  }

  double Screenshot(const fs::path& page, const fs::path& png) {
    const CommandResult shot =
        Chromium(Path("chromium-profile"),
                 {"--hide-scrollbars", "--screenshot=" + png.string(), "--window-size=1400,3000"}, page);
    EXPECT_TRUE(shot.Succeeded()) << shot.error << shot.stderr_text.substr(0, 2000);
    EXPECT_TRUE(fs::exists(png) && fs::file_size(png) > 10'000) << png;
    return shot.elapsed_s;
  }

  std::string TenPercentProfile() { return test_support::TenPercentLocalProfile(dir_.path()); }
  std::string FasterBaseline(const std::string& measured) {
    return test_support::FasterBaseline(measured, dir_.path());
  }

  test_support::TempDir dir_;
};

TEST_F(HtmlBrowserTest, ThreeNodeReportWithARegressionLoadsAndShowsIt) {
  const std::string snapshot = std::string(GPUCONFORM_SOURCE_DIR) + "/fixtures/snapshots/local-3node-mpi-allreduce";
  const fs::path artifacts = ArtifactsDir();
  const auto first = Gpuconform({"run", "--snapshot", snapshot, "--profile", "local", "--json", Path("now.json")});
  ASSERT_EQ(first.exit_code, 0) << first.stdout_text << first.stderr_text;
  const auto plain = Gpuconform({"report", Path("now.json"), "--html", Path("plain.html")});
  ASSERT_EQ(plain.exit_code, 0) << plain.stderr_text;
  const std::string plain_dom = LoadedDom(Path("plain.html")).first;
  EXPECT_NE(plain_dom.find("data-exit-status=\"0\""), std::string::npos) << plain_dom.substr(0, 3000);

  const auto regressed = Gpuconform({"run", "--snapshot", snapshot, "--profile", TenPercentProfile(), "--baseline",
                                     FasterBaseline(Path("now.json")), "--json", Path("b.json")});
  ASSERT_EQ(regressed.exit_code, 4) << regressed.stdout_text << regressed.stderr_text;
  const fs::path page = artifacts / "report-3-nodes.html";
  const auto report = Gpuconform({"report", Path("b.json"), "--html", page.string()});
  ASSERT_EQ(report.exit_code, 0) << report.stderr_text;

  const auto [dom, load_s] = LoadedDom(page);
  std::cout << "3-node report: " << fs::file_size(page) << " bytes, chromium --dump-dom " << load_s << " s\n";
  const std::string summary = Section(dom, "summary");
  EXPECT_NE(summary.find("data-exit-status=\"4\""), std::string::npos) << summary;
  EXPECT_NE(summary.find(ExitMeaning(4)), std::string::npos) << summary;
  EXPECT_NE(summary.find("feedfacefeedfacefeedfacefeedface"), std::string::npos) << "the baseline's run";
  const std::string heatmap = Section(dom, "heatmap");
  EXPECT_NE(heatmap.find("<table class=\"heatmap\">"), std::string::npos);
  EXPECT_NE(heatmap.find("node[1-3]"), std::string::npos) << heatmap.substr(0, 3000);
  const std::string busbw = Section(dom, "busbw");
  EXPECT_NE(busbw.find("<polyline"), std::string::npos) << busbw.substr(0, 2000);
  EXPECT_NE(busbw.find("class=\"floor\""), std::string::npos);
  const std::string changes = Section(dom, "changes");
  const auto metric = changes.find("<td>busbw@64MiB</td>");
  ASSERT_NE(metric, std::string::npos) << changes.substr(0, 3000);
  const auto row = changes.rfind("<tr ", metric);
  const std::string regression = changes.substr(row, changes.find("</tr>", row) - row);
  EXPECT_TRUE(regression.starts_with("<tr class=\"regressed\">")) << regression;
  EXPECT_NE(regression.find("MpiBusbwAtFloors"), std::string::npos) << regression;
  EXPECT_NE(regression.find("-20.0%"), std::string::npos) << regression;
  EXPECT_NE(Section(dom, "findings").find("metric-regression"), std::string::npos);

  const double shot_s = Screenshot(page, artifacts / "report-3-nodes.png");
  std::cout << "3-node screenshot: " << shot_s << " s\n";
}

// bench/make-fleet-snapshot's fleet, built here with hard links from the same fixtures: the
// script forks about eight processes per node, which takes tens of minutes for 10,000 nodes
// on two shared cores; this takes seconds. Same nodes, same files, same broken gpu00002.
void MakeFleetSnapshot(int count, const fs::path& out) {
  const fs::path fixtures = fs::path(GPUCONFORM_SOURCE_DIR) / "fixtures" / "snapshots";
  const fs::path gpu = fixtures / "gpu-h100-healthy/nodes/hgx-node-01";
  const fs::path versions = fixtures / "h100-2node-healthy/nodes/gpu-node-01";
  const fs::path link_down = fixtures / "gpu-h100-nvml-link-down/nodes/hgx-node-01";
  fs::remove_all(out);
  for (int i = 1; i <= count; ++i) {
    const fs::path node = out / "nodes" / fmt::format("gpu{:05d}", i);
    fs::create_directories(node);
    for (const auto& file : fs::directory_iterator(gpu))
      fs::create_hard_link(file.path(), node / file.path().filename());
    for (const auto& file : fs::directory_iterator(versions)) {
      if (!fs::exists(node / file.path().filename())) fs::create_hard_link(file.path(), node / file.path().filename());
    }
  }
  fs::remove(out / "nodes/gpu00002/nvml.txt");
  fs::copy_file(link_down / "nvml.txt", out / "nodes/gpu00002/nvml.txt");
}

TEST_F(HtmlBrowserTest, TenThousandNodeReportStaysSmallLoadsFastAndNamesTheBrokenNode) {
  const auto started = std::chrono::steady_clock::now();
  MakeFleetSnapshot(10000, Path("fleet"));
  const fs::path artifacts = ArtifactsDir();
  const fs::path page = artifacts / "report-10000-nodes.html";
  const auto run =
      Gpuconform({"run", "--snapshot", Path("fleet"), "--profile", "h100-sxm-8", "--html", page.string()}, 300s);
  ASSERT_TRUE(run.exit_code == 1 || run.exit_code == 3) << run.exit_code << run.stderr_text.substr(0, 3000);
  ASSERT_TRUE(fs::exists(page));
  const auto bytes = fs::file_size(page);
  EXPECT_LT(bytes, 20'000'000u);
  EXPECT_LT(bytes, 2'000'000u) << "the aim: size grows with problems, not nodes";

  const auto [dom, load_s] = LoadedDom(page);
  EXPECT_LT(load_s, 10.0) << "chromium --dump-dom of a 10,000-node report";
  const double shot_s = Screenshot(page, artifacts / "report-10000-nodes.png");
  std::cout << "10,000-node report: " << bytes << " bytes; run " << run.elapsed_s << " s; chromium --dump-dom "
            << load_s << " s; screenshot " << shot_s << " s; whole test "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s\n";

  EXPECT_NE(Section(dom, "summary").find("data-exit-status=\"" + std::to_string(run.exit_code) + "\""),
            std::string::npos);
  const std::string heatmap = Section(dom, "heatmap");
  // The snapshot lacks some probes' files on every node (errors), so the 9,999 healthy nodes
  // share one row and gpu00002, whose NVLink is down, has its own, first.
  const auto broken = heatmap.find("data-node=\"gpu00002\"");
  ASSERT_NE(broken, std::string::npos) << heatmap.substr(0, 3000);
  EXPECT_LT(broken, heatmap.find("<tr class=\"group ")) << "the failing node first";
  EXPECT_NE(heatmap.find("9999 nodes"), std::string::npos) << heatmap.substr(0, 3000);
  EXPECT_NE(heatmap.find("gpu[00001,00003-10000]"), std::string::npos);
  EXPECT_LT(Occurrences(heatmap, "<tr "), 10u) << "rows grow with the patterns, not the nodes";
  EXPECT_NE(Section(dom, "findings").find("gpu00002"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
