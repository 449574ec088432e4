// World: the processes of one run — a single process, or every rank of a job started by
// `srun --mpi=pmix` or `mpirun`. Contract: the ranks talk to each other only through the
// launcher's PMIx server (pmix_channel.h says why: it does not depend on the fabric under
// test), so a plain `gpuconform run` needs no MPI runtime and a node with a broken fabric
// still reports. The run's processes never start MPI: the MPI sweep runs in its own step
// (probes/mpi_sweep), so Open MPI ending its world cannot end the run. Every method below but
// rank/size/Describe/AbortJob is a collective that all ranks must call in the same order (no
// early return before one). Every exchange has a deadline (a rank that stops answering, or a
// launcher whose PMIx loses a message, would otherwise hold the others forever); an exchange
// that fails or passes its deadline hands its problem to the give-up handler
// (collective_deadline.h), which writes what rank 0 can still report.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "harness/core/run_options.h"
#include "harness/util/result.h"

namespace gpuconform {

class PmixChannel;

// One exchange between the ranks. A rank waits in it for the slowest other rank, at most
// `deadline`; past it the run is given up with the problem
// "<host>: <what> did not complete on every rank within <deadline> s: <likely_cause>".
struct Exchange {
  std::string what;  // "the exchange of host names", "the Checkpoint stage 'write'"
  std::chrono::seconds deadline;
  std::string likely_cause =
      "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server); "
      "GPUCONFORM_COLLECTIVE_TIMEOUT_S sets the deadline";
  std::vector<std::string> rank_names = {};  // each rank's host, where known: names the ranks that did not answer
};

class World {
 public:
  // Names the launcher from what it set in the environment, connects to its PMIx server and
  // waits until every rank has connected (a collective: put a deadline around it).
  // Fails (exit-2 material) when started as several tasks that cannot talk to each
  // other, e.g. `srun --mpi=none -n3`, which would otherwise write three reports.
  static Result<World> Start(const LaunchFacts& launch);
  // Start in two steps, so that rank 0 can publish where it listens before the ranks meet:
  // Connect reaches this node's PMIx server only (it does not wait for the others); Form is
  // the collective that waits until every rank has connected (put a deadline around it).
  static Result<World> Connect(const LaunchFacts& launch);
  Result<bool> Form() const;
  // Not collectives (pmix_channel.h PublishOwn): rank 0 publishes its rendezvous; another rank
  // fetches it, also when the world never formed. A single process has nothing to publish.
  Result<bool> PublishRendezvous(const std::string& value) const;
  Result<std::string> RendezvousOfRoot(int timeout_s) const;
  // One process: for plain runs, and for the report rank 0 writes alone when the world
  // could not be formed.
  static World Single() { return World(nullptr, "single process"); }

  int rank() const;
  int size() const;
  bool is_root() const { return rank() == 0; }
  // "single process", "PMIx (srun), 3 ranks", ...
  std::string Describe() const;

  std::vector<std::string> AllGather(const std::string& mine, const Exchange& exchange) const;
  // Rank 0 receives every rank's value, by rank; the other ranks receive an empty vector.
  // Linear in the ranks: each rank sends its value to rank 0 over TCP (tcp_gather.h), unless
  // the launch asked for the launcher's collecting fence (GPUCONFORM_GATHER=pmix).
  std::vector<std::string> GatherToRoot(const std::string& mine, const Exchange& exchange) const;
  // Waits in the PMIx server without spinning: ranks that wait while others work must not
  // take cores from them on shared or oversubscribed nodes.
  void SleepingBarrier(const Exchange& exchange) const;

  // Ends every rank of the job with `status` (PMIx_Abort); a single process
  // just returns.
  void AbortJob(int status, const std::string& why) const;
  // Ends the run with a last barrier, so the job ends when every rank is done. Rank 0 has
  // written the report by then; a rank that never arrives (stopped, hung) must not hold the
  // job until its time limit, so past `deadline` rank 0 ends the job with `status` and the
  // other ranks exit with it.
  void Finish(int status, std::chrono::seconds deadline) const;

 private:
  World(std::shared_ptr<PmixChannel> channel, std::string launcher, bool gather_through_pmix = false)
      : channel_(std::move(channel)), launcher_(std::move(launcher)), gather_through_pmix_(gather_through_pmix) {}
  std::shared_ptr<PmixChannel> channel_;  // null in a single process
  std::string launcher_;
  bool gather_through_pmix_ = false;
};

}  // namespace gpuconform
