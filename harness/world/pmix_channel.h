// PmixChannel: the harness's own control traffic — forming the world, exchanging probe
// records, barriers, gathering raw outputs to rank 0 — through the launcher's PMIx server
// (slurmstepd under `srun --mpi=pmix`, orted under mpirun).
// Why PMIx and not MPI: PMIx data travels between the launcher's daemons over the network
// Slurm (or mpirun's daemons) already use to control the nodes, never over the fabric under
// test. A node whose fabric is down, or whose fabric MTU is wrong, still reports; with MPI
// pinned to the fabric, Open MPI ends the whole step at the first unreachable peer and no
// report is written. The fabric is measured by the probes that mean to (reachability,
// allreduce), and their failures become findings.
// Contract: Connect once per process. Every method but rank/size/Abort is a collective that
// all ranks call in the same order; a failure is returned, never thrown, naming the step.
// Values of any size are sent in chunks of kChunkBytes (one PMIx value must fit the server's
// message segments).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

class PmixChannel {
 public:
  static constexpr std::size_t kChunkBytes = 256 * 1024;

  // PMIx_Init against the server the launcher named in the environment.
  static Result<std::shared_ptr<PmixChannel>> Connect();
  ~PmixChannel();
  PmixChannel(const PmixChannel&) = delete;
  PmixChannel& operator=(const PmixChannel&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Every rank receives every rank's value, by rank.
  Result<std::vector<std::string>> AllGather(const std::string& mine);
  // Rank 0 receives every rank's value, by rank; the others receive an empty vector. The
  // collecting fence brings every part to every node's PMIx server (N^2 parts across the
  // network in all): kept for GPUCONFORM_GATHER=pmix, where nodes cannot open TCP connections
  // to rank 0's node; the run's gather goes through tcp_gather.h.
  Result<std::vector<std::string>> GatherToRoot(const std::string& mine);
  // Every rank receives rank 0's `value` (the others' argument is ignored). Only rank 0 puts a
  // value, so the collecting fence carries one small value, not one per rank.
  Result<std::string> BroadcastFromRoot(const std::string& value);
  // Returns when every rank has called it. It waits in the PMIx server, without spinning.
  Result<bool> Barrier();
  // Not collectives: rank 0 publishes `value` under `key` (put and commit, no fence), and any
  // other rank fetches it from rank 0's server (the launcher's direct modex), waiting at most
  // `timeout`. For the one exchange that must work when a rank never joins: where rank 0's
  // inbox is (gather.h GatherProgress), fetched once forming the world has failed.
  Result<bool> PublishOwn(const std::string& key, const std::string& value);
  Result<std::string> FetchFromRoot(const std::string& key, int timeout_s);
  // Ends every rank of the job (the launcher kills them), reporting `status`.
  void Abort(int status, const std::string& message);

 private:
  PmixChannel(std::string nspace, int rank, int size) : nspace_(std::move(nspace)), rank_(rank), size_(size) {}
  // A fresh key prefix: the same on every rank, as collectives are called in the same order.
  std::string NextPrefix();
  // Puts `mine` under `prefix` and commits it.
  Result<bool> Publish(const std::string& prefix, const std::string& mine);
  Result<bool> Fence(const std::string& what);
  Result<std::string> Fetch(int rank, const std::string& prefix);

  std::string nspace_;
  int rank_ = 0;
  int size_ = 1;
  int sequence_ = 0;  // the same on every rank: collectives are called in the same order
};

}  // namespace gpuconform
