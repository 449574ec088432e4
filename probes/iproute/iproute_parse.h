// Parsers for `ip -o link show` and `ip -o addr show` (iproute2, one record per line).
// Pure: text in, interfaces out, or an error naming the origin and line. Veth peers'
// "@ifN" suffixes are dropped, so "ens1@if192" is ens1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::iproute {

struct Ipv4Address {
  std::uint32_t address = 0;  // host byte order
  int prefix_length = 32;
  std::string text;  // "10.20.0.1/24" as printed
};

struct Interface {
  int index = 0;
  std::string name;
  std::vector<std::string> flags;  // BROADCAST, MULTICAST, UP, LOWER_UP, ...
  std::string state;               // operstate: UP, DOWN, UNKNOWN, LOWERLAYERDOWN, ...
  std::optional<int> mtu;
  std::string link_type;  // "ether", "infiniband" (IPoIB), "loopback", ... from `link/<type>`
  std::vector<Ipv4Address> ipv4;
  std::vector<std::string> ipv6;  // "fe80::1/64", as printed

  bool HasFlag(const std::string& flag) const;
  // Administratively up and carrying traffic: UP flag, and state UP (or UNKNOWN with
  // LOWER_UP, as virtual interfaces report).
  bool IsUp() const;
};

// `ip -o link show`: every interface, no addresses.
Result<std::vector<Interface>> ParseIpLink(const std::string& text, const std::string& origin);
// `ip -o addr show`: interfaces with their addresses (flags and state are not in it).
Result<std::vector<Interface>> ParseIpAddr(const std::string& text, const std::string& origin);
// Link facts with the addresses of the same names added.
std::vector<Interface> MergeLinksAndAddresses(std::vector<Interface> links, const std::vector<Interface>& addresses);

std::optional<Ipv4Address> ParseIpv4Cidr(const std::string& text);  // "10.20.0.1/24"
std::uint32_t NetworkOf(const Ipv4Address& address);
std::string FormatNetwork(const Ipv4Address& address);  // "10.20.0.0/24"

}  // namespace gpuconform::iproute
