// The error signatures a line is classed by (nccl_log_parse.cc's one-pass scan): each is found
// wherever it sits in the line, at an even or an odd byte, since the scan looks at every second
// pair of bytes; a line that holds several is the most telling one's kind; lines near them are not.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "probes/nccl_log/nccl_log_parse.h"

namespace gpuconform::nccl_log {
namespace {

// The kind of the one problem a foreign line (not NCCL's own) makes, or "none".
std::string KindOfForeignLine(const std::string& line) {
  const auto log = ParseNcclLog("host:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" + line + "\n", "test");
  if (!log.ok()) return "parse error: " + log.error();
  if (log->problems.empty()) return "none";
  return log->problems.front().kind;
}

struct SignatureCase {
  std::string text;
  std::string kind;
};

const std::vector<SignatureCase> kEverySignature = {
    {"collective operation timeout", "timeout"},
    {"Watchdog caught", "timeout"},
    {"ncclRemoteError", "remote-error"},
    {"remote process exited", "remote-error"},
    {"ncclSystemError", "system-error"},
    {"unhandled system error", "system-error"},
    {"ncclInternalError", "internal-error"},
    {"internal error - please report", "internal-error"},
    {"ncclUnhandledCudaError", "cuda-error"},
    {"unhandled cuda error", "cuda-error"},
    {"ncclInvalidUsage", "invalid-usage"},
    {"ncclInvalidArgument", "invalid-usage"},
    {"Caught signal", "crash"},
    {"Segmentation fault", "crash"},
    {"terminate called after throwing", "crash"},
    {"NCCL error", "nccl-error"},
};

TEST(NcclLogErrorSignatures, EachIsFoundAtEveryOffsetOfTheLine) {
  for (const SignatureCase& signature : kEverySignature) {
    for (const std::string lead : {"", "x", "xy", "xyz", "worker 12: "}) {
      for (const std::string tail : {"", ".", ": details follow"}) {
        EXPECT_EQ(KindOfForeignLine(lead + signature.text + tail), signature.kind)
            << "'" << lead << signature.text << tail << "'";
      }
    }
  }
}

TEST(NcclLogErrorSignatures, TheMostTellingKindWinsWhereALineHoldsSeveral) {
  EXPECT_EQ(KindOfForeignLine("NCCL error: ncclRemoteError: remote process exited"), "remote-error");
  EXPECT_EQ(KindOfForeignLine("Segmentation fault after ncclInternalError"), "internal-error");
  EXPECT_EQ(KindOfForeignLine("NCCL error in: Watchdog caught collective operation timeout"), "timeout");
  EXPECT_EQ(KindOfForeignLine("[rank3]: NCCL error, then Caught signal 11"), "crash");
}

TEST(NcclLogErrorSignatures, NearMissesAndAnchorsAloneAreNoProblem) {
  for (const std::string line : {"an error occurred", "timeout set to 30", "nccl initialised", "remote process",
                                 "Caught a signal", "Segmentation", "terminate called", "ncclRemoteErro", "NCCL_error"}) {
    EXPECT_EQ(KindOfForeignLine(line), "none") << line;
  }
}

}  // namespace
}  // namespace gpuconform::nccl_log
