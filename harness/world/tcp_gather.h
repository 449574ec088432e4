// TcpGather: the gather of every rank's raw outputs to rank 0, linear in the number of ranks.
// Rank 0 listens on an ephemeral TCP port; its host name, the port and a nonce for this gather
// travel through PMIx as one small broadcast value (pmix_channel.h), and every other rank opens
// one connection to rank 0 and sends its part. Rank 0 receives N parts; no other rank receives
// more than a one-byte receipt. Why not the launcher's collecting fence: it brings every part to
// every node's PMIx server, N^2 parts across the control network in all (5.6 TB at 10,000 H100
// nodes). Why TCP to the host name: it is the name Slurm and the operators use, so it resolves
// to the management network, never the fabric under test.
// Contract: every wait has a deadline; a sender that cannot reach rank 0, and a rank 0 that did
// not hear from every rank in time, return an error naming the host, port and ranks. Rank 0
// drops connections that do not speak this gather's protocol and nonce, without failing.
// Wire format of one part: "GCG1", nonce (8 bytes), rank (4), length (8), all big-endian, then
// the part's bytes; rank 0 answers one byte once it holds the whole part.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

class PmixChannel;

// Where the other ranks send their parts, as it travels in the broadcast value.
struct GatherRendezvous {
  std::string host;
  int port = 0;
  std::uint64_t nonce = 0;

  std::string Encode() const;  // "host port nonce"
  static Result<GatherRendezvous> Decode(const std::string& text);
};

// Rank 0's side: a listening socket on every local address (IPv6 and IPv4).
class GatherListener {
 public:
  static Result<GatherListener> Open();
  GatherListener(GatherListener&& other) noexcept;
  GatherListener& operator=(GatherListener&&) = delete;
  GatherListener(const GatherListener&) = delete;
  ~GatherListener();

  int port() const { return port_; }
  // The parts that arrive within `deadline` (rank 0's own `mine` among them), by rank; a rank
  // whose part did not arrive has `received` false. For a run that ends early (termination.h),
  // which judges what it has.
  struct Arrived {
    std::vector<std::string> parts;
    std::vector<bool> received;
  };
  Arrived ReceiveWhatArrives(int ranks, std::uint64_t nonce, std::string mine,
                             std::chrono::milliseconds deadline) const;
  // Every rank's part but rank 0's own (`mine`), by rank, within `deadline`. `rank_names` (may
  // be empty) names the ranks in the error: "rank 2 (node3)".
  Result<std::vector<std::string>> Receive(int ranks, std::uint64_t nonce, std::string mine,
                                           std::chrono::milliseconds deadline,
                                           const std::vector<std::string>& rank_names) const;

 private:
  GatherListener(int fd, int port) : fd_(fd), port_(port) {}
  int fd_ = -1;
  int port_ = 0;
};

// A rank but 0: sends `part` to rank 0 and waits for its receipt, within `deadline`.
Result<bool> SendPartToRoot(const GatherRendezvous& root, int rank, const std::string& part,
                            std::chrono::milliseconds deadline);

// The whole collective over an established PMIx world: every rank calls it. Rank 0 receives
// every rank's part, by rank; the others receive an empty vector.
Result<std::vector<std::string>> TcpGatherToRoot(PmixChannel& channel, const std::string& mine,
                                                 std::chrono::milliseconds deadline,
                                                 const std::vector<std::string>& rank_names);

}  // namespace gpuconform
