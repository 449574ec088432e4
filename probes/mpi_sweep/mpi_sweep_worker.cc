#include "probes/mpi_sweep/mpi_sweep_worker.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>  // program_invocation_name (glibc)
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <set>

#include "harness/core/live_source.h"
#include "harness/util/child_verbs.h"
#include "harness/util/system_allocator.h"
#include "harness/util/text_util.h"
#include "harness/world/collective_deadline.h"
#include "probes/allreduce_sweep/collectives.h"
#include "probes/allreduce_sweep/latency_profile.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/mpi_sweep/collective_measure.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/mpi_sweep/step_deaths.h"
#include "probes/mpi_sweep/sweep_world.h"
#include "probes/nccl_tests/bandwidth_table.h"
#include "probes/resource_limits/node_limits.h"

namespace gpuconform::mpi_sweep {

using namespace gpuconform::allreduce_sweep;
using namespace gpuconform::nccl_tests;

namespace {

// One size: warm-up, timed iterations, then the result checked on every element (each
// rank contributes RankContribution(rank), so every element must be ExpectedAllreduceSum(n)).
// The timed collective is the blocking MPI_Allreduce that applications (and IMB) call, so
// the number means what they get.
SizeResult MeasureSize(const SweepWorld& world, long long size_bytes, int configured_iters) {
  const auto count = static_cast<int>(size_bytes / static_cast<long long>(sizeof(float)));
  std::vector<float> send(count, RankContribution(world.rank));
  std::vector<float> receive(count, 0.0f);
  return MeasureBlocking(
      world, "MPI_Allreduce of " + std::to_string(size_bytes) + " B", size_bytes, configured_iters,
      [&] { MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); },
      [&]() -> long long {
        const float expected = ExpectedAllreduceSum(world.size);
        return std::count_if(receive.begin(), receive.end(), [&](float v) { return v != expected; });
      });
}

std::string Header(const SweepWorld& world) {
  return HostBufferHeader(world, "gpuconform MPI_Allreduce (float, sum) on host buffers");
}

// Blame: the full-world number says the cluster is slow, not which node. Each neighbour
// pair of nodes (ring order: node i with node i+1) runs the same allreduce alone while the
// others wait, so a node with a slow link shows up in both of its pairs; then each suspect
// is measured once more with a known-good node (ConfirmationPairs), so a healthy node between
// two slow ones is not blamed. One rank per node (the lowest on each host) takes part.
struct PairBuffers {
  std::vector<float> send;
  std::vector<float> receive;
};

// The pair's time per allreduce (best of a few rounds), known to every rank afterwards.
double MeasureOnePair(const SweepWorld& world, int a, int b, const std::string& label, PairBuffers& buffers) {
  const int count = static_cast<int>(buffers.send.size());
  constexpr int kIterations = 3;
  constexpr int kPairRounds = 3;
  double best_us = 0;
  {
    const CollectiveDeadline deadline(world.timeout, StallProblem(world, "the pairwise allreduce of " + label));
    MPI_Comm pair;
    // Every rank joins the split (a collective on the world); only the pair gets a communicator.
    MPI_Comm_split(MPI_COMM_WORLD, world.rank == a || world.rank == b ? 0 : MPI_UNDEFINED, world.rank, &pair);
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
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double everyone = 0;
  MPI_Allreduce(&best_us, &everyone, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return everyone;
}

// "# pair A B SIZE busbw X" lines; empty with fewer than three nodes (one pair has nothing
// to be compared with).
std::string MeasurePairs(const SweepWorld& world, long long size_bytes) {
  std::vector<int> node_ranks;
  std::vector<std::string> node_names;
  for (std::size_t r = 0; r < world.rank_hosts.size(); ++r) {
    if (std::find(node_names.begin(), node_names.end(), world.rank_hosts[r]) == node_names.end()) {
      node_names.push_back(world.rank_hosts[r]);
      node_ranks.push_back(static_cast<int>(r));
    }
  }
  const std::size_t nodes = node_ranks.size();
  if (nodes < 3 || size_bytes <= 0) return "";
  const auto count = static_cast<std::size_t>(size_bytes / static_cast<long long>(sizeof(float)));
  PairBuffers buffers{std::vector<float>(count, 1.0f), std::vector<float>(count, 0.0f)};
  auto rank_of = [&](const std::string& node) {
    return node_ranks[static_cast<std::size_t>(std::find(node_names.begin(), node_names.end(), node) - node_names.begin())];
  };
  std::vector<PairResult> pairs;
  auto measured = [&](const std::string& a, const std::string& b) {
    const double time_us = MeasureOnePair(world, rank_of(a), rank_of(b), a + " and " + b, buffers);
    return PairResult{a, b, size_bytes,
                      AllreduceBusBandwidth(static_cast<double>(size_bytes) / (time_us * 1e-6) / 1e9, 2), ""};
  };
  for (std::size_t p = 0; p < nodes; ++p) pairs.push_back(measured(node_names[p], node_names[(p + 1) % nodes]));
  // Every rank has the same first-pass numbers, so every rank picks the same pairs to measure
  // again, and then the same second pass.
  for (const auto& [a, b] : RemeasuredPairs(pairs)) MergeRemeasured(pairs, measured(a, b));
  for (const auto& [suspect, good] : ConfirmationPairs(pairs)) pairs.push_back(measured(suspect, good));
  std::string lines;
  for (const auto& pair : pairs) lines += PairLine(pair);
  return lines;
}

// Every ordered pair of ranks exchanges one int: at offset k, rank r sends to r+k and receives
// from r-k, so after size-1 steps every pair has connected both ways. Open MPI connects lazily,
// and an allreduce talks only to ring or tree neighbours; this is what makes a test fail where
// any two of its nodes cannot reach each other.
void ConnectEveryPair(const SweepWorld& world) {
  const CollectiveDeadline deadline(world.timeout, StallProblem(world, "the exchange between every pair of ranks"));
  for (int offset = 1; offset < world.size; ++offset) {
    int sent = world.rank;
    int received = -1;
    MPI_Sendrecv(&sent, 1, MPI_INT, (world.rank + offset) % world.size, offset, &received, 1, MPI_INT,
                 (world.rank - offset + world.size) % world.size, offset, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// Every rank's short host name, by rank (the names Slurm and the run use).
std::vector<std::string> RankHosts(const std::string& mine, int size) {
  constexpr int kNameBytes = 256;
  std::vector<char> name(kNameBytes, '\0');
  std::copy_n(mine.begin(), std::min<std::size_t>(mine.size(), kNameBytes - 1), name.begin());
  std::vector<char> all(static_cast<std::size_t>(kNameBytes) * static_cast<std::size_t>(size), '\0');
  MPI_Allgather(name.data(), kNameBytes, MPI_CHAR, all.data(), kNameBytes, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r) hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * kNameBytes);
  return hosts;
}

int SweepWorkerMain(const std::vector<std::string>& args) {
  // Open MPI's allocations are part of what is measured: with the program's jemalloc they
  // cost allgather a fifth of its bandwidth, so the worker measures with glibc's malloc, as
  // the applications it stands for (and IMB-MPI1) do (system_allocator.h).
  // The same argv[0] as this start, so the restarted process looks the same to ps and pgrep.
  std::vector<std::string> argv = {program_invocation_name, kSweepWorkerVerb};
  argv.insert(argv.end(), args.begin(), args.end());
  RestartWithSystemMalloc(argv);
  const SweepWorkerArgsResult parsed = ParseSweepWorkerArgs(args);
  if (!parsed.error.empty()) {
    std::cerr << kSweepWorkerVerb << ": " << parsed.error << std::endl;
    return 2;
  }
  const SweepWorkerOptions& options = parsed.options;
  SweepWorld world;
  world.host = LocalHostname();
  world.timeout = std::chrono::seconds(options.timeout_s);
  // A rank that stops progressing blocks the others inside MPI, where no timeout reaches
  // them: the deadline's thread says what stalled and ends this process, so the launcher
  // ends the step and the run quotes the line.
  // This node's limits as the step sees them, before MPI can die of one of them (step_deaths.h).
  std::cout << NodeLimitsLine(world.host, resource_limits::MeasureNodeLimits()) << std::flush;
  SetGiveUpHandler([](const std::string& problem) {
    std::cerr << problem << std::endl;
    std::_Exit(3);
  });
  {
    const CollectiveDeadline deadline(world.timeout, StallProblem(world, "MPI_Init"));
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      std::cerr << world.host << ": MPI_Init failed" << std::endl;
      return 3;
    }
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  {
    const CollectiveDeadline deadline(world.timeout, StallProblem(world, "the exchange of host names"));
    world.rank_hosts = RankHosts(world.host, world.size);
  }
  if (options.connect_every_pair) ConnectEveryPair(world);
  if (!options.collectives.empty()) {
    // The collectives beyond allreduce, measured on their own (mpi_collectives_probe.h).
    MeasureCollectiveTables(world, options.collectives, options.sizes_bytes, options.iterations);
    MPI_Finalize();
    return 0;
  }
  std::string table = Header(world);
  double band_spent_us = 0;  // the latency band's, agreed by every rank (sweep_world.h)
  for (long long size : options.sizes_bytes) {
    // A band past its budget leaves its remaining rows out, on every rank alike: the
    // check then names the sizes not measured, beside the slow one it did measure.
    if (size <= kLargestLatencyBytes && band_spent_us > kLatencyBandBudgetUs) continue;
    const SizeResult result = MeasureSize(world, size, options.iterations);
    if (size <= kLargestLatencyBytes) band_spent_us += result.spent_us;
    table += SweepTableRow(size, result.time_us, world.size, result.wrong);
    // Each row as soon as it is measured: a step that dies later still leaves these.
    if (world.rank == 0) {
      std::cout << table << std::flush;
      table.clear();
    }
  }
  const std::string pairs = MeasurePairs(world, options.pair_bytes);
  if (world.rank == 0) std::cout << table << pairs << std::flush;
  MPI_Finalize();
  return 0;
}

const ChildVerbRegistration kChildVerb(kSweepWorkerVerb, SweepWorkerMain);

std::vector<long long> NumberList(const std::string& text) {
  std::vector<long long> numbers;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    start = comma + 1;
    char* end = nullptr;
    const long long value = std::strtoll(word.c_str(), &end, 10);
    if (word.empty() || end == nullptr || *end != '\0' || value <= 0) return {};
    numbers.push_back(value);
  }
  return numbers;
}

}  // namespace

std::vector<std::string> SweepWorkerArgs(const SweepWorkerOptions& options) {
  std::vector<std::string> sizes;
  for (long long size : options.sizes_bytes) sizes.push_back(std::to_string(size));
  std::vector<std::string> args = {"--sizes", Join(sizes, ","), "--iters", std::to_string(options.iterations),
                                   "--timeout-s", std::to_string(options.timeout_s), "--pair-bytes",
                                   std::to_string(options.pair_bytes)};
  if (!options.collectives.empty()) {
    args.push_back("--collectives");
    args.push_back(Join(options.collectives, ","));
  }
  if (options.connect_every_pair) {
    args.push_back("--connect-every-pair");
    args.push_back("1");
  }
  return args;
}

SweepWorkerArgsResult ParseSweepWorkerArgs(const std::vector<std::string>& args) {
  SweepWorkerArgsResult result;
  auto number = [&](const std::string& name, const std::string& text, long long low) -> long long {
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < low) {
      result.error = name + " must be a whole number of at least " + std::to_string(low) + ", got '" + text + "'";
    }
    return value;
  };
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& name = args[i];
    if (i + 1 >= args.size()) {
      result.error = name + " needs a value";
      return result;
    }
    const std::string& value = args[i + 1];
    if (name == "--sizes") {
      result.options.sizes_bytes = NumberList(value);
      if (result.options.sizes_bytes.empty()) result.error = "--sizes must list positive byte counts, got '" + value + "'";
    } else if (name == "--iters") {
      result.options.iterations = static_cast<int>(number(name, value, 0));
    } else if (name == "--timeout-s") {
      result.options.timeout_s = static_cast<int>(number(name, value, 1));
    } else if (name == "--pair-bytes") {
      result.options.pair_bytes = number(name, value, 0);
    } else if (name == "--connect-every-pair") {
      result.options.connect_every_pair = number(name, value, 0) != 0;
    } else if (name == "--collectives") {
      result.options.collectives = SplitOn(value, ',');
      for (const auto& collective : result.options.collectives) {
        if (!allreduce_sweep::FindCollective(collective)) {
          result.error = "--collectives: unknown collective '" + collective + "'; known: " +
                         allreduce_sweep::CollectiveNames();
        }
      }
    } else {
      result.error = "unknown argument " + name;
    }
    if (!result.error.empty()) return result;
  }
  if (result.options.sizes_bytes.empty()) result.error = "--sizes is required";
  return result;
}

}  // namespace gpuconform::mpi_sweep
