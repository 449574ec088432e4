// Fuzzes `ip -o link show` and `ip -o addr show` (probes/iproute/iproute_parse.h: ParseIpLink,
// ParseIpAddr) on the same bytes, then merges the two as the Interfaces suite does.
#include "fuzz/fuzz_support.h"
#include "probes/iproute/iproute_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  auto links = iproute::ParseIpLink(text, fuzz::kOrigin);
  auto addresses = iproute::ParseIpAddr(text, fuzz::kOrigin);
  if (links && addresses) {
    for (const auto& interface : iproute::MergeLinksAndAddresses(*links, *addresses)) {
      fuzz::Keep(interface.IsUp());
      for (const auto& address : interface.ipv4) fuzz::Keep(iproute::FormatNetwork(address));
    }
  }
  fuzz::Keep(iproute::ParseIpv4Cidr(text));
  return 0;
}
