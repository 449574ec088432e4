#include "probes/mpi_sweep/mpi_allreduce_probe.h"

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include "harness/collective_deadline.h"
#include "harness/text_util.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/nccl_tests/bandwidth_table.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;
using namespace gpuconform::nccl_tests;

namespace {

// The timed collective is the blocking MPI_Allreduce that applications (and IMB) call, so
// the number means what they get. Its deadline is a CollectiveDeadline guard: if a rank
// stops progressing, the guard's handler reports and ends the job from another thread.
std::string StallProblem(const CollectiveContext& context, const std::string& what, std::chrono::seconds timeout) {
  return context.host + ": " + what + " did not complete within " + std::to_string(timeout.count()) +
         " s: a rank stopped progressing (stopped process, hung node, or a dead link); the measurement was "
         "abandoned (GPUCONFORM_COLLECTIVE_TIMEOUT_S sets the deadline)";
}

struct SizeResult {
  long long size_bytes = 0;
  double time_us = 0;  // slowest rank's mean per iteration
  long long wrong = 0;
};

// One size: warm-up, timed iterations, then the result checked on every element (each
// rank contributes RankContribution(rank), so every element must be ExpectedAllreduceSum(n)).
SizeResult MeasureSize(const CollectiveContext& context, long long size_bytes, std::chrono::seconds timeout) {
  const int ranks = context.world.size();
  const auto count = static_cast<int>(size_bytes / static_cast<long long>(sizeof(float)));
  std::vector<float> send(count, RankContribution(context.world.rank()));
  std::vector<float> receive(count, 0.0f);
  // Up to 5 of each, as nccl-tests' -w 5 -n 5, fewer for large sizes so that a sweep over a
  // slow fabric (eth0) still ends within the deadline. Warm-up matters most where a collective
  // takes milliseconds (connections, TCP windows), so it tapers off sooner.
  const int warmups = static_cast<int>(std::clamp<long long>(16 * kMiB / size_bytes, 1, 5));
  const int iterations = TimedIterations(static_cast<int>(std::clamp<long long>(64 * kMiB / size_bytes, 1, 5)),
                                         context.options.allreduce_iters);
  const CollectiveDeadline deadline(timeout, StallProblem(context, "MPI_Allreduce of " + std::to_string(size_bytes) + " B",
                                                          timeout));
  for (int i = 0; i < warmups; ++i) {  // warm-up: connections, TCP windows, pages
    MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
  // As IMB-MPI1 times it: each collective alone, from a barrier, so one iteration's rank skew
  // does not leak into the next one's time; the barriers are not timed.
  double total_us = 0;
  for (int i = 0; i < iterations; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    total_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  }
  double mean_us = total_us / iterations;
  const float expected = ExpectedAllreduceSum(ranks);
  long long wrong = std::count_if(receive.begin(), receive.end(), [&](float v) { return v != expected; });
  // The slowest rank's time is the collective's time; wrong counts add up.
  SizeResult result{size_bytes, 0, 0};
  MPI_Allreduce(&mean_us, &result.time_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&wrong, &result.wrong, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return result;
}

std::string Header(const CollectiveContext& context) {
  std::set<std::string> hosts(context.rank_hosts.begin(), context.rank_hosts.end());
  std::vector<SweepRank> ranks;
  for (const auto& host : context.rank_hosts) ranks.push_back({host, -1, "[host] CPU memory"});
  return SweepTableHeader("gpuconform MPI_Allreduce (float, sum) on host buffers", ranks,
                          static_cast<int>(hosts.size()));
}

// Blame: the full-world number says the cluster is slow, not which node. Each neighbour
// pair of nodes (ring order: node i with node i+1) runs the same allreduce alone while the
// others wait, so a node with a slow link shows up in both of its pairs; then each suspect
// is measured once more with a known-good node (ConfirmationPairs), so a healthy node between
// two slow ones is not blamed. One rank per node (the lowest on each host) takes part.
// Returns "# pair A B SIZE busbw X" lines.
struct PairBuffers {
  std::vector<float> send;
  std::vector<float> receive;
};

// The pair's time per allreduce (best of a few rounds), known to every rank afterwards.
double MeasureOnePair(const CollectiveContext& context, int a, int b, const std::string& label, PairBuffers& buffers,
                      std::chrono::seconds timeout) {
  const int me = context.world.rank();
  const int count = static_cast<int>(buffers.send.size());
  constexpr int kIterations = 3;
  constexpr int kPairRounds = 3;
  double best_us = 0;
  {
    const CollectiveDeadline deadline(timeout, StallProblem(context, "the pairwise allreduce of " + label, timeout));
    MPI_Comm pair;
    // Every rank joins the split (a collective on the world); only the pair gets a communicator.
    MPI_Comm_split(MPI_COMM_WORLD, me == a || me == b ? 0 : MPI_UNDEFINED, me, &pair);
    if (pair != MPI_COMM_NULL) {
      MPI_Allreduce(buffers.send.data(), buffers.receive.data(), count, MPI_FLOAT, MPI_SUM, pair);
      // Best of a few rounds: a slow link is slow every time, while a busy shared core or
      // a scheduler hiccup is not, and must not get a healthy node blamed.
      for (int round = 0; round < kPairRounds; ++round) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < kIterations; ++i) {
          MPI_Allreduce(buffers.send.data(), buffers.receive.data(), count, MPI_FLOAT, MPI_SUM, pair);
        }
        double mine = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                      kIterations;
        double slowest = 0;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, pair);
        best_us = round == 0 ? slowest : std::min(best_us, slowest);
      }
      MPI_Comm_free(&pair);
    }
    // One pair at a time, so pairs do not share the switch.
    context.world.SleepingBarrier({"the barrier after the pairwise allreduce of " + label, timeout});
  }
  double everyone = 0;
  MPI_Allreduce(&best_us, &everyone, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return everyone;
}

std::string MeasurePairs(const CollectiveContext& context, long long size_bytes, std::chrono::seconds timeout) {
  std::vector<int> node_ranks;
  std::vector<std::string> node_names;
  for (std::size_t r = 0; r < context.rank_hosts.size(); ++r) {
    if (std::find(node_names.begin(), node_names.end(), context.rank_hosts[r]) == node_names.end()) {
      node_names.push_back(context.rank_hosts[r]);
      node_ranks.push_back(static_cast<int>(r));
    }
  }
  const std::size_t nodes = node_ranks.size();
  if (nodes < 3) return "";  // two nodes make one pair: nothing to compare it with
  const auto count = static_cast<std::size_t>(size_bytes / static_cast<long long>(sizeof(float)));
  PairBuffers buffers{std::vector<float>(count, 1.0f), std::vector<float>(count, 0.0f)};
  auto rank_of = [&](const std::string& node) {
    return node_ranks[static_cast<std::size_t>(std::find(node_names.begin(), node_names.end(), node) - node_names.begin())];
  };
  std::vector<PairResult> pairs;
  auto measure = [&](const std::string& a, const std::string& b) {
    const double time_us = MeasureOnePair(context, rank_of(a), rank_of(b), a + " and " + b, buffers, timeout);
    pairs.push_back({a, b, size_bytes, AllreduceBusBandwidth(static_cast<double>(size_bytes) / (time_us * 1e-6) / 1e9, 2)});
  };
  for (std::size_t p = 0; p < nodes; ++p) measure(node_names[p], node_names[(p + 1) % nodes]);
  // Every rank has the same first-pass numbers, so every rank picks the same second pass.
  for (const auto& [suspect, good] : ConfirmationPairs(pairs)) measure(suspect, good);
  std::string lines;
  for (const auto& pair : pairs) {
    lines += fmt::format("# pair {} {} {} busbw {:.3f}\n", pair.node_a, pair.node_b, size_bytes, pair.busbw_gb_per_s);
  }
  return lines;
}

// The kernel's operational state of `ifname` ("up", "down", "lowerlayerdown", ...), or
// "absent" when the node has no such interface.
std::string OperationalState(const std::string& ifname) {
  std::ifstream file("/sys/class/net/" + ifname + "/operstate");
  std::string state;
  if (!(file >> state)) return "absent";
  return state;
}

// Open MPI ends the whole step (every rank, no report) at the first peer it cannot reach,
// so MPI starts only when every node's fabric interface is up. Every rank learns every
// node's state, so all ranks take the same decision. Returns the nodes whose fabric is not
// up, as "node1 (ens1 down)"; empty when MPI may start.
std::vector<std::string> NodesWithFabricDown(const CollectiveContext& context) {
  const std::string ifname =
      context.profile != nullptr && context.profile->nccl ? context.profile->nccl->socket_ifname : "";
  std::string mine;
  if (!ifname.empty() && context.node_owner) {
    const std::string state = OperationalState(ifname);
    if (state != "up" && state != "unknown") mine = context.host + " (" + ifname + " " + state + ")";
  }
  std::vector<std::string> down;
  const Exchange exchange{"the exchange of fabric interface states",
                          std::chrono::seconds(context.options.collective_timeout_s)};
  for (auto& node : context.world.AllGather(mine, exchange)) {
    if (!node.empty()) down.push_back(std::move(node));
  }
  return down;
}

RawOutput Measure(const CollectiveContext& context) {
  RawOutput out;
  out.origin = context.host + ": MPI_Allreduce sweep";
  if (context.world.size() < 2) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": one rank only: start gpuconform under srun or mpirun on two or more nodes to "
                 "measure allreduce bandwidth";
    return out;
  }
  if (const auto down = NodesWithFabricDown(context); !down.empty()) {
    out.status = ProbeStatus::kFailed;
    out.detail = "not measured: the fabric interface is not up on " + Join(down, ", ") +
                 ", and Open MPI ends the whole step at the first peer it cannot reach; bring the interface up "
                 "(ip link set IFACE up, check the cable and switch port) or drain the node "
                 "(Interfaces.FabricInterfaceUp names it)";
    return out;
  }
  {
    const std::chrono::seconds timeout(context.options.collective_timeout_s);
    const CollectiveDeadline deadline(timeout, StallProblem(context, "MPI_Init", timeout));
    if (auto started = context.world.StartMpi(); !started) {
      out.status = ProbeStatus::kFailed;
      out.detail = context.host + ": " + started.error();
      return out;
    }
  }
  const std::chrono::seconds timeout(context.options.collective_timeout_s);
  out.text = Header(context);
  for (long long size : MpiSweepSizes(context.profile, context.options)) {
    const SizeResult result = MeasureSize(context, size, timeout);
    out.text += SweepTableRow(size, result.time_us, context.world.size(), result.wrong);
  }
  // Pairs at the sweep's largest size, capped at 8 MiB so a slow link costs seconds.
  out.text += MeasurePairs(context, std::min(MpiSweepSizes(context.profile, context.options).back(), 8 * kMiB), timeout);
  out.status = ProbeStatus::kOk;
  return out;
}

}  // namespace

std::vector<long long> MpiSweepSizes(const Profile* profile, const RunOptions& options) {
  // Host buffers: keep a node's memory safe whatever a profile says.
  return SweepSizes(profile, kMiB, kGiB, options.allreduce_max_bytes);
}

ProbeSpec MpiAllreduceProbe() {
  ProbeSpec spec = CollectiveProbe("mpi-allreduce", "mpi-allreduce.txt", Measure);
  spec.scope = ProbeScope::kCluster;
  return spec;
}

}  // namespace gpuconform::mpi_sweep
