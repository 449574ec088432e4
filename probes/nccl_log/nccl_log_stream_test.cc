// The parse of an NCCL log streamed from its file (ParseNcclLog over FileLines, as the run's
// reader does) gives exactly the facts of the log's whole text in one piece, read in chunks from
// one byte to one MiB, on every NCCL log the project has: the fixtures' and the published ones
// in realdata (skipped, saying so, where absent), and on the edges where splitting could differ
// (a log cut inside its last line, CRLF, a line longer than the streamed line cap, an empty log).
// (These were first proven against the whole-text parser this replaced, on the same logs.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/core/raw_lines.h"
#include "probes/nccl_log/nccl_log_parse.h"
#include "tests/support/streamed_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform::nccl_log {
namespace {

namespace fs = std::filesystem;

std::string Describe(const Source& s) {
  return "@" + std::to_string(s.line) + ":" + s.host + ":" + std::to_string(s.pid) + ":" + std::to_string(s.cuda_dev);
}

// Every fact the checks read, one per line, so a difference shows where it is.
std::string Describe(const Result<NcclLog>& result) {
  return test_support::DescribedParse(result, [](std::ostream& out, const NcclLog& log) {
    out << "lines " << log.lines << " nccl " << log.nccl_lines << " dropped " << log.dropped << " cut "
        << log.cut_last_line << " nvls " << log.nvls_connected << " collnet " << log.collnet_connected << "\n";
    for (const auto& v : log.versions) out << "version " << v << "\n";
    for (const auto& c : log.channels) {
      out << "channel " << Describe(c.source) << " " << c.channel << " " << c.from_rank << "->" << c.to_rank << " "
          << c.direction << " " << c.via << " " << TransportKindName(c.kind) << " " << c.net << " " << c.gdr << "\n";
    }
    for (const auto& init : log.net_inits) {
      out << "init " << Describe(init.source) << " " << init.net << " oob " << init.oob_ifname;
      for (const auto& d : init.devices)
        out << " [" << d.name << "|" << d.port << "|" << d.link_layer << "|" << d.address << "]";
      out << "\n";
    }
    auto texts = [&](const char* kind, const std::vector<SourcedText>& list) {
      for (const auto& t : list) out << kind << " " << Describe(t.source) << " " << t.text << "\n";
    };
    texts("network", log.networks);
    texts("no-device", log.no_device);
    texts("bootstrap", log.bootstraps);
    for (const auto& g : log.gdr) {
      out << "gdr " << Describe(g.source) << " " << g.hca << " " << g.enabled << " " << g.mechanism << " " << g.reason
          << "\n";
    }
    for (const auto& p : log.gdr_paths) {
      out << "gdr-path " << Describe(p.source) << " " << p.gpu << " " << p.hca << " " << p.enabled << " " << p.distance
          << " " << p.threshold << "\n";
    }
    for (const auto& p : log.gpu_net_paths)
      out << "gpu-net " << Describe(p.source) << " " << p.gpu << " " << p.net << " " << p.type << "\n";
    for (const auto& e : log.env) out << "env " << Describe(e.source) << " " << e.name << "=" << e.value << "\n";
    for (const auto& r : log.ranks)
      out << "rank " << Describe(r.source) << " " << r.rank << "/" << r.nranks << "/" << r.nnodes << "\n";
    for (const auto& p : log.problems) {
      out << "problem " << Describe(p.source) << " " << (p.rank ? std::to_string(*p.rank) : "-") << " " << p.kind << " "
          << p.text << "\n";
    }
    for (const auto& [key, rank] : log.rank_by_source) out << "rank-of " << key << " " << rank << "\n";
    for (const auto& [rank, host] : log.host_by_rank) out << "host-of " << rank << " " << host << "\n";
  });
}

void ExpectStreamedFactsEqualWholeText(const fs::path& path) {
  test_support::ExpectChunkedEqualsWhole(
      path, [&](const std::string& text) { return Describe(ParseNcclLog(std::string_view(text), path.string())); },
      [&](LineSource& lines) { return Describe(ParseNcclLog(lines, path.string())); });
}

TEST(NcclLogStream, EveryFixtureLogGivesTheSameFactsStreamedAsWhole) {
  // The snapshots' nccl-debug.log and the other outputs NCCL printed into (nccl-tests runs).
  const auto logs = test_support::FilesUnder(test_support::FixturesDir(), [](const fs::path& path) {
    return path.filename() == "nccl-debug.log" || test_support::ReadWhole(path).find(" NCCL INFO ") != std::string::npos;
  });
  ASSERT_GE(logs.size(), 6u);  // the six snapshots' nccl-debug.log at least
  for (const auto& path : logs) ExpectStreamedFactsEqualWholeText(path);
}

TEST(NcclLogStream, EveryPublishedLogGivesTheSameFactsStreamedAsWhole) {
  test_support::ForEachPublishedOutput("nccl-debug-logs", ExpectStreamedFactsEqualWholeText);
}

TEST(NcclLogStream, TheEdgesOfSplittingGiveTheSameFacts) {
  const std::string info = "node1:10:11 [0] NCCL INFO ";
  const std::string channel = info + "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA";
  const std::string long_line = info + "NET/IB : Using [0]mlx5_0:1/IB " + std::string(kMaxStreamedLineBytes + 5000, 'x');
  const std::vector<std::string> texts = {
      "",
      channel,                                        // one line, no newline: judged
      channel + "\n" + info + "Channel 01/0 : 0[0] -> 8[0] [send] via NET/I",  // cut inside the last line
      channel + "\r\n" + info + "Using network IB\r\n",
      long_line + "\n" + channel + "\n",
      channel + "\n" + long_line,                     // a long cut last line
      "\n\n" + channel + "\n\n",
  };
  test_support::TempDir dir;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const fs::path path = fs::path(dir.path()) / ("edge-" + std::to_string(i) + ".log");
    std::ofstream(path, std::ios::binary) << texts[i];
    ExpectStreamedFactsEqualWholeText(path);
  }
}

TEST(NcclLogStream, AFileThatCannotBeOpenedSaysWhich) {
  auto lines = FileLines("/nonexistent/nccl-debug.log");
  ASSERT_FALSE(lines);
  EXPECT_NE(lines.error().find("/nonexistent/nccl-debug.log"), std::string::npos) << lines.error();
}

}  // namespace
}  // namespace gpuconform::nccl_log
