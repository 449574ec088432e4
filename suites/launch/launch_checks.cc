#include "suites/launch/launch_checks.h"

#include <arpa/inet.h>

#include "probes/iproute/iproute_parse.h"
#include "probes/slurm/srun_parse.h"

#include <algorithm>
#include <set>

#include "harness/util/text_util.h"

namespace gpuconform::launch {

namespace {

std::string RankName(const RankLaunch& rank) { return "rank " + std::to_string(rank.rank) + " on " + rank.host; }

bool SlurmLaunched(const std::vector<RankLaunch>& ranks) {
  return std::any_of(ranks.begin(), ranks.end(), [](const auto& r) { return !r.Env("SLURM_PROCID").empty(); });
}

}  // namespace

CheckResult CheckWorldFormed(const std::string& world_problem) {
  return world_problem.empty() ? Passed() : Errored("world-not-formed", world_problem);
}

CheckResult CheckSlurmIdsConsistent(const std::vector<RankLaunch>& ranks) {
  if (!SlurmLaunched(ranks)) return Skipped("not started by srun (no SLURM_PROCID)");
  std::vector<Finding> findings;
  std::map<std::string, std::set<std::string>> node_ids_by_host;
  std::map<std::string, std::set<std::string>> hosts_by_node_id;
  const std::string world_size = std::to_string(ranks.size());
  for (const auto& rank : ranks) {
    if (rank.Env("SLURM_PROCID") != std::to_string(rank.rank)) {
      findings.push_back({"procid", rank.host,
                          RankName(rank) + ": SLURM_PROCID=" + rank.Env("SLURM_PROCID") + ", expected " +
                              std::to_string(rank.rank) + " (the MPI rank): ranks were reordered by the launcher"});
    }
    const std::string ntasks = !rank.Env("SLURM_STEP_NUM_TASKS").empty() ? rank.Env("SLURM_STEP_NUM_TASKS")
                                                                          : rank.Env("SLURM_NTASKS");
    if (!ntasks.empty() && ntasks != world_size) {
      findings.push_back({"ntasks", rank.host,
                          RankName(rank) + ": Slurm says " + ntasks + " tasks, MPI sees " + world_size +
                              ": tasks of one step are not in one world (launch with srun --mpi=pmix)"});
    }
    node_ids_by_host[rank.host].insert(rank.Env("SLURM_NODEID"));
    hosts_by_node_id[rank.Env("SLURM_NODEID")].insert(rank.host);
  }
  for (const auto& [host, ids] : node_ids_by_host) {
    if (ids.size() > 1) {
      findings.push_back({"nodeid", host, host + ": its ranks disagree on SLURM_NODEID (" +
                                              Join({ids.begin(), ids.end()}, ", ") + ")"});
    }
  }
  for (const auto& [id, hosts] : hosts_by_node_id) {
    if (hosts.size() > 1) {
      findings.push_back({"nodeid", *hosts.begin(), "SLURM_NODEID=" + id + " on several hosts (" +
                                                        Join({hosts.begin(), hosts.end()}, ", ") +
                                                        "): host names do not identify nodes (check hostname)"});
    }
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckTasksPerNodeAsRequested(const std::vector<RankLaunch>& ranks) {
  std::map<std::string, int> tasks_by_host;
  for (const auto& rank : ranks) ++tasks_by_host[rank.host];
  std::string requested_text;
  for (const auto& rank : ranks) {
    if (!rank.Env("SLURM_NTASKS_PER_NODE").empty()) requested_text = rank.Env("SLURM_NTASKS_PER_NODE");
  }
  const int requested = requested_text.empty() ? 1 : std::max(1, std::atoi(requested_text.c_str()));
  std::vector<Finding> findings;
  for (const auto& [host, tasks] : tasks_by_host) {
    if (tasks <= requested) continue;
    findings.push_back({"oversubscribed", host,
                        host + ": " + std::to_string(tasks) + " tasks on this node, expected at most " +
                            std::to_string(requested) +
                            (requested_text.empty() ? " (gpuconform drives all of a node's GPUs from one task)"
                                                    : " (--ntasks-per-node=" + requested_text + ")") +
                            ": ranks share GPUs and NICs; launch with srun --ntasks-per-node=" +
                            std::to_string(requested)});
  }
  CheckResult result = FromFindings(std::move(findings));
  for (const auto& [host, tasks] : tasks_by_host) {
    result.measurements.push_back({host + ".tasks", std::to_string(tasks), "tasks", "<= " + std::to_string(requested), ""});
  }
  return result;
}

namespace {

// MASTER_ADDR/MASTER_PORT, or their PRIMARY_* aliases (Runpod-style clusters set those).
std::string RendezvousEnv(const RankLaunch& rank, const std::string& master, const std::string& primary) {
  const std::string value = rank.Env(master);
  return value.empty() ? rank.Env(primary) : value;
}

// The host of the task with SLURM_NODEID 0, which hosts torchrun's static rendezvous; "" when
// the ranks do not say (a launch outside Slurm).
std::string NodeZeroHost(const std::vector<RankLaunch>& ranks) {
  for (const auto& rank : ranks) {
    if (rank.Env("SLURM_NODEID") == "0") return rank.host;
  }
  return "";
}

Finding NotNodeZero(const std::string& addr, const std::string& is, const std::string& node0) {
  return {"master-addr-not-node0", "cluster",
          "MASTER_ADDR=" + addr + " is " + is + ", but torchrun's static rendezvous is hosted by the node with "
          "SLURM_NODEID 0 (" + node0 + "), so the launchers wait for a store nobody serves; set MASTER_ADDR to the "
          "first host of the allocation: scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n1"};
}

}  // namespace

CheckResult CheckMasterAddrInAllocation(const std::vector<RankLaunch>& ranks, const NodeInterfaceAddresses& interfaces) {
  std::set<std::string> addrs;
  std::set<std::string> ports;
  std::set<std::string> hosts;
  for (const auto& rank : ranks) {
    addrs.insert(RendezvousEnv(rank, "MASTER_ADDR", "PRIMARY_ADDR"));
    ports.insert(RendezvousEnv(rank, "MASTER_PORT", "PRIMARY_PORT"));
    hosts.insert(rank.host);
  }
  if (addrs.size() == 1 && addrs.begin()->empty()) {
    return Skipped("MASTER_ADDR (or PRIMARY_ADDR) is not set (only frameworks like torch.distributed use it)");
  }
  const std::string node0 = NodeZeroHost(ranks);
  std::vector<Finding> findings;
  if (addrs.size() > 1) {
    std::vector<std::string> shown;
    for (const auto& addr : addrs) shown.push_back(addr.empty() ? "unset on some ranks" : addr);
    findings.push_back({"master-addr-differs", "cluster",
                        "ranks disagree on MASTER_ADDR (" + Join(shown, ", ") +
                            "): set it once in the job script, e.g. from the first host of SLURM_JOB_NODELIST"});
  } else {
    std::string addr = *addrs.begin();
    if (addr.size() > 2 && addr.front() == '[' && addr.back() == ']') addr = addr.substr(1, addr.size() - 2);
    in6_addr ipv6{};
    in_addr ipv4{};
    const bool is_ip = ::inet_pton(AF_INET, addr.c_str(), &ipv4) == 1 || ::inet_pton(AF_INET6, addr.c_str(), &ipv6) == 1;
    if (is_ip) {
      std::string owner;
      for (const auto& [node, addresses] : interfaces) {
        for (const auto& [ifname, address] : addresses) {
          if (address.substr(0, address.find('/')) == addr) owner = node;
        }
      }
      if (interfaces.empty()) {
        return Errored("unavailable",
                       "MASTER_ADDR=" + addr + " is an address, and no node's addresses are known (ip -o addr show), "
                       "so it cannot be compared with the allocation");
      }
      if (owner.empty()) {
        findings.push_back({"master-addr-outside", "cluster",
                            "MASTER_ADDR=" + addr + " is not an address of any node of this allocation (" +
                                Join({hosts.begin(), hosts.end()}, ", ") +
                                "): rank 0's rendezvous will never be reached; use the first allocated host's address"});
      } else if (!node0.empty() && owner != node0) {
        findings.push_back(NotNodeZero(addr, "an address of " + owner, node0));
      }
    } else {
      const std::string short_addr = addr.substr(0, addr.find('.'));
      if (!hosts.count(short_addr) && !hosts.count(addr)) {
        findings.push_back({"master-addr-outside", "cluster",
                            "MASTER_ADDR=" + addr + " is not a node of this allocation (" +
                                Join({hosts.begin(), hosts.end()}, ", ") +
                                "): rank 0's rendezvous will never be reached; use the first allocated host"});
      } else if (!node0.empty() && short_addr != node0 && addr != node0) {
        findings.push_back(NotNodeZero(addr, "node " + (hosts.count(addr) ? addr : short_addr), node0));
      }
    }
  }
  for (const auto& port : ports) {
    const int value = std::atoi(port.c_str());
    if (port.empty() || value < 1 || value > 65535) {
      findings.push_back({"master-port", "cluster",
                          "MASTER_PORT='" + port + "' is not a TCP port (1-65535): set MASTER_PORT, e.g. 29500"});
    }
  }
  return FromFindings(std::move(findings));
}

namespace {

std::vector<std::string> InterfaceList(const std::string& value) {
  std::vector<std::string> names;
  std::string current;
  for (char c : value + ",") {
    if (c == ',') {
      const std::string name(Trim(current));
      if (!name.empty()) names.push_back(name);
      current.clear();
    } else {
      current += c;
    }
  }
  return names;
}

// Open MPI's list with each IPv4 subnet ("10.10.0.0/24") replaced by the node's interfaces
// that have an address in it. `unresolved` is set when a subnet met unknown addresses.
std::vector<std::string> ResolvedInterfaceList(const std::string& value,
                                               const std::vector<std::pair<std::string, std::string>>* addresses,
                                               bool& unresolved) {
  std::vector<std::string> names;
  for (const auto& entry : InterfaceList(value)) {
    const auto subnet = entry.find('/') != std::string::npos ? iproute::ParseIpv4Cidr(entry) : std::nullopt;
    if (!subnet) {
      names.push_back(entry);
      continue;
    }
    if (addresses == nullptr) {
      unresolved = true;
      continue;
    }
    for (const auto& [ifname, address] : *addresses) {
      const auto mine = iproute::ParseIpv4Cidr(address);
      if (!mine) continue;
      const bool inside =
          iproute::NetworkOf({mine->address, subnet->prefix_length, ""}) == iproute::NetworkOf(*subnet);
      if (inside && std::find(names.begin(), names.end(), ifname) == names.end()) names.push_back(ifname);
    }
  }
  return names;
}

// NCCL_SOCKET_IFNAME semantics: a prefix list ("ens" matches ens1), "=" for exact names,
// "^" for an exclusion list. Does this setting let NCCL use `ifname`?
bool NcclWouldUse(const std::string& setting, const std::string& ifname) {
  std::string list = setting;
  const bool exclude = !list.empty() && list[0] == '^';
  if (exclude) list.erase(0, 1);
  const bool exact = !list.empty() && list[0] == '=';
  if (exact) list.erase(0, 1);
  bool listed = false;
  for (const auto& name : InterfaceList(list)) listed = listed || (exact ? ifname == name : StartsWith(ifname, name));
  return exclude ? !listed : listed;
}

}  // namespace

CheckResult CheckFabricPinnedInEnvironment(const std::vector<RankLaunch>& ranks, const Profile& profile,
                                           const NodeInterfaceAddresses& interfaces) {
  if (!profile.nccl) return Skipped("profile " + profile.name + " has no nccl section");
  const auto& forbidden = profile.nccl->forbidden_ifnames;
  const std::string& fabric = profile.nccl->socket_ifname;
  std::vector<Finding> findings;
  std::set<std::string> reported;  // one finding per host and problem, not per rank
  std::set<std::string> unresolved_hosts;
  auto add = [&](const RankLaunch& rank, ReasonCode code, const std::string& message) {
    if (reported.insert(rank.host + "/" + code.str()).second) findings.push_back({code, rank.host, rank.host + ": " + message});
  };
  for (const auto& rank : ranks) {
    const std::string nccl = rank.Env("NCCL_SOCKET_IFNAME");
    for (const auto& bad : forbidden) {
      if (!nccl.empty() && NcclWouldUse(nccl, bad)) {
        add(rank, "nccl-socket-forbidden",
            "NCCL_SOCKET_IFNAME=" + nccl + " lets NCCL use " + bad + ", which must never carry collectives" +
                (fabric.empty() ? "" : "; set NCCL_SOCKET_IFNAME=" + fabric));
      }
    }
    if (!nccl.empty() && !fabric.empty() && !NcclWouldUse(nccl, fabric)) {
      add(rank, "nccl-socket-not-fabric",
          "NCCL_SOCKET_IFNAME=" + nccl + " excludes the fabric interface " + fabric + "; set NCCL_SOCKET_IFNAME=" + fabric);
    }
    const std::string btl = rank.Env("OMPI_MCA_btl");
    const bool mpi_uses_tcp = btl.empty() || Contains(btl, "tcp");
    const bool is_mpi_rank = !rank.Env("OMPI_COMM_WORLD_RANK").empty() || !rank.Env("PMIX_RANK").empty();
    if (!mpi_uses_tcp || !is_mpi_rank) continue;
    const auto node = interfaces.find(rank.host);
    const auto* addresses = node == interfaces.end() ? nullptr : &node->second;
    bool unresolved = false;
    const auto include = ResolvedInterfaceList(rank.Env("OMPI_MCA_btl_tcp_if_include"), addresses, unresolved);
    const auto exclude = ResolvedInterfaceList(rank.Env("OMPI_MCA_btl_tcp_if_exclude"), addresses, unresolved);
    if (unresolved) {
      unresolved_hosts.insert(rank.host);
      continue;
    }
    for (const auto& bad : forbidden) {
      if (std::find(include.begin(), include.end(), bad) != include.end()) {
        add(rank, "mpi-pinned-forbidden",
            "OMPI_MCA_btl_tcp_if_include=" + rank.Env("OMPI_MCA_btl_tcp_if_include") + " puts MPI traffic on " + bad +
                ", the management network" + (fabric.empty() ? "" : "; set OMPI_MCA_btl_tcp_if_include=" + fabric));
      }
    }
    const bool excludes_forbidden = !forbidden.empty() && std::all_of(forbidden.begin(), forbidden.end(), [&](auto& bad) {
      return std::find(exclude.begin(), exclude.end(), bad) != exclude.end();
    });
    if (include.empty() && !excludes_forbidden && !fabric.empty()) {
      add(rank, "mpi-unpinned",
          "Open MPI's TCP transport is not pinned (no OMPI_MCA_btl_tcp_if_include), so it stripes over every "
          "interface including " + Join(forbidden, ", ") + " and the slowest sets the pace; set "
          "OMPI_MCA_btl_tcp_if_include=" + fabric);
    }
  }
  if (findings.empty() && !unresolved_hosts.empty()) {
    return Errored("unavailable",
                   "Open MPI's btl_tcp_if_include or btl_tcp_if_exclude names a subnet, and the interface addresses of " +
                       Join({unresolved_hosts.begin(), unresolved_hosts.end()}, ", ") +
                       " are unknown (ip -o addr show), so which interfaces it selects cannot be judged");
  }
  return FromFindings(std::move(findings));
}

CheckResult CheckTaskStarted(const std::string& node, const std::vector<RefusedNode>& refused) {
  const auto left_out = std::find_if(refused.begin(), refused.end(), [&](const auto& r) { return r.node == node; });
  if (left_out == refused.end()) return Passed();
  const std::string& slurm_error = left_out->slurm_error;
  if (slurm::IsSrunTaskExit(slurm_error)) {
    return Failed({{"task-exited-at-start", node,
                    node + ": the run's task ended before the ranks met (\"" + slurm_error +
                        "\"), so the run went on without it: gpuconform cannot start in that node's image (exit 127: "
                        "a command not found; a loader error names a missing library; a signal: a crash); run `srun -w " +
                        node + " gpuconform version` and fix the node's image"}});
  }
  return Failed({{"slurm-launch-refused", node,
                  node + ": Slurm could not start the run's task (\"" + slurm_error +
                      "\"), so the run went on without it: its slurmd or munged does not answer; check `systemctl "
                      "status munge slurmd` on " + node + ", then `scontrol update nodename=" + node + " state=resume`"}});
}

}  // namespace gpuconform::launch
