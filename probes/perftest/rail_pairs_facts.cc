#include "probes/perftest/rail_pairs_facts.h"

#include <chrono>
#include <filesystem>

#include "harness/fact_reading.h"
#include "harness/live_source.h"
#include "harness/process_runner.h"
#include "harness/text_util.h"

namespace gpuconform::perftest {

namespace {

// perftest exits at once, in its own words, where there is no RDMA device; with a device it
// would wait for a peer, so it is only started where /sys/class/infiniband is empty.
constexpr std::chrono::milliseconds kNoDeviceProbeTimeout{10000};

RawOutput LivePairs(const LiveContext& context) {
  const std::string origin = context.host + ": ib_write_bw pairing pass";
  std::error_code ec;
  const bool has_devices = std::filesystem::exists("/sys/class/infiniband", ec) &&
                           !std::filesystem::is_empty("/sys/class/infiniband", ec);
  if (has_devices) {
    return RawOutput{ProbeStatus::kAbsent, "", origin,
                     context.host + ": the ib_write_bw pairing pass between nodes is read from snapshots "
                                    "(cluster/perftest-rail-pairs.txt); a live run does not start it yet"};
  }
  const CommandResult run = RunCommand({"ib_write_bw"}, kNoDeviceProbeTimeout);
  if (run.outcome == CommandOutcome::kNotFound) {
    return RawOutput{ProbeStatus::kToolMissing, "", origin,
                     context.host + ": ib_write_bw is not installed (Debian's perftest package provides it)"};
  }
  const std::string said(Trim(run.stdout_text + "\n" + run.stderr_text));
  return RawOutput{ProbeStatus::kFailed, "", origin,
                   context.host + ": no RDMA device, in perftest's own words: " +
                       (said.empty() ? "(it printed nothing, exit " + std::to_string(run.exit_code) + ")"
                                     : QuoteForMessage(said.substr(0, 400)))};
}

}  // namespace

const ProbeSpec& RailPairsProbe() {
  static const ProbeSpec kSpec =
      BuiltinProbe("perftest-rail-pairs", ProbeScope::kCluster, "perftest-rail-pairs.txt", LivePairs);
  return kSpec;
}

const Result<std::vector<RailPair>>& ReadRailPairs(const ClusterRaw& raw) {
  return raw.facts.Get<Result<std::vector<RailPair>>>("perftest-rail-pairs", "", [&] {
    return facts::ParseOutput(raw.ClusterOutput(RailPairsProbe().id), ParseRailPairs);
  });
}

}  // namespace gpuconform::perftest
