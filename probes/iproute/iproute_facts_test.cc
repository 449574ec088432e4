// The interfaces reader: `ip -o link` and `ip -o addr` merged, parsed once per run; where they
// could not be read, the probe's own status or unparseable.
#include "probes/iproute/iproute_facts.h"

#include <gtest/gtest.h>

#include "probes/iproute/iproute_probes.h"

namespace gpuconform::iproute {
namespace {

const std::string kLink =
    "3: ens1@if192: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen "
    "1000\\    link/ether a2:7e:db:20:9e:a1 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n";
const std::string kAddr = "3: ens1    inet 10.20.0.1/24 scope global ens1\\       valid_lft forever preferred_lft forever\n";

TEST(IprouteFacts, MergesLinksAndAddressesOnce) {
  ClusterRaw raw;
  raw.nodes = {"n1"};
  raw.node["n1"][IpLinkProbe().id] = {ProbeStatus::kOk, kLink, "n1/ip-link.txt", ""};
  raw.node["n1"][IpAddrProbe().id] = {ProbeStatus::kOk, kAddr, "n1/ip-addr.txt", ""};
  const auto first = ReadInterfaces(raw, "n1");
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ(first->size(), 1u);
  EXPECT_EQ((*first)[0].mtu, 1500);
  EXPECT_EQ((*first)[0].ipv4[0].text, "10.20.0.1/24");
  raw.node["n1"][IpAddrProbe().id].text = "garbage\n";
  const auto again = ReadInterfaces(raw, "n1");
  ASSERT_TRUE(again) << "parsed a second time: " << again.error();
  EXPECT_EQ((*again)[0].ipv4.size(), 1u);
}

TEST(IprouteFacts, UnreadInterfacesSayWhyWithTheProbesStatusOrUnparseable) {
  ClusterRaw raw;
  raw.nodes = {"n1", "n2"};
  raw.node["n1"][IpLinkProbe().id] = {ProbeStatus::kTimedOut, "", "", "n1: `ip -o link show` timed out"};
  raw.node["n2"][IpLinkProbe().id] = {ProbeStatus::kOk, "Illegal instruction\n", "n2/ip-link.txt", ""};
  raw.node["n2"][IpAddrProbe().id] = {ProbeStatus::kOk, kAddr, "n2/ip-addr.txt", ""};
  const auto hung = ReadInterfaces(raw, "n1");
  ASSERT_FALSE(hung);
  EXPECT_EQ(hung.error(), "n1: `ip -o link show` timed out");
  EXPECT_EQ(InterfacesUnreadCode(raw, "n1"), ProbeStatusReason(ProbeStatus::kTimedOut));
  const auto garbled = ReadInterfaces(raw, "n2");
  ASSERT_FALSE(garbled);
  EXPECT_EQ(garbled.error().rfind("n2/ip-link.txt:1: ", 0), 0u) << garbled.error();
  EXPECT_EQ(InterfacesUnreadCode(raw, "n2"), "unparseable");
}

}  // namespace
}  // namespace gpuconform::iproute
