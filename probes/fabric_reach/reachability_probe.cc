#include "probes/fabric_reach/reachability_probe.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "harness/util/record_lines.h"
#include "harness/util/tcp_probe.h"

namespace gpuconform::fabric_reach {

namespace {

// The exchanges here have a fixed deadline (60 s), not the collective timeout.
constexpr const char* kRankStopped =
    "a rank stopped answering (its node, its slurmstepd, or the launcher's PMIx server)";

constexpr auto kConnectTimeout = std::chrono::milliseconds(3000);

std::string Ipv4Of(const std::string& ifname) {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET || ifname != entry->ifa_name) continue;
    char text[INET_ADDRSTRLEN];
    const auto* address = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
    if (::inet_ntop(AF_INET, &address->sin_addr, text, sizeof(text)) != nullptr) found = text;
    break;
  }
  ::freeifaddrs(list);
  return found;
}

// A listener on the fabric address that accepts and drops connections until stopped.
class Listener {
 public:
  explicit Listener(const std::string& address) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in bind_to{};
    bind_to.sin_family = AF_INET;
    bind_to.sin_port = 0;
    if (fd_ < 0 || ::inet_pton(AF_INET, address.c_str(), &bind_to.sin_addr) != 1 ||
        ::bind(fd_, reinterpret_cast<sockaddr*>(&bind_to), sizeof(bind_to)) != 0 || ::listen(fd_, 64) != 0) {
      problem_ = "cannot listen on " + address + ": " + std::strerror(errno);
      return;
    }
    socklen_t length = sizeof(bind_to);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bind_to), &length);
    port_ = ntohs(bind_to.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd waiting{fd_, POLLIN, 0};
        if (::poll(&waiting, 1, 100) > 0) {
          const int client = ::accept(fd_, nullptr, nullptr);
          if (client >= 0) ::close(client);
        }
      }
    });
  }
  ~Listener() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  int port() const { return port_; }
  const std::string& problem() const { return problem_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::string problem_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

FabricMesh MeasureFabricMesh(const CollectiveContext& context) {
  FabricMesh mesh;
  RawOutput& result = mesh.output;
  result = {ProbeStatus::kOk, "", context.host + ": fabric reachability", ""};
  const std::string ifname =
      context.profile != nullptr && context.profile->nccl ? context.profile->nccl->socket_ifname : "";
  mesh.ifname = ifname;
  std::vector<std::pair<std::string, std::string>> header = {{"version", "1"}, {"node", context.host}};
  if (ifname.empty()) {  // the same on every rank, so no rank skips a collective the others make
    header.emplace_back("skipped", "the profile names no fabric interface (nccl.socket_ifname)");
    result.text = FormatRecord("fabric-reach", header) + "\n";
    return mesh;
  }
  const std::string address = context.node_owner ? Ipv4Of(ifname) : "";
  std::optional<Listener> listener;
  if (!address.empty()) listener.emplace(address);
  const bool listening = listener && listener->problem().empty();
  const auto everyone =
      context.world.AllGather(listening ? context.host + " " + address + " " + std::to_string(listener->port()) : "",
                              {"the exchange of fabric addresses", std::chrono::seconds(60), kRankStopped});
  header.emplace_back("ifname", ifname);
  header.emplace_back("addr", address.empty() ? "none" : address);
  if (listening) header.emplace_back("port", std::to_string(listener->port()));
  if (context.node_owner && address.empty()) {
    mesh.untestable = ifname + " has no IPv4 address on " + context.host;
    header.emplace_back("problem", mesh.untestable);
  } else if (listener && !listener->problem().empty()) {
    mesh.untestable = context.host + ": " + listener->problem();
    header.emplace_back("problem", listener->problem());
  }
  result.text = FormatRecord("fabric-reach", header) + "\n";
  if (listening) {
    for (const auto& entry : everyone) {
      std::istringstream words(entry);
      std::string host, to_address;
      int port = 0;
      if (!(words >> host >> to_address >> port) || host == context.host) continue;
      const auto start = std::chrono::steady_clock::now();
      const TcpProbeResult connected = TcpConnect(to_address, port, kConnectTimeout);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      char elapsed[32];
      std::snprintf(elapsed, sizeof(elapsed), "%.1f", ms);
      std::vector<std::pair<std::string, std::string>> fields = {
          {"to", host}, {"addr", to_address + ":" + std::to_string(port)},
          {"result", connected.connected ? "ok" : "failed"}, {"ms", elapsed}};
      if (!connected.connected) {
        fields.emplace_back("error", connected.error);
        mesh.failures.push_back({host, to_address + ":" + std::to_string(port), connected.error});
      }
      result.text += FormatRecord("reach", fields) + "\n";
    }
  }
  // Listeners stay up until every node has tried every other.
  context.world.SleepingBarrier({"the fabric reachability exchange", std::chrono::seconds(60), kRankStopped});
  return mesh;
}

const FabricMesh& SharedFabricMesh(const CollectiveContext& context) {
  static const FabricMesh mesh = MeasureFabricMesh(context);
  return mesh;
}

RawOutput ProbeFabricReach(const CollectiveContext& context) { return SharedFabricMesh(context).output; }

ProbeSpec FabricReachProbe() { return Active(CollectiveProbe("fabric-reach", "fabric-reach.txt", ProbeFabricReach)); }

}  // namespace gpuconform::fabric_reach
