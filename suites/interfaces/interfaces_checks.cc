#include "suites/interfaces/interfaces_checks.h"

#include <algorithm>
#include <map>
#include <optional>

#include "harness/util/text_util.h"

namespace gpuconform::interfaces {

std::optional<std::string> FabricSkipReason(const Profile& profile) {
  if (!profile.nccl || profile.nccl->socket_ifname.empty()) {
    return "profile " + profile.name + " names no fabric socket interface (nccl.socket_ifname)";
  }
  return std::nullopt;
}

std::optional<std::string> ForbiddenSkipReason(const Profile& profile) {
  if (!profile.nccl || profile.nccl->forbidden_ifnames.empty()) {
    return "profile " + profile.name + " forbids no interface (nccl.forbidden_ifnames)";
  }
  return std::nullopt;
}

namespace {

const Interface* Named(const std::vector<Interface>& interfaces, const std::string& name) {
  for (const auto& interface : interfaces) {
    if (interface.name == name) return &interface;
  }
  return nullptr;
}

std::vector<std::string> Names(const std::vector<Interface>& interfaces) {
  std::vector<std::string> names;
  for (const auto& interface : interfaces) names.push_back(interface.name);
  return names;
}

std::string Addresses(const Interface& interface) {
  std::vector<std::string> texts;
  for (const auto& address : interface.ipv4) texts.push_back(address.text);
  return texts.empty() ? "no IPv4 address" : Join(texts, ", ");
}

// Why each unread node's interfaces could not be read, in node order.
std::vector<std::string> Problems(const NodeFacts<std::vector<Interface>>& nodes) {
  std::vector<std::string> problems;
  for (const auto& [node, why] : nodes.unread) problems.push_back(why);
  return problems;
}

bool SameSubnet(const Ipv4Address& a, const Ipv4Address& b) {
  const int prefix = std::min(a.prefix_length, b.prefix_length);
  const Ipv4Address widened_a{a.address, prefix, ""};
  const Ipv4Address widened_b{b.address, prefix, ""};
  return NetworkOf(widened_a) == NetworkOf(widened_b);
}

}  // namespace

CheckResult CheckFabricInterfaceUp(const std::string& node, const std::vector<Interface>& interfaces,
                                   const Profile& profile) {
  const std::string& fabric = profile.nccl->socket_ifname;
  const std::string note = " (profile " + profile.name + " nccl.socket_ifname)";
  const Interface* interface = Named(interfaces, fabric);
  if (interface == nullptr) {
    return Failed({{"fabric-interface-missing", node + "/" + fabric,
                    node + ": no interface " + fabric + note + "; the node has " + Join(Names(interfaces), ", ") +
                        "; NCCL and MPI would pick another interface, often the management network: check the "
                        "cabling, the driver and the network configuration of the node"}});
  }
  std::vector<Finding> findings;
  if (!interface->IsUp()) {
    findings.push_back({"fabric-interface-down", node + "/" + fabric,
                        node + "/" + fabric + ": state " + (interface->state.empty() ? "unknown" : interface->state) +
                            ", flags <" + Join(interface->flags, ",") + ">, expected UP" + note + "; `ip link set " +
                            fabric + " up` and check the link (cable, switch port)"});
  }
  if (interface->ipv4.empty()) {
    findings.push_back({"no-address", node + "/" + fabric,
                        node + "/" + fabric + ": no IPv4 address, expected one" + note +
                            "; NCCL's socket transport and MPI's TCP BTL need an address on the fabric interface"});
  }
  CheckResult result = FromFindings(std::move(findings));
  result.measurements.push_back({node + "." + fabric + ".state", interface->state, "", "UP", ""});
  result.measurements.push_back({node + "." + fabric + ".ipv4", Addresses(*interface), "", "", ""});
  return result;
}

CheckResult CheckForbiddenInterfacesNotFabric(const std::string& node, const std::vector<Interface>& interfaces,
                                              const Profile& profile) {
  const auto& nccl = *profile.nccl;
  const Interface* fabric = nccl.socket_ifname.empty() ? nullptr : Named(interfaces, nccl.socket_ifname);
  std::vector<Finding> findings;
  CheckResult result = Passed();
  for (const auto& name : nccl.forbidden_ifnames) {
    const Interface* forbidden = Named(interfaces, name);
    result.measurements.push_back(
        {node + "." + name + ".ipv4", forbidden ? Addresses(*forbidden) : "absent", "", "", ""});
    if (name == nccl.socket_ifname) {
      findings.push_back({"fabric-is-forbidden", node + "/" + name,
                          node + ": profile " + profile.name + " names " + name +
                              " both as nccl.socket_ifname and in nccl.forbidden_ifnames; fix the profile"});
      continue;
    }
    if (forbidden == nullptr || fabric == nullptr) continue;
    for (const auto& bad : forbidden->ipv4) {
      for (const auto& good : fabric->ipv4) {
        if (!SameSubnet(bad, good)) continue;
        findings.push_back({"shares-fabric-subnet", node + "/" + name,
                            node + "/" + name + " " + bad.text + " is in the fabric subnet of " + fabric->name + " " +
                                good.text + ": traffic to the fabric may leave over " + name +
                                ", which profile " + profile.name + " forbids (nccl.forbidden_ifnames); give " + name +
                                " its own management subnet"});
      }
    }
  }
  if (findings.empty()) return result;
  CheckResult failed = Failed(std::move(findings));
  failed.measurements = std::move(result.measurements);
  return failed;
}

CheckResult CheckFabricSubnetShared(const NodeFacts<std::vector<Interface>>& nodes, const Profile& profile) {
  const std::string& fabric = profile.nccl->socket_ifname;
  std::map<std::string, std::vector<std::string>> nodes_by_subnet;
  std::map<std::uint32_t, std::vector<std::string>> nodes_by_address;
  std::vector<std::string> without_address;
  CheckResult result = Passed();
  for (const auto& [node, interfaces] : nodes.read) {
    const Interface* interface = Named(interfaces, fabric);
    if (interface == nullptr || interface->ipv4.empty()) {
      without_address.push_back(node);
      continue;
    }
    const Ipv4Address& address = interface->ipv4.front();
    nodes_by_subnet[FormatNetwork(address)].push_back(node + " " + address.text);
    nodes_by_address[address.address].push_back(node);
    result.measurements.push_back({node + "." + fabric + ".ipv4", address.text, "", "", ""});
  }
  std::vector<Finding> findings;
  if (nodes_by_subnet.size() > 1) {
    std::vector<std::string> groups;
    for (const auto& [subnet, members] : nodes_by_subnet) groups.push_back(subnet + ": " + Join(members, ", "));
    findings.push_back({"split-subnet", "cluster",
                        "the nodes' " + fabric + " addresses are in " + std::to_string(nodes_by_subnet.size()) +
                            " subnets (" + Join(groups, "; ") + "), expected one: nodes in different subnets reach "
                            "each other only through a router, or over the default route (often the management "
                            "network); put every node's " + fabric + " in one subnet"});
  }
  for (const auto& [address, members] : nodes_by_address) {
    if (members.size() < 2) continue;
    findings.push_back({"duplicate-address", "cluster",
                        Join(members, ", ") + " share one " + fabric + " address: an address conflict; give each "
                            "node its own"});
  }
  for (const auto& node : without_address) {
    findings.push_back({"no-address", node,
                        node + ": no IPv4 address on " + fabric + " to compare (see Interfaces.FabricInterfaceUp)"});
  }
  if (!findings.empty()) {
    CheckResult failed = Failed(std::move(findings));
    failed.measurements = std::move(result.measurements);
    return failed;
  }
  if (!nodes.unread.empty()) {
    CheckResult errored = ErroredEach("unparseable", Problems(nodes));
    errored.measurements = std::move(result.measurements);
    return errored;
  }
  if (nodes.read.empty()) return Errored("no-nodes", "no node reported its interfaces");
  return result;
}

namespace {

// The MTU each node reports for one interface name.
using MtuByNode = std::map<std::string, int>;

// The interfaces whose MTU must agree across nodes, with each node's MTU: the fabric
// interface, and every IPoIB interface (link/infiniband) by name.
std::map<std::string, MtuByNode> ComparedMtus(const NodeFacts<std::vector<Interface>>& nodes,
                                              const std::string& fabric) {
  std::map<std::string, MtuByNode> mtus;
  for (const auto& [node, interfaces] : nodes.read) {
    for (const auto& interface : interfaces) {
      if (!interface.mtu || (interface.name != fabric && interface.link_type != "infiniband")) continue;
      mtus[interface.name][node] = *interface.mtu;
    }
  }
  return mtus;
}

// The value most nodes have (the larger one on a tie: a smaller MTU is the usual fault).
int MostCommon(const MtuByNode& by_node) {
  std::map<int, int> counts;
  for (const auto& [node, mtu] : by_node) ++counts[mtu];
  int best = 0;
  int best_count = 0;
  for (const auto& [mtu, count] : counts) {
    if (count >= best_count) {
      best = mtu;
      best_count = count;
    }
  }
  return best;
}

}  // namespace

CheckResult CheckFabricMtuConsistent(const NodeFacts<std::vector<Interface>>& nodes, const Profile& profile) {
  const std::string& fabric = profile.nccl->socket_ifname;
  const int profile_mtu = profile.nccl->mtu;
  const auto mtus = ComparedMtus(nodes, fabric);
  std::vector<Finding> findings;
  std::vector<Measurement> measurements;
  for (const auto& [name, by_node] : mtus) {
    // The profile's value binds the fabric interface only; IPoIB interfaces agree among themselves.
    const bool from_profile = name == fabric && profile_mtu > 0;
    const int expected = from_profile ? profile_mtu : MostCommon(by_node);
    std::vector<std::string> agreeing;
    for (const auto& [node, mtu] : by_node) {
      if (mtu == expected) agreeing.push_back(node);
      measurements.push_back({node + "." + name + ".mtu", std::to_string(mtu), "bytes",
                              "== " + std::to_string(expected), from_profile ? profile.nccl->source : ""});
    }
    const std::string whose = from_profile ? "profile " + profile.name + " nccl.mtu"
                                           : "the MTU of " + (agreeing.empty() ? "most nodes" : Join(agreeing, ", "));
    for (const auto& [node, mtu] : by_node) {
      if (mtu == expected) continue;
      findings.push_back({"mtu-mismatch", node + "/" + name,
                          node + ": " + name + " MTU " + std::to_string(mtu) + ", expected " +
                              std::to_string(expected) + " (" + whose +
                              "): frames larger than the smaller MTU are dropped or fragmented, so collectives hang or "
                              "crawl; set it with `ip link set " +
                              name + " mtu " + std::to_string(expected) + "` and in the node's network configuration"});
    }
  }
  if (!findings.empty()) {
    CheckResult failed = Failed(std::move(findings));
    failed.measurements = std::move(measurements);
    return failed;
  }
  if (!nodes.unread.empty()) {
    CheckResult errored = ErroredEach("unparseable", Problems(nodes));
    errored.measurements = std::move(measurements);
    return errored;
  }
  if (nodes.read.empty()) return Errored("no-nodes", "no node reported its interfaces");
  if (mtus.count(fabric) == 0) {
    return Skipped("no node reports an MTU for " + fabric +
                       ": nothing to compare (Interfaces.FabricInterfaceUp "
                       "fails for each node without it)");
  }
  CheckResult result = Passed();
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::interfaces
