// InfiniBand port counters in each format operators read them in: gpuconform's sysfs probe
// (against a sysfs tree built here, as the kernel lays it out), and perfquery -x and
// ibqueryerrors as published (../shared/realdata/ib-counters).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/core/live_source.h"
#include "harness/util/text_util.h"
#include "probes/ib_counters/ib_counters_parse.h"
#include "probes/ib_counters/ib_counters_probe.h"
#include "tests/support/test_support.h"

namespace gpuconform::ib_counters {
namespace {

namespace fs = std::filesystem;
using test_support::Parsed;

const PortCounters* Port(const CounterReport& report, const std::string& device, const std::string& port) {
  for (const auto& p : report.ports) {
    if (p.device == device && p.port == port) return &p;
  }
  return nullptr;
}

TEST(IbCountersProbe, ReadsEveryPortsErrorCountersFromSysfs) {
  test_support::TempDir root;
  for (const auto& [device, port, name, value] : std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"mlx5_0", "1", "symbol_error", "65535"}, {"mlx5_0", "1", "link_downed", "3"},
           {"mlx5_0", "1", "port_rcv_data", "123456"}, {"mlx5_1", "1", "port_xmit_discards", "0"}}) {
    const fs::path dir = fs::path(root.path()) / "class/infiniband" / device / "ports" / port / "counters";
    fs::create_directories(dir);
    std::ofstream(dir / name) << value << "\n";
  }
  RunOptions options;
  options.sysfs_root = root.path();
  LiveContext context{"node1", nullptr, options};
  const RawOutput out = IbCountersOutput(context);
  ASSERT_TRUE(out.ok());
  const auto report = Parsed(ParseIbCounters(out.text, "node1/ib-counters.txt"));
  EXPECT_EQ(report.format, "sysfs");
  ASSERT_EQ(report.ports.size(), 2u);
  const PortCounters* first = Port(report, "mlx5_0", "1");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->counters.at("symbol_error").value, 65535u);
  EXPECT_TRUE(first->counters.at("symbol_error").saturated) << "16-bit counter at its maximum";
  EXPECT_FALSE(first->counters.at("link_downed").saturated);
  EXPECT_EQ(first->counters.count("port_rcv_data"), 0u) << "data counters are not judged";
}

TEST(IbCountersParse, PerfqueryOfAHealthyHcaHasEveryCounterAtZero) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  const auto report = Parsed(ParseIbCounters(test_support::ReadFile(dir / "perfquery-x-edr-hca-lid133-healthy.txt"), "f"));
  EXPECT_EQ(report.format, "perfquery");
  ASSERT_EQ(report.ports.size(), 1u);
  EXPECT_EQ(report.ports[0].device, "LID 133");
  EXPECT_EQ(report.ports[0].counters.at("symbol_error").value, 0u);
}

TEST(IbCountersParse, PerfqueryOfASwitchPortKeepsLinkDownsAndDiscards) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  const auto report = Parsed(ParseIbCounters(
      test_support::ReadFile(dir / "perfquery-x-edr-switch-lid2052-port1-linkdowned-xmitdiscards.txt"), "f"));
  const PortCounters* port = Port(report, "LID 2052", "1");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->counters.at("link_downed").value, 1u);
  EXPECT_EQ(port->counters.at("port_xmit_discards").value, 20046u);
  EXPECT_EQ(port->counters.at("port_xmit_wait").value, 41864608u);
}

TEST(IbCountersParse, IbqueryerrorsNamesNodesPortsAndSaturatedCounters) {
  GPUCONFORM_REALDATA_OR_SKIP(dir, "ib-counters");
  // The published sweep is quoted in an e-mail: its source says to strip the "> " prefix.
  const std::string quoted =
      test_support::ReadFile(dir / "ibqueryerrors-sx6036-fdr-ports5-7-symbolerr-saturated-linkdowned-email-quoted.txt");
  std::string text;
  for (const auto line : SplitLines(quoted)) {
    text += std::string(line.size() >= 2 ? line.substr(2) : std::string_view()) + "\n";
  }
  const auto report = Parsed(ParseIbCounters(text, "f"));
  EXPECT_EQ(report.format, "ibqueryerrors");
  const PortCounters* port5 = Port(report, "GUID 0x2c903006e29b0", "5");
  ASSERT_NE(port5, nullptr);
  EXPECT_EQ(port5->node, "MF0;ys23ib4:SX6036/U1");
  EXPECT_TRUE(port5->counters.at("symbol_error").saturated);
  EXPECT_EQ(port5->counters.at("link_error_recovery").value, 8u);
  EXPECT_TRUE(Port(report, "GUID 0x7cfe900300179b31", "1")->counters.at("port_xmit_wait").saturated);
  EXPECT_EQ(Port(report, "GUID 0x7cfe900300179b31", "1")->node, "dl380g7 mlx4_0");
}

TEST(IbCountersParse, RefusesOtherTextAndBadCounts) {
  test_support::ExpectEachRefused(ParseIbCounters,
                                  {
                                      {"", "f:1: not InfiniBand counters"},
                                      {"hello\n", "f:1: not InfiniBand counters"},
                                      {"counter device=mlx5_0 port=1 name=symbol_error value=x\n", "f:1: value='x'"},
                                      {"counter port=1 name=symbol_error value=1\n", "f:1: a counter needs"},
                                      {"# Port counters: Lid 1 port 1\nSymbolErrorCounter:....-3\n", "f:2:"},
                                  });
}

TEST(IbCountersParse, NeverCrashesOnTruncatedOrNoisyInput) {
  test_support::SurvivesTruncationAndNoise(
      "# Port extended counters: Lid 2052 port 1\nSymbolErrorCounter:......0\nLinkDownedCounter:....1\n"
      "Errors for \"x\"\n   GUID 0x1 port 5: [SymbolErrorCounter == 65535]\n",
      ParseIbCounters);
}

}  // namespace
}  // namespace gpuconform::ib_counters
