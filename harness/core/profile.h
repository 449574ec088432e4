// Profile: what a conforming cluster of one kind looks like (topologies/<name>.yaml).
// Contract: per-SKU expectations are data, not code. Every number has its unit in its key
// and every section that holds numbers has a `source:`. A section that is absent means
// "this profile does not say", and checks that need it are skipped, saying so; a section
// with `present: false` means "this cluster has no such component" (e.g. the `local`
// profile has no GPUs), and checks of it are skipped with that reason.
// LoadProfile errors name file:line:key and are exit-2 material.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

struct GpuExpectation {
  bool present = true;
  int count_per_node = 0;
  std::string model_contains;  // substring of the model name, e.g. "H100"
  std::string source;
};

struct NvlinkExpectation {
  int links_per_gpu = 0;                // NV18 on H100/H200, NV12 on A100
  double link_bandwidth_gb_per_s = 0;   // per link, per direction
  double p2p_bandwidth_floor_gb_per_s = 0;  // per GPU pair, unidirectional copy engine
  std::string source;
};

struct InfinibandExpectation {
  bool present = true;
  int rail_nics_per_node = 0;
  std::string link_layer;  // "InfiniBand" or "Ethernet" (RoCE)
  int rate_gbit_per_s = 0;  // 400 NDR, 200 HDR
  // Each GPU must have a rail NIC under its own PCIe switch (PIX or PXB in nvidia-smi topo -m),
  // as GPUDirect RDMA on rail-optimised nodes needs.
  bool gpu_local_nic_required = false;
  std::string source;
};

struct NcclExpectation {
  std::string network;                       // "IB" or "Socket"
  bool gpudirect_rdma = false;
  std::string socket_ifname;                 // fabric interface NCCL/MPI must use, e.g. "ens1"
  std::vector<std::string> forbidden_ifnames;  // e.g. {"eth0"}: never carries collectives
  // The MTU socket_ifname must have on every node; 0: only that all nodes agree.
  int mtu = 0;
  // Line rate of the management interface (the first forbidden ifname), so a busbw near it
  // can be diagnosed as collectives on the wrong NIC; 0 = unknown.
  double management_rate_gbit_per_s = 0;
  std::string source;
};

inline constexpr char kDefaultCounterRateSource[] =
    "gpuconform's defaults, not a measurement of this cluster: a clean link gains no signal errors, so more than "
    "one an hour on one link (ten correctable errors on one PCIe device) is a trend that precedes its failure, as an NVLink's "
    "recovery counter rose for five days before an Xid 149 (marin-community/marin#9086); discards follow load. "
    "Set link_counters: from your own fleet's rates";
// `link_counters:` the fastest each kind of link error counter may rise between two runs of a
// node in the history (run --history), per hour; and, where given, the count limits.
struct LinkCounterRates {
  double ib_signal_errors_per_hour = 1;  // symbol errors, recoveries, integrity, receive errors, link downs
  double ib_discards_per_hour = 100;     // transmit discards, relay and constraint errors
  double nvlink_errors_per_hour = 1;     // CRC, replay, recovery
  double pcie_correctable_per_hour = 10; // AER correctable (non-fatal and fatal fail by count)
  // `count_limits:` the most errors a counter may hold, by counter name (InfiniBand's sysfs
  // names such as symbol_error, NVLink's crc_errors, replay_errors and recovery_errors, PCIe's
  // aer_correctable); a counter not listed keeps its check's default and that default's source.
  std::map<std::string, std::uint64_t, std::less<>> count_limits;
  std::string source = kDefaultCounterRateSource;

  std::optional<std::uint64_t> CountLimit(std::string_view counter) const {
    const auto found = count_limits.find(counter);
    if (found == count_limits.end()) return std::nullopt;
    return found->second;
  }
};

struct Profile {
  std::string name;
  std::string description;
  std::string file;  // where it was loaded from (for messages)
  std::optional<GpuExpectation> gpu;
  std::optional<NvlinkExpectation> nvlink;
  std::optional<InfinibandExpectation> infiniband;
  std::optional<NcclExpectation> nccl;
  LinkCounterRates link_counters;  // always set: the section, else the defaults

  bool ExpectsGpus() const { return gpu && gpu->present; }

  // A section owned by the suite or tool that reads it (harness/core/profile_section.h): the one the
  // profile gives, or nullptr where it gives none.
  template <typename Section>
  const Section* Get() const {
    const auto found = sections.find(Section::kKey);
    return found == sections.end() ? nullptr : static_cast<const Section*>(found->second.get());
  }
  // The section, or its defaults where the profile gives none.
  template <typename Section>
  const Section& GetOrDefault() const {
    static const Section kDefaults{};
    const Section* given = Get<Section>();
    return given != nullptr ? *given : kDefaults;
  }
  template <typename Section>
  void Set(Section section) {
    sections[Section::kKey] = std::make_shared<const Section>(std::move(section));
  }
  template <typename Section>
  void Unset() {
    sections.erase(Section::kKey);
  }

  // The owned sections read, by key. Shared, never changed once read: a copied Profile shares
  // them, and Set replaces one for this copy only.
  std::map<std::string, std::shared_ptr<const void>, std::less<>> sections;
};

// Parses profile YAML text; `file` names the origin in messages ("topologies/local.yaml").
Result<Profile> ParseProfile(const std::string& yaml_text, const std::string& file);

// NAME (a built-in profile) or FILE (a path to a YAML file).
Result<Profile> LoadProfile(const std::string& name_or_file);

struct BuiltinProfile {
  std::string name;
  std::string file;  // "topologies/<name>.yaml"
  std::string yaml;
};
// The profiles compiled into the binary from topologies/*.yaml, sorted by name.
const std::vector<BuiltinProfile>& BuiltinProfiles();

}  // namespace gpuconform
