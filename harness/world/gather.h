// GatherLive: runs the live probes across the world and gives rank 0 every rank's outputs.
// Contract: a collective. The lowest rank on each host runs that node's probes (so two
// ranks on one node do not run nvidia-smi twice); rank 0 alone runs cluster-scope probes;
// then rank 0 receives all outputs (the other ranks get an empty GatheredRun). Progress goes
// to `progress` on rank 0 only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/core/cluster_raw.h"
#include "harness/core/live_source.h"
#include "harness/core/profile.h"
#include "harness/core/rank_info.h"
#include "harness/core/run_options.h"
#include "harness/world/world.h"

namespace gpuconform {

// What a collective probe may use. Every rank calls the probe, in the same order, so it
// may call World collectives; it must not return early before one.
struct CollectiveContext {
  const World& world;
  const Profile* profile = nullptr;  // what the run judges against (sizes to measure); may be null
  std::string host;
  bool node_owner = false;              // the lowest rank on this host: its answer is kept
  std::vector<std::string> rank_hosts;  // host of every rank, by rank
  const RunOptions& options = DefaultRunOptions();
};

struct GatheredRun {
  ClusterRaw raw;
  std::vector<RankInfo> ranks;
};

class GatherListener;

// What a live gather holds so far, for a run that is terminated before its gather ends
// (termination.h). GatherLive fills it as each output is taken; the termination handler reads
// it on its own thread. Rank 0 opens a second TCP inbox (tcp_gather.h) before the ranks
// exchange host names, and its address travels with rank 0's host name, so a terminated rank
// can send what it has without another collective: a fence is what a terminated run cannot
// count on (the others may be gone, or inside another collective).
class GatherProgress {
 public:
  GatherProgress();
  ~GatherProgress();
  GatherProgress(const GatherProgress&) = delete;
  GatherProgress& operator=(const GatherProgress&) = delete;

  // A rank but 0: sends the outputs it took so far to rank 0's inbox, within `deadline`,
  // unless its part already went with the gather.
  void SendWhatWeHave(std::chrono::milliseconds deadline);
  // Rank 0: its own outputs so far and every part that reaches the inbox within `deadline`.
  // Every output of the step's nodes that was not taken (a probe that had not finished, a node
  // whose part did not arrive) is a failed output whose detail says why, led by `notice`
  // (kTerminatedMarker), so the checks that read it are errors that say so.
  GatheredRun CollectWhatWeHave(std::chrono::milliseconds deadline, const std::string& notice);
  // The gather completed on this rank: rank 0 holds every part, the others delivered theirs.
  bool gathered() const;

  // Called by GatherLive on rank 0 once the ranks have exchanged host names, with the step's
  // hosts (sorted, once each): the run writes its provisional report then.
  std::function<void(const std::vector<std::string>& hosts)> on_hosts_known;
  // A first gather, where `early_probe_ids` is not empty: once the node probes ran, every rank
  // sends the outputs of these probes, and rank 0 hands them to `on_early_gathered` before the
  // collective measurements start (the suites that need no measurement are judged then). The
  // last gather then carries only `final_probe_ids`.
  std::set<std::string> early_probe_ids;
  std::set<std::string> final_probe_ids;
  std::function<void(GatheredRun)> on_early_gathered;

  // A rank of a world that never formed (World::Form passed its deadline): sends the outputs
  // it took alone to rank 0's `inbox` (World::RendezvousOfRoot), within `deadline`.
  static Result<bool> SendToInbox(const std::string& inbox, int rank, const std::string& host, const ClusterRaw& taken,
                                  const RunOptions& options, std::chrono::milliseconds deadline);

  // GatherLive's side.
  // Rank 0: the inbox's address, "" where it could not listen; opened once (main opens it
  // before the ranks meet, to publish it), the same address after.
  std::string OpenInbox();
  void Start(int rank, int size, std::vector<std::string> hosts, std::string inbox, std::vector<ProbeSpec> probes,
             const RunOptions& options);
  void KeepNode(const std::string& host, const std::string& probe_id, const RawOutput& out);
  void KeepCluster(const std::string& probe_id, const RawOutput& out);
  void MarkGathered();

 private:
  mutable std::mutex mutex_;
  int rank_ = 0;
  int size_ = 1;
  std::vector<std::string> hosts_;  // by rank
  std::string inbox_;               // rank 0's inbox, as GatherRendezvous::Encode
  std::uint64_t inbox_nonce_ = 0;
  std::unique_ptr<GatherListener> listener_;  // rank 0
  std::vector<ProbeSpec> probes_;
  const RunOptions* options_ = &DefaultRunOptions();  // the launch environment sent with the outputs
  ClusterRaw mine_;
  bool gathered_ = false;
};

// A probe the run's deadline leaves no time for: with `left` seconds before the deadline
// (nullopt: none armed) and a long probe (a timeout over 60 s) that may take longer, the
// output that says it was not started (termination.h kNoTimeMarker), so the report is written
// before the deadline and names what it skipped. nullopt: it may run (a short probe always
// may: one that hangs is stopped when the deadline comes).
std::optional<RawOutput> NotStartedForLackOfTime(const ProbeSpec& spec, const std::string& node,
                                                 std::optional<std::chrono::seconds> left);

GatheredRun GatherLive(const World& world, LiveSource& live, const std::vector<ProbeSpec>& probes,
                       const std::function<void(const std::string&)>& progress, const Profile* profile = nullptr,
                       GatherProgress* so_far = nullptr);

}  // namespace gpuconform
