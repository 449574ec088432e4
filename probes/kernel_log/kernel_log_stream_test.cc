// The streamed parse of a kernel log (ParseKernelLog over a LineSource, as the reader runs it
// on a replayed dmesg.txt read in chunks) gives the facts of its whole text in one piece (and,
// when it was written, of the whole-text parser it replaced), on the
// fixtures' dmesg.txt and the published kernel logs in realdata (skipped, saying so, where
// absent), and where a fall off the bus names its GPU lines above it.
#include <gtest/gtest.h>

#include <sstream>

#include "probes/kernel_log/kernel_log_parse.h"
#include "tests/support/streamed_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::kernel_log {
namespace {

namespace fs = std::filesystem;

std::string Describe(const Result<KernelLog>& result) {
  return test_support::DescribedParse(result, [](std::ostream& out, const KernelLog& log) {
    out << "lines " << log.lines << "\n";
    for (const auto& e : log.events) {
      out << "xid " << e.line << " " << e.xid << " " << e.bus_id << " " << e.timestamp << " " << e.from_bus_message
          << " " << e.message << "\n";
    }
    for (const auto& e : log.aer_events) {
      out << "aer " << e.line << " " << e.device.address << " " << e.device.driver << " " << e.reported_by << " "
          << AerSeverityName(e.severity) << " " << e.layer << " " << e.timestamp << " |";
      for (const auto& error : e.errors) out << " " << error;
      out << " |";
      for (const auto& device : e.affected) out << " " << device.address << "/" << device.driver;
      out << "\n";
    }
  });
}

void ExpectStreamedFactsEqualWholeText(const fs::path& path) {
  test_support::ExpectChunkedEqualsWhole(
      path, [&](const std::string& text) { return Describe(ParseKernelLog(text, path.string())); },
      [&](LineSource& lines) { return Describe(ParseKernelLog(lines, path.string())); });
}

TEST(KernelLogStream, EveryFixtureKernelLogGivesTheSameFactsStreamedAsWhole) {
  const auto logs = test_support::FilesUnder(test_support::FixturesDir(),
                                             [](const fs::path& path) { return path.filename() == "dmesg.txt"; });
  ASSERT_FALSE(logs.empty());
  for (const auto& path : logs) ExpectStreamedFactsEqualWholeText(path);
}

TEST(KernelLogStream, EveryPublishedKernelLogGivesTheSameFactsStreamedAsWhole) {
  for (const char* folder : {"kernel-log", "pcie-aer"}) {
    GPUCONFORM_REALDATA_OR_SKIP(dir, folder);
    for (const auto& path : test_support::PublishedOutputs(dir)) ExpectStreamedFactsEqualWholeText(path);
  }
}

TEST(KernelLogStream, AFallOffTheBusNamesTheGpuFromTheLinesAboveAcrossChunks) {
  test_support::TempDir dir;
  const fs::path path = fs::path(dir.path()) / "dmesg.txt";
  std::ofstream(path, std::ios::binary)
      << "[  100.1] NVRM: The NVIDIA GPU 0000:18:00.0\r\n"
         "[  100.1] NVRM: (PCI ID: 10de:2330) installed in this system has\r\n"
         "[  100.1] NVRM: fallen off the bus and is not responding to commands.\r\n"
         "[  200.0] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n"
         "[  300.0] NVRM: fallen off the bus";
  ExpectStreamedFactsEqualWholeText(path);
  const auto log = ParseKernelLog(test_support::ReadWhole(path), path.string());
  ASSERT_TRUE(log);
  ASSERT_EQ(log->events.size(), 3u);
  EXPECT_EQ(log->events[0].line, 1);
  EXPECT_EQ(log->events[0].bus_id, "00000000:18:00.0");
}

}  // namespace
}  // namespace gpuconform::kernel_log
