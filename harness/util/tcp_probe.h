// TcpConnect: can this node open a TCP connection to host:port within a deadline?
// Contract: never blocks past the timeout (non-blocking connect + poll); never throws;
// the error text is the system's ("Connection refused", "No route to host", "timed out").
#pragma once

#include <chrono>
#include <string>

namespace gpuconform {

struct TcpProbeResult {
  bool connected = false;
  std::string error;
};

TcpProbeResult TcpConnect(const std::string& host, int port, std::chrono::milliseconds timeout);

// The same, keeping the connection: a connected non-blocking socket the caller closes, or -1
// with the system's words in `error`. Each of the host's addresses is tried in turn.
int TcpOpenConnection(const std::string& host, int port, std::chrono::milliseconds timeout, std::string& error);

}  // namespace gpuconform
