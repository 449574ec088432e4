#include "probes/iproute/iproute_parse.h"

#include <algorithm>
#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::iproute {

namespace {

Error At(const std::string& origin, int line, const std::string& message) {
  return Error{origin + ":" + std::to_string(line) + ": " + message};
}

std::optional<int> ToInt(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "3: ens1@if192: <...>" or "3: ens1    inet ...": the index and the name, "@..." dropped.
struct Head {
  int index = 0;
  std::string name;
  std::string_view rest;
};

std::optional<Head> ParseHead(std::string_view line, bool name_ends_with_colon) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto index = ToInt(Trim(line.substr(0, colon)));
  if (!index) return std::nullopt;
  std::string_view rest = line.substr(colon + 1);
  const auto start = rest.find_first_not_of(" \t");
  if (start == std::string_view::npos) return std::nullopt;
  rest = rest.substr(start);
  const auto end = name_ends_with_colon ? rest.find(": ") : rest.find_first_of(" \t");
  if (end == std::string_view::npos || end == 0) return std::nullopt;
  std::string_view name = rest.substr(0, end);
  name = name.substr(0, name.find('@'));
  if (name.empty()) return std::nullopt;
  return Head{*index, std::string(name), rest.substr(end + 1)};
}

std::string WordAfter(const std::vector<std::string_view>& words, std::string_view key) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == key) return std::string(words[i + 1]);
  }
  return "";
}

Interface& Find(std::vector<Interface>& interfaces, const Head& head) {
  for (auto& interface : interfaces) {
    if (interface.name == head.name) return interface;
  }
  Interface interface;
  interface.index = head.index;
  interface.name = head.name;
  interfaces.push_back(std::move(interface));
  return interfaces.back();
}

}  // namespace

bool Interface::HasFlag(const std::string& flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

bool Interface::IsUp() const {
  if (!HasFlag("UP")) return false;
  return state == "UP" || (state == "UNKNOWN" && HasFlag("LOWER_UP"));
}

std::optional<Ipv4Address> ParseIpv4Cidr(const std::string& text) {
  const auto slash = text.find('/');
  const std::string address = text.substr(0, slash);
  int prefix = 32;
  if (slash != std::string::npos) {
    const auto parsed = ToInt(std::string_view(text).substr(slash + 1));
    if (!parsed || *parsed < 0 || *parsed > 32) return std::nullopt;
    prefix = *parsed;
  }
  std::uint32_t value = 0;
  int octets = 0;
  std::size_t start = 0;
  while (start <= address.size() && octets < 5) {
    auto end = address.find('.', start);
    if (end == std::string::npos) end = address.size();
    const auto octet = ToInt(std::string_view(address).substr(start, end - start));
    if (!octet || *octet < 0 || *octet > 255) return std::nullopt;
    value = (value << 8) | static_cast<std::uint32_t>(*octet);
    ++octets;
    start = end + 1;
  }
  if (octets != 4) return std::nullopt;
  return Ipv4Address{value, prefix, text};
}

std::uint32_t NetworkOf(const Ipv4Address& address) {
  const std::uint32_t mask = address.prefix_length == 0 ? 0 : ~std::uint32_t{0} << (32 - address.prefix_length);
  return address.address & mask;
}

std::string FormatNetwork(const Ipv4Address& address) {
  const std::uint32_t network = NetworkOf(address);
  return std::to_string(network >> 24) + "." + std::to_string((network >> 16) & 255) + "." +
         std::to_string((network >> 8) & 255) + "." + std::to_string(network & 255) + "/" +
         std::to_string(address.prefix_length);
}

Result<std::vector<Interface>> ParseIpLink(const std::string& text, const std::string& origin) {
  std::vector<Interface> interfaces;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view line = WithoutCarriageReturn(next->text);
    if (Trim(line).empty()) continue;
    const auto head = ParseHead(line, true);
    if (!head) return At(origin, next->number, "expected `ip -o link show` output ('N: name: <FLAGS> ...')");
    Interface& interface = Find(interfaces, *head);
    const auto open = head->rest.find('<');
    const auto close = head->rest.find('>');
    if (open != std::string_view::npos && close != std::string_view::npos && open < close) {
      std::string_view flags = head->rest.substr(open + 1, close - open - 1);
      std::size_t start = 0;
      while (start <= flags.size()) {
        auto end = flags.find(',', start);
        if (end == std::string_view::npos) end = flags.size();
        if (end > start) interface.flags.emplace_back(flags.substr(start, end - start));
        start = end + 1;
      }
    }
    const auto words = SplitWords(head->rest.substr(0, head->rest.find('\\')));
    interface.state = WordAfter(words, "state");
    interface.mtu = ToInt(WordAfter(words, "mtu"));
    if (const auto link = head->rest.find("link/"); link != std::string_view::npos) {
      const std::string_view type = head->rest.substr(link + 5);
      interface.link_type = std::string(type.substr(0, type.find_first_of(" \t\\")));
    }
  }
  if (interfaces.empty()) return At(origin, 1, "no interfaces in `ip -o link show` output");
  return interfaces;
}

Result<std::vector<Interface>> ParseIpAddr(const std::string& text, const std::string& origin) {
  std::vector<Interface> interfaces;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view line = WithoutCarriageReturn(next->text);
    if (Trim(line).empty()) continue;
    const auto head = ParseHead(line, false);
    if (!head) return At(origin, number, "expected `ip -o addr show` output ('N: name inet A.B.C.D/P ...')");
    Interface& interface = Find(interfaces, *head);
    const auto words = SplitWords(head->rest.substr(0, head->rest.find('\\')));
    if (words.size() < 2) continue;
    if (words[0] == "inet") {
      auto address = ParseIpv4Cidr(std::string(words[1]));
      if (!address) return At(origin, number, "'" + std::string(words[1]) + "' is not an IPv4 address/prefix");
      interface.ipv4.push_back(std::move(*address));
    } else if (words[0] == "inet6") {
      interface.ipv6.emplace_back(words[1]);
    }
  }
  if (interfaces.empty()) return At(origin, 1, "no interfaces in `ip -o addr show` output");
  return interfaces;
}

std::vector<Interface> MergeLinksAndAddresses(std::vector<Interface> links, const std::vector<Interface>& addresses) {
  for (const auto& with_addresses : addresses) {
    auto found = std::find_if(links.begin(), links.end(),
                              [&](const Interface& link) { return link.name == with_addresses.name; });
    if (found == links.end()) continue;  // an address of an interface `ip link` did not list: ignore
    found->ipv4 = with_addresses.ipv4;
    found->ipv6 = with_addresses.ipv6;
  }
  return links;
}

}  // namespace gpuconform::iproute
