// Profile loading: YAML text -> Profile, strictly. A profile is the yardstick every check
// judges against, so a typo or a wrong type must stop the run (exit 2) instead of quietly
// turning a check off. The first problem found is reported as "file:line:key: what".
#include "harness/core/profile.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

#include "harness/core/profile_reader.h"
#include "harness/core/profile_section.h"

namespace gpuconform {
namespace {

using namespace profile_yaml;

// A profile is a page of YAML; anything larger is the wrong file (or /dev/zero).
constexpr std::size_t kMaxProfileFileBytes = 1 << 20;

GpuExpectation ReadGpu(ProfileReader& reader, const Fields& fields) {
  GpuExpectation gpu;
  gpu.present = reader.Bool(fields, "present").value_or(true);
  if (gpu.present) {
    reader.Require(fields, {"count_per_node"}, "required when gpu.present is true");
  } else {
    reader.Forbid(fields, {"count_per_node", "model_contains"}, "gpu.present is false");
  }
  gpu.count_per_node = static_cast<int>(reader.PositiveInteger(fields, "count_per_node").value_or(0));
  gpu.model_contains = reader.NonEmptyString(fields, "model_contains").value_or("");
  gpu.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"count_per_node"});
  return gpu;
}

NvlinkExpectation ReadNvlink(ProfileReader& reader, const Fields& fields) {
  NvlinkExpectation nvlink;
  reader.Require(fields, {"links_per_gpu", "link_bandwidth_gb_per_s", "p2p_bandwidth_floor_gb_per_s"},
                 "an nvlink section states all of its numbers");
  nvlink.links_per_gpu = static_cast<int>(reader.PositiveInteger(fields, "links_per_gpu").value_or(0));
  nvlink.link_bandwidth_gb_per_s = reader.PositiveNumber(fields, "link_bandwidth_gb_per_s").value_or(0);
  nvlink.p2p_bandwidth_floor_gb_per_s =
      reader.PositiveNumber(fields, "p2p_bandwidth_floor_gb_per_s").value_or(0);
  nvlink.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields,
                          {"links_per_gpu", "link_bandwidth_gb_per_s", "p2p_bandwidth_floor_gb_per_s"});
  return nvlink;
}

InfinibandExpectation ReadInfiniband(ProfileReader& reader, const Fields& fields) {
  InfinibandExpectation infiniband;
  infiniband.present = reader.Bool(fields, "present").value_or(true);
  if (infiniband.present) {
    reader.Require(fields, {"rail_nics_per_node", "link_layer", "rate_gbit_per_s"},
                   "required when infiniband.present is true");
  } else {
    reader.Forbid(fields, {"rail_nics_per_node", "link_layer", "rate_gbit_per_s"},
                  "infiniband.present is false");
  }
  infiniband.rail_nics_per_node =
      static_cast<int>(reader.PositiveInteger(fields, "rail_nics_per_node").value_or(0));
  infiniband.link_layer = reader.String(fields, "link_layer").value_or("");
  if (fields.Has("link_layer") && infiniband.link_layer != "InfiniBand" &&
      infiniband.link_layer != "Ethernet") {
    reader.Fail(fields.LineOf("link_layer"), fields.PathOf("link_layer"),
                "expected 'InfiniBand' or 'Ethernet' (RoCE), as ibstat prints it, got " +
                    Shown(infiniband.link_layer));
  }
  infiniband.rate_gbit_per_s =
      static_cast<int>(reader.PositiveInteger(fields, "rate_gbit_per_s").value_or(0));
  infiniband.gpu_local_nic_required = reader.Bool(fields, "gpu_local_nic_required").value_or(false);
  infiniband.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"rail_nics_per_node", "rate_gbit_per_s"});
  return infiniband;
}

NcclExpectation ReadNccl(ProfileReader& reader, const Fields& fields) {
  NcclExpectation nccl;
  reader.Require(fields, {"network"}, "the NCCL network expected between nodes, e.g. IB or Socket");
  nccl.network = reader.NonEmptyString(fields, "network").value_or("");
  nccl.gpudirect_rdma = reader.Bool(fields, "gpudirect_rdma").value_or(false);
  nccl.socket_ifname = reader.NonEmptyString(fields, "socket_ifname").value_or("");
  nccl.forbidden_ifnames =
      reader.StringList(fields, "forbidden_ifnames").value_or(std::vector<std::string>{});
  nccl.management_rate_gbit_per_s = reader.PositiveNumber(fields, "management_rate_gbit_per_s").value_or(0);
  nccl.mtu = static_cast<int>(reader.PositiveInteger(fields, "mtu").value_or(0));
  nccl.source = reader.NonEmptyString(fields, "source").value_or("");
  reader.RequireSourceFor(fields, {"management_rate_gbit_per_s"});
  const auto& forbidden = nccl.forbidden_ifnames;
  if (!nccl.socket_ifname.empty() &&
      std::find(forbidden.begin(), forbidden.end(), nccl.socket_ifname) != forbidden.end()) {
    reader.Fail(fields.LineOf("socket_ifname"), fields.PathOf("socket_ifname"),
                Shown(nccl.socket_ifname) + " is also in nccl.forbidden_ifnames");
  }
  return nccl;
}


// The counters the link checks judge by count (suites/infiniband, nvswitch, pcie): the names
// `link_counters.count_limits` may set. InfiniBand's port_xmit_wait is load, not an error.
const std::vector<std::string_view>& CountLimitedCounters() {
  static const std::vector<std::string_view> kCounters = {
      "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors", "port_rcv_remote_physical_errors",
      "local_link_integrity_errors", "excessive_buffer_overrun_errors", "port_rcv_switch_relay_errors",
      "port_xmit_discards", "port_xmit_constraint_errors", "port_rcv_constraint_errors", "VL15_dropped",
      "crc_errors", "replay_errors", "recovery_errors", "aer_correctable"};
  return kCounters;
}

std::map<std::string, std::uint64_t, std::less<>> ReadCountLimits(ProfileReader& reader, const Fields& fields) {
  std::map<std::string, std::uint64_t, std::less<>> limits;
  ReadKnownKeys(reader, fields, "count_limits", "counter: most errors", "counter", CountLimitedCounters(),
                [&](const std::string& counter, const YAML::Node& value, const std::string& path) {
                  std::uint64_t limit = 0;
                  const std::string text = value.IsScalar() && !IsStringTyped(value) ? value.Scalar() : "";
                  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), limit);
                  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
                    reader.Fail(LineOf(value.Mark()), path,
                                "expected a whole number of errors (0 or more), got " + Described(value));
                    return false;
                  }
                  limits[counter] = limit;
                  return true;
                });
  return limits;
}

LinkCounterRates ReadLinkCounters(ProfileReader& reader, const Fields& fields) {
  LinkCounterRates rates;
  reader.Require(fields, {"source"}, "say where the rate limits come from, e.g. your fleet's rates between runs");
  rates.ib_signal_errors_per_hour =
      reader.PositiveNumber(fields, "ib_signal_errors_per_hour").value_or(rates.ib_signal_errors_per_hour);
  rates.ib_discards_per_hour = reader.PositiveNumber(fields, "ib_discards_per_hour").value_or(rates.ib_discards_per_hour);
  rates.nvlink_errors_per_hour =
      reader.PositiveNumber(fields, "nvlink_errors_per_hour").value_or(rates.nvlink_errors_per_hour);
  rates.pcie_correctable_per_hour =
      reader.PositiveNumber(fields, "pcie_correctable_per_hour").value_or(rates.pcie_correctable_per_hour);
  rates.count_limits = ReadCountLimits(reader, fields);
  rates.source = reader.NonEmptyString(fields, "source").value_or(rates.source);
  return rates;
}

// Opens root[key] as a section when present and hands it to `read`; absent stays absent.
template <typename Read>
auto ReadSection(ProfileReader& reader, const Fields& root, std::string_view key,
                 const std::vector<std::string_view>& allowed, Read read)
    -> std::optional<decltype(read(reader, std::declval<const Fields&>()))> {
  const YAML::Node* node = root.Value(key);
  if (!node) return {};
  std::optional<Fields> fields = reader.Mapping(*node, std::string(key), root.LineOf(key), allowed);
  if (!fields) return {};
  return read(reader, *fields);
}

void ReadSections(ProfileReader& reader, const Fields& root, Profile& profile) {
  profile.gpu =
      ReadSection(reader, root, "gpu", {"present", "count_per_node", "model_contains", "source"}, ReadGpu);
  profile.nvlink = ReadSection(
      reader, root, "nvlink",
      {"links_per_gpu", "link_bandwidth_gb_per_s", "p2p_bandwidth_floor_gb_per_s", "source"}, ReadNvlink);
  profile.infiniband = ReadSection(
      reader, root, "infiniband",
      {"present", "rail_nics_per_node", "link_layer", "rate_gbit_per_s", "gpu_local_nic_required", "source"},
      ReadInfiniband);
  profile.nccl =
      ReadSection(reader, root, "nccl",
                  {"network", "gpudirect_rdma", "socket_ifname", "forbidden_ifnames",
                   "management_rate_gbit_per_s", "mtu", "source"},
                  ReadNccl);
  profile.link_counters = ReadSection(reader, root, "link_counters",
                                      {"ib_signal_errors_per_hour", "ib_discards_per_hour", "nvlink_errors_per_hour",
                                       "pcie_correctable_per_hour", "count_limits", "source"},
                                      ReadLinkCounters)
                              .value_or(LinkCounterRates{});
}

Result<Profile> ReadProfile(const YAML::Node& root_node, const std::string& file) {
  ProfileReader reader(file);
  if (root_node.IsNull()) {
    reader.Fail(1, "", "empty profile: expected a YAML mapping with at least 'name'");
    return Error{*reader.error()};
  }
  if (!root_node.IsMap()) {
    reader.Fail(
        LineOf(root_node.Mark()), "",
        "the top level must be a mapping of profile keys (name:, gpu:, ...), got " + Described(root_node));
    return Error{*reader.error()};
  }
  // The frame's keys and the shared sections, then every section registered by the code that owns it.
  std::vector<std::string_view> keys = {"name", "description", "gpu", "nvlink", "infiniband", "nccl", "link_counters"};
  for (const auto& section : RegisteredProfileSections()) keys.push_back(section.key);
  std::optional<Fields> root = reader.Mapping(root_node, "", LineOf(root_node.Mark()), keys);
  if (!root) return Error{*reader.error()};
  Profile profile;
  profile.file = file;
  reader.Require(*root, {"name"}, "every profile has a name");
  profile.name = reader.NonEmptyString(*root, "name").value_or("");
  profile.description = reader.String(*root, "description").value_or("");
  ReadSections(reader, *root, profile);
  for (const auto& section : RegisteredProfileSections()) {
    const YAML::Node* node = root->Value(section.key);
    if (node == nullptr) continue;
    if (auto read = section.read(reader, *node, root->LineOf(section.key))) profile.sections[section.key] = std::move(read);
  }
  if (reader.error()) return Error{*reader.error()};
  return profile;
}

// Counts documents without building them. yaml-cpp 0.7's LoadAll loops forever (allocating)
// on some invalid input, e.g. a lone ",", so the stream is walked at most two documents deep.
class DocumentCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { last_start_ = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}

  const YAML::Mark& last_start() const { return last_start_; }

 private:
  YAML::Mark last_start_;
};

// Returns an error message when the text is not exactly one YAML document.
std::optional<std::string> SingleDocumentProblem(const std::string& yaml_text, const std::string& file) {
  std::istringstream input(yaml_text);
  YAML::Parser parser(input);
  DocumentCounter counter;
  parser.HandleNextDocument(counter);
  if (!parser.HandleNextDocument(counter)) return std::nullopt;
  return file + ":" + std::to_string(LineOf(counter.last_start())) +
         ": a profile is one YAML document, but another one starts here";
}

std::string YamlErrorMessage(const std::string& file, const YAML::Exception& error) {
  std::string where = file;
  if (error.mark.line >= 0) {
    where += ":" + std::to_string(error.mark.line + 1) + ": invalid YAML at column " +
             std::to_string(error.mark.column + 1);
  } else {
    where += ": invalid YAML";
  }
  return where + ": " + error.msg;
}

std::string BuiltinNames() {
  std::string names;
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    if (!names.empty()) names += ", ";
    names += builtin.name;
  }
  return names;
}

const BuiltinProfile* FindBuiltin(const std::string& name) {
  for (const BuiltinProfile& builtin : BuiltinProfiles()) {
    if (builtin.name == name) return &builtin;
  }
  return nullptr;
}

Result<std::string> ReadProfileFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory, not a profile file"};
  std::ifstream input(path, std::ios::binary);
  if (!input) return Error{path + ": cannot open profile file: " + std::generic_category().message(errno)};
  std::string text(kMaxProfileFileBytes + 1, '\0');
  input.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (input.bad()) return Error{path + ": cannot read profile file"};
  text.resize(static_cast<std::size_t>(input.gcount()));
  if (text.size() > kMaxProfileFileBytes) {
    return Error{path + ": larger than " + std::to_string(kMaxProfileFileBytes) + " bytes; not a profile"};
  }
  return text;
}

}  // namespace

Result<Profile> ParseProfile(const std::string& yaml_text, const std::string& file) {
  try {
    if (std::optional<std::string> problem = SingleDocumentProblem(yaml_text, file)) return Error{*problem};
    return ReadProfile(YAML::Load(yaml_text), file);
  } catch (const YAML::DeepRecursion& error) {
    return Error{file + ":" + std::to_string(LineOf(error.mark)) + ": invalid YAML: nested too deeply"};
  } catch (const YAML::Exception& error) {
    return Error{YamlErrorMessage(file, error)};
  } catch (const std::exception& error) {
    return Error{file + ": cannot parse profile: " + error.what()};
  }
}

Result<Profile> LoadProfile(const std::string& name_or_file) {
  try {
    if (const BuiltinProfile* builtin = FindBuiltin(name_or_file)) {
      return ParseProfile(builtin->yaml, builtin->file);
    }
    std::error_code ec;
    const bool exists = std::filesystem::exists(name_or_file, ec);
    if (ec) return Error{name_or_file + ": cannot access profile file: " + ec.message()};
    if (!exists) {
      return Error{"unknown profile '" + name_or_file + "': not a built-in (" + BuiltinNames() +
                   ") and no such file"};
    }
    Result<std::string> text = ReadProfileFile(name_or_file);
    if (!text) return Error{text.error()};
    return ParseProfile(*text, name_or_file);
  } catch (const std::exception& error) {
    return Error{name_or_file + ": cannot load profile: " + error.what()};
  }
}

}  // namespace gpuconform
