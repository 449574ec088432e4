#include "harness/util/tcp_probe.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuconform {

namespace {

// A connected socket, or -1 with the reason in `result.error`.
int ConnectOne(const addrinfo& address, std::chrono::milliseconds timeout, TcpProbeResult& result) {
  const int fd = socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, address.ai_protocol);
  if (fd < 0) {
    result = {false, std::strerror(errno)};
    return -1;
  }
  result = {};
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
  if (result.connected) return fd;
  close(fd);
  return -1;
}

}  // namespace

int TcpOpenConnection(const std::string& host, int port, std::chrono::milliseconds timeout, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* addresses = nullptr;
  const int status = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses);
  if (status != 0) {
    error = std::string("cannot resolve ") + host + ": " + gai_strerror(status);
    return -1;
  }
  TcpProbeResult result{false, "no address"};
  int fd = -1;
  for (const addrinfo* address = addresses; address != nullptr && fd < 0; address = address->ai_next) {
    fd = ConnectOne(*address, timeout, result);
  }
  freeaddrinfo(addresses);
  error = result.error;
  return fd;
}

TcpProbeResult TcpConnect(const std::string& host, int port, std::chrono::milliseconds timeout) {
  std::string error;
  const int fd = TcpOpenConnection(host, port, timeout, error);
  if (fd < 0) return {false, error};
  close(fd);
  return {true, ""};
}

}  // namespace gpuconform
