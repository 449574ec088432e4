#include "probes/perftest/pair_error.h"

#include "harness/util/text_util.h"
#include "probes/perftest/perftest_errors.h"

namespace gpuconform::perftest {

namespace {

constexpr std::string_view kKilledWords = " and was killed";
constexpr std::string_view kNotInstalledWords = " is not installed on ";

}  // namespace

std::string ToolKilledAtDeadline(const std::string& tool, int seconds) {
  return tool + " did not finish within " + std::to_string(seconds) + " s" + std::string(kKilledWords);
}

std::string ToolNotInstalled(const std::string& tool, const std::string& node) {
  return tool + std::string(kNotInstalledWords) + node;
}

bool FailedBeforeMeasuring(std::string_view error) {
  if (error.empty()) return false;
  // The pass's own words: a tool that is missing says nothing about the rail, and a hung
  // ib_write_bw is one waiting on its handshake (a link that fails mid-run ends the run with a
  // completion error, below, rather than hanging it).
  if (Contains(error, kKilledWords) || Contains(error, kNotInstalledWords)) return true;
  switch (ClassifyPerftestLine(error).value_or(PerftestErrorKind::kOther)) {
    // The pass never asks for rdma_cm (-R), so perftest exchanges its QP numbers over a TCP
    // socket to the server's host name: a connect or exchange failure is the management
    // network, a firewall or a server that was not listening, not the rail.
    case PerftestErrorKind::kConnectFailed: return true;
    // --use_cuda could not get its GPU or its memory: no byte crossed the rail yet.
    case PerftestErrorKind::kCuda: return true;
    // A device that is gone since the pass listed it as active, a completion with error (the
    // transport's retries exceeded: a link that went down mid-run), or words perftest's classes
    // do not know: the rail may be at fault, so the pair stays slow, as before.
    case PerftestErrorKind::kNoDevice:
    case PerftestErrorKind::kOther: return false;
  }
  return false;
}

bool NotMeasured(const RailPair& pair) { return FailedBeforeMeasuring(pair.error); }

}  // namespace gpuconform::perftest
