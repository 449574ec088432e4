#include "harness/tcp_probe.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuconform {

namespace {

TcpProbeResult ConnectOne(const addrinfo& address, std::chrono::milliseconds timeout) {
  const int fd = socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, address.ai_protocol);
  if (fd < 0) return {false, std::strerror(errno)};
  TcpProbeResult result;
  if (connect(fd, address.ai_addr, address.ai_addrlen) == 0) {
    result.connected = true;
  } else if (errno != EINPROGRESS) {
    result.error = std::strerror(errno);
  } else {
    pollfd waiting{fd, POLLOUT, 0};
    const int ready = poll(&waiting, 1, static_cast<int>(timeout.count()));
    if (ready == 0) {
      result.error = "timed out after " + std::to_string(timeout.count()) + " ms";
    } else if (ready < 0) {
      result.error = std::strerror(errno);
    } else {
      int error = 0;
      socklen_t length = sizeof(error);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
      result.connected = error == 0;
      if (error != 0) result.error = std::strerror(error);
    }
  }
  close(fd);
  return result;
}

}  // namespace

TcpProbeResult TcpConnect(const std::string& host, int port, std::chrono::milliseconds timeout) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addresses = nullptr;
  const int status = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses);
  if (status != 0) return {false, std::string("cannot resolve ") + host + ": " + gai_strerror(status)};
  TcpProbeResult result{false, "no address"};
  for (const addrinfo* address = addresses; address != nullptr; address = address->ai_next) {
    result = ConnectOne(*address, timeout);
    if (result.connected) break;
  }
  freeaddrinfo(addresses);
  return result;
}

}  // namespace gpuconform
