#include "harness/world/world.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "harness/core/live_source.h"
#include "harness/world/collective_deadline.h"
#include "harness/world/pmix_channel.h"
#include "harness/world/tcp_gather.h"

namespace gpuconform {

namespace {

template <typename T>
T OrGiveUp(Result<T> result) {
  if (!result) GiveUpNow(result.error());
  return std::move(*result);
}

std::string Overdue(const Exchange& exchange) {
  return LocalHostname() + ": " + exchange.what + " did not complete on every rank within " +
         std::to_string(exchange.deadline.count()) + " s: " + exchange.likely_cause;
}

}  // namespace

Result<World> World::Start(const LaunchFacts& launch) {
  auto world = Connect(launch);
  if (!world) return world;
  if (auto formed = world->Form(); !formed) return Error{formed.error()};
  return world;
}

Result<bool> World::Form() const {
  if (!channel_) return true;
  // The world is formed when every rank has answered once: PMIx_Init only reaches the local
  // server, and a node whose slurmd died is found here, under the caller's start deadline.
  if (auto formed = channel_->Barrier(); !formed) return Error{"under " + launcher_ + ": " + formed.error()};
  return true;
}

namespace {
constexpr char kRendezvousKey[] = "gpuconform.rendezvous";
}  // namespace

Result<bool> World::PublishRendezvous(const std::string& value) const {
  if (!channel_) return true;
  return channel_->PublishOwn(kRendezvousKey, value);
}

Result<std::string> World::RendezvousOfRoot(int timeout_s) const {
  if (!channel_) return Error{"a single process has no rank 0 to ask"};
  return channel_->FetchFromRoot(kRendezvousKey, timeout_s);
}

Result<World> World::Connect(const LaunchFacts& launch) {
  std::string launcher;
  if (launch.mpirun) {
    launcher = "mpirun";
  } else if (launch.pmix) {
    launcher = launch.slurm_step ? "srun" : "launcher";
  }
  if (launcher.empty()) {
    if (launch.pmi || launch.slurm_step_num_tasks > 1) {
      return Error{"started as " + std::to_string(launch.slurm_step_num_tasks) +
                   " tasks without PMIx, so the tasks cannot gather their results; launch with "
                   "`srun --mpi=pmix` (or set MpiDefault=pmix in slurm.conf), or with Open MPI's mpirun"};
    }
    return Single();
  }
  auto channel = PmixChannel::Connect();
  if (!channel) return Error{"under " + launcher + ": " + channel.error()};
  if ((*channel)->size() == 1) return World(nullptr, "single process (" + launcher + ")");
  return World(std::move(*channel), launcher, launch.gather_through_pmix);
}

int World::rank() const { return channel_ ? channel_->rank() : 0; }

int World::size() const { return channel_ ? channel_->size() : 1; }

std::string World::Describe() const {
  if (!channel_) return launcher_;
  return "PMIx (" + launcher_ + "), " + std::to_string(size()) + " ranks";
}

std::vector<std::string> World::AllGather(const std::string& mine, const Exchange& exchange) const {
  if (!channel_) return {mine};
  const CollectiveDeadline deadline(exchange.deadline, Overdue(exchange));
  return OrGiveUp(channel_->AllGather(mine));
}

std::vector<std::string> World::GatherToRoot(const std::string& mine, const Exchange& exchange) const {
  if (!channel_) return {mine};
  const CollectiveDeadline deadline(exchange.deadline, Overdue(exchange));
  if (gather_through_pmix_) return OrGiveUp(channel_->GatherToRoot(mine));
  // The gather's own deadline comes first, so that its problem names the ranks that did not
  // send; the guard above stays as the backstop.
  const auto own = std::max(std::chrono::milliseconds(1000),
                            std::chrono::duration_cast<std::chrono::milliseconds>(exchange.deadline) -
                                std::chrono::milliseconds(2000));
  return OrGiveUp(TcpGatherToRoot(*channel_, mine, own, exchange.rank_names));
}

void World::SleepingBarrier(const Exchange& exchange) const {
  if (!channel_) return;
  const CollectiveDeadline deadline(exchange.deadline, Overdue(exchange));
  OrGiveUp(channel_->Barrier());
}

void World::AbortJob(int status, const std::string& why) const {
  if (channel_) channel_->Abort(status, why);
}

void World::Finish(int status, std::chrono::seconds deadline) const {
  if (!channel_) return;
  StartWatchdog watchdog(deadline, [this, status, deadline] {
    const std::string problem = LocalHostname() + ": a rank did not reach the end of the run within " +
                                std::to_string(deadline.count()) +
                                " s (a stopped or hung process); the report is complete, ending the job";
    std::cerr << "gpuconform: " << problem << std::endl;
    if (is_root()) AbortJob(status, problem);
    std::_Exit(status);
  });
  (void)channel_->Barrier();  // a refused barrier: nothing left to wait for
  watchdog.Cancel();
}

}  // namespace gpuconform
