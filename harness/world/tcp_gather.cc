#include "harness/world/tcp_gather.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <sstream>
#include <thread>

#include "harness/core/live_source.h"
#include "harness/util/tcp_probe.h"
#include "harness/world/pmix_channel.h"

namespace gpuconform {

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kMagic[4] = {'G', 'C', 'G', '1'};
constexpr std::size_t kHeaderBytes = 4 + 8 + 4 + 8;
// Rank 0 keeps at most this many connections open at once; the others wait in the listen
// backlog (and TCP's own retries), so a fleet of 10,000 ranks never needs 10,000 descriptors.
constexpr std::size_t kMaxOpenConnections = 256;
// No part is larger: a peer that claims more is not this gather.
constexpr std::uint64_t kMaxPartBytes = std::uint64_t{1} << 34;

void PutBigEndian(std::string& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

std::uint64_t GetBigEndian(const std::string& in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<unsigned char>(in[at + i]);
  return value;
}

int MillisecondsLeft(Clock::time_point end) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000 * 1000));
}

// Raise the soft descriptor limit to the hard one: rank 0 of a large fleet holds many
// connections at once (never more than kMaxOpenConnections, but the default soft limit may
// be lower than that plus what the run already holds).
void RaiseDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// One connection rank 0 is reading: the header first, then the part.
struct Incoming {
  int fd = -1;
  std::string header;
  std::string part;
  std::uint64_t length = 0;
  int rank = -1;
};

std::string RankName(int rank, const std::vector<std::string>& rank_names) {
  std::string name = "rank " + std::to_string(rank);
  if (rank < static_cast<int>(rank_names.size()) && !rank_names[rank].empty()) name += " (" + rank_names[rank] + ")";
  return name;
}

// Reads what `in` has ready. Returns false when the connection is to be closed (done, or not
// this gather's), with `finished` set when a whole part arrived.
bool ReadReady(Incoming& in, int ranks, std::uint64_t nonce, std::vector<bool>& received, bool& finished) {
  char buffer[64 * 1024];
  for (;;) {
    std::size_t want = sizeof(buffer);
    if (in.header.size() < kHeaderBytes) want = kHeaderBytes - in.header.size();
    else want = static_cast<std::size_t>(std::min<std::uint64_t>(want, in.length - in.part.size()));
    if (want == 0) break;
    const ssize_t got = recv(in.fd, buffer, want, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // the peer went away before its part was whole
    if (in.header.size() < kHeaderBytes) {
      in.header.append(buffer, static_cast<std::size_t>(got));
      if (in.header.size() < kHeaderBytes) continue;
      const int rank = static_cast<int>(GetBigEndian(in.header, 12, 4));
      in.length = GetBigEndian(in.header, 16, 8);
      if (std::memcmp(in.header.data(), kMagic, 4) != 0 || GetBigEndian(in.header, 4, 8) != nonce || rank <= 0 ||
          rank >= ranks || received[rank] || in.length > kMaxPartBytes) {
        return false;  // a stray connection, or a second part for one rank: not ours
      }
      in.rank = rank;
      in.part.reserve(static_cast<std::size_t>(in.length));
    } else {
      in.part.append(buffer, static_cast<std::size_t>(got));
    }
  }
  finished = true;
  const char receipt = 'K';
  (void)send(in.fd, &receipt, 1, MSG_NOSIGNAL);
  return false;
}

bool SendAll(int fd, const char* data, std::size_t size, Clock::time_point end, std::string& error) {
  while (size > 0) {
    const ssize_t sent = send(fd, data, size, MSG_NOSIGNAL);
    if (sent > 0) {
      data += sent;
      size -= static_cast<std::size_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      error = std::strerror(errno);
      return false;
    }
    pollfd waiting{fd, POLLOUT, 0};
    if (poll(&waiting, 1, MillisecondsLeft(end)) <= 0) {
      error = "timed out while sending";
      return false;
    }
  }
  return true;
}

}  // namespace

std::string GatherRendezvous::Encode() const {
  return host + " " + std::to_string(port) + " " + std::to_string(nonce);
}

Result<GatherRendezvous> GatherRendezvous::Decode(const std::string& text) {
  std::istringstream in(text);
  GatherRendezvous rendezvous;
  if (!(in >> rendezvous.host >> rendezvous.port >> rendezvous.nonce) || rendezvous.port <= 0 ||
      rendezvous.port > 65535) {
    return Error{"rank 0 did not open the gather: " + (text.empty() ? std::string("(no address)") : text)};
  }
  return rendezvous;
}

Result<GatherListener> GatherListener::Open() {
  RaiseDescriptorLimit();
  // IPv6 with IPv4-mapped addresses takes both; a node without IPv6 falls back to IPv4.
  int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd >= 0) {
    const int off = 0;
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_any;
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
      close(fd);
      fd = -1;
    }
  }
  if (fd < 0) {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
      const std::string why = std::strerror(errno);
      if (fd >= 0) close(fd);
      return Error{"rank 0 could not open a TCP port for the gather: " + why};
    }
  }
  if (listen(fd, SOMAXCONN) != 0) {
    const std::string why = std::strerror(errno);
    close(fd);
    return Error{"rank 0 could not listen for the gather: " + why};
  }
  sockaddr_storage bound{};
  socklen_t length = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
  const int port = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                               : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return GatherListener(fd, port);
}

GatherListener::GatherListener(GatherListener&& other) noexcept : fd_(other.fd_), port_(other.port_) { other.fd_ = -1; }

GatherListener::~GatherListener() {
  if (fd_ >= 0) close(fd_);
}

Result<std::vector<std::string>> GatherListener::Receive(int ranks, std::uint64_t nonce, std::string mine,
                                                         std::chrono::milliseconds deadline,
                                                         const std::vector<std::string>& rank_names) const {
  Arrived arrived = ReceiveWhatArrives(ranks, nonce, std::move(mine), deadline);
  int missing = 0;
  for (const bool got : arrived.received) missing += got ? 0 : 1;
  if (missing == 0) return std::move(arrived.parts);
  std::vector<std::string> absent;
  for (int r = 1; r < ranks; ++r) {
    if (!arrived.received[r]) absent.push_back(RankName(r, rank_names));
  }
  std::string names;
  for (std::size_t i = 0; i < absent.size() && i < 20; ++i) names += (i ? ", " : "") + absent[i];
  if (absent.size() > 20) names += " and " + std::to_string(absent.size() - 20) + " more";
  return Error{"rank 0 received the parts of " + std::to_string(ranks - missing) + " of " + std::to_string(ranks) +
               " ranks within " + std::to_string(deadline.count() / 1000) + " s; none from " + names +
               " (a rank stopped, or its node cannot open a TCP connection to rank 0's node on the management "
               "network; GPUCONFORM_GATHER=pmix gathers through the launcher instead)"};
}

GatherListener::Arrived GatherListener::ReceiveWhatArrives(int ranks, std::uint64_t nonce, std::string mine,
                                                           std::chrono::milliseconds deadline) const {
  const Clock::time_point end = Clock::now() + deadline;
  std::vector<std::string> parts(static_cast<std::size_t>(ranks));
  std::vector<bool> received(static_cast<std::size_t>(ranks), false);
  parts[0] = std::move(mine);
  received[0] = true;
  int missing = ranks - 1;
  std::vector<Incoming> open;
  while (missing > 0) {
    std::vector<pollfd> waiting;
    const bool accepting = open.size() < kMaxOpenConnections;
    if (accepting) waiting.push_back({fd_, POLLIN, 0});
    for (const auto& in : open) waiting.push_back({in.fd, POLLIN, 0});
    const int left = MillisecondsLeft(end);
    if (left == 0) break;
    if (poll(waiting.data(), waiting.size(), left) < 0 && errno != EINTR) break;
    std::size_t first_connection = 0;
    if (accepting) {
      first_connection = 1;
      if (waiting[0].revents & POLLIN) {
        while (open.size() < kMaxOpenConnections) {
          const int fd = accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
          if (fd < 0) break;
          open.push_back({fd, {}, {}, 0, -1});
        }
      }
    }
    std::vector<Incoming> still_open;
    for (std::size_t i = 0; i < open.size(); ++i) {
      Incoming& in = open[i];
      const std::size_t slot = first_connection + i;
      const bool ready = slot < waiting.size() && waiting[slot].revents != 0;
      bool finished = false;
      if (!ready || ReadReady(in, ranks, nonce, received, finished)) {
        still_open.push_back(std::move(in));
        continue;
      }
      close(in.fd);
      if (finished && !received[in.rank]) {  // two connections claiming one rank: the first stands
        received[in.rank] = true;
        parts[in.rank] = std::move(in.part);
        --missing;
      }
    }
    open = std::move(still_open);
  }
  for (const auto& in : open) close(in.fd);
  return {std::move(parts), std::move(received)};
}

Result<bool> SendPartToRoot(const GatherRendezvous& root, int rank, const std::string& part,
                            std::chrono::milliseconds deadline) {
  const Clock::time_point end = Clock::now() + deadline;
  const std::string where = "rank 0 (" + root.host + " port " + std::to_string(root.port) + ")";
  std::string error;
  int fd = -1;
  // Rank 0 listens before it publishes the port, so a refusal is rare (a listen backlog full
  // at a large fleet's first instant): try again until the deadline.
  for (int attempt = 0; fd < 0; ++attempt) {
    const int left = MillisecondsLeft(end);
    if (left == 0) break;
    fd = TcpOpenConnection(root.host, root.port, std::chrono::milliseconds(std::min(left, 10000)), error);
    if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100 * (attempt + 1), 1000)));
  }
  if (fd < 0) return Error{LocalHostname() + ": could not connect to " + where + " to send its raw outputs: " + error};
  std::string header(kMagic, sizeof(kMagic));
  PutBigEndian(header, root.nonce, 8);
  PutBigEndian(header, static_cast<std::uint64_t>(rank), 4);
  PutBigEndian(header, part.size(), 8);
  bool sent = SendAll(fd, header.data(), header.size(), end, error) && SendAll(fd, part.data(), part.size(), end, error);
  char receipt = 0;
  if (sent) {
    pollfd waiting{fd, POLLIN, 0};
    sent = poll(&waiting, 1, MillisecondsLeft(end)) > 0 && recv(fd, &receipt, 1, 0) == 1 && receipt == 'K';
    if (!sent) error = "rank 0 did not confirm it within the deadline";
  }
  close(fd);
  if (!sent) return Error{LocalHostname() + ": sending its raw outputs to " + where + " failed: " + error};
  return true;
}

Result<std::vector<std::string>> TcpGatherToRoot(PmixChannel& channel, const std::string& mine,
                                                 std::chrono::milliseconds deadline,
                                                 const std::vector<std::string>& rank_names) {
  if (channel.rank() != 0) {
    auto value = channel.BroadcastFromRoot("");
    if (!value) return Error{value.error()};
    auto root = GatherRendezvous::Decode(*value);
    if (!root) return Error{root.error()};
    auto sent = SendPartToRoot(*root, channel.rank(), mine, deadline);
    if (!sent) return Error{sent.error()};
    return std::vector<std::string>{};
  }
  // Rank 0 listens before it says where, and says so even when it could not listen, so the
  // other ranks never wait for an address that will not come.
  auto listener = GatherListener::Open();
  GatherRendezvous rendezvous{LocalHostname(), listener ? listener->port() : 0, std::random_device{}()};
  rendezvous.nonce = (rendezvous.nonce << 32) ^ std::random_device{}();
  auto told = channel.BroadcastFromRoot(listener ? rendezvous.Encode() : listener.error());
  if (!told) return Error{told.error()};
  if (!listener) return Error{listener.error()};
  return listener->Receive(channel.size(), rendezvous.nonce, mine, deadline, rank_names);
}

}  // namespace gpuconform
