// The kernel log reader: parsed once per run, or why there is none, naming the node.
#include "probes/kernel_log/kernel_log_facts.h"

#include <gtest/gtest.h>

#include "probes/kernel_log/kernel_log_probe.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::kernel_log {
namespace {

TEST(KernelLogFacts, ParsesOnceAndNamesWhyThereIsNone) {
  ClusterRaw raw = test_support::RawOf(
      {{"n1",
        {{KernelLogProbe().id,
          test_support::OkOutput(
              "[ 88.1] NVRM: Xid (PCI:0000:1b:00): 119, pid=2203, name=nvidia-smi, Timeout after 6s\n",
              "n1/dmesg.txt")}}},
       {"n2", {{KernelLogProbe().id, {ProbeStatus::kFailed, "", "", "n2: dmesg: read kernel buffer failed"}}}}});
  const auto first = ReadKernelLog(raw, "n1");
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->events.size(), 1u);
  EXPECT_EQ(first->events[0].xid, 119);
  raw.node["n1"][KernelLogProbe().id].text = "";
  const auto again = ReadKernelLog(raw, "n1");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->events.size(), 1u) << "parsed a second time";
  const auto failed = ReadKernelLog(raw, "n2");
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().find("n2: dmesg: read kernel buffer failed"), std::string::npos) << failed.error();
}

}  // namespace
}  // namespace gpuconform::kernel_log
