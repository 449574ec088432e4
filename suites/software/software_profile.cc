// Reads and registers the profile's `software:` section.
#include "suites/software/software_profile.h"

#include <algorithm>

#include "harness/core/profile_section.h"

namespace gpuconform::software {

namespace {

using profile_yaml::Described;
using profile_yaml::Fields;
using profile_yaml::JoinViews;
using profile_yaml::LineOf;
using profile_yaml::ProfileReader;
using profile_yaml::ReadKnownKeys;
using profile_yaml::Shown;

const std::vector<std::string_view>& SoftwareComponents() {
  static const std::vector<std::string_view> kComponents = {"kernel", "driver", "cuda",  "nccl",    "slurm",
                                                            "munge",  "mpi",    "gpuconform", "vbios", "inforom",
                                                            "hca_firmware"};
  return kComponents;
}

// The components that are per device, so a pin may name the device model.
bool IsFirmwareComponent(std::string_view component) {
  return component == "vbios" || component == "inforom" || component == "hca_firmware";
}

// `pinned:` maps a component to its version ("driver: 550.54.15"), or, for firmware, each
// device model to its version ("hca_firmware: {MT4129: 28.39.1002, MT4125: 22.39.1002}"):
// firmware versions are per model, and one fleet often holds two HCA models.
std::vector<PinnedVersion> ReadPinnedVersions(ProfileReader& reader, const Fields& fields) {
  std::vector<PinnedVersion> pinned;
  ReadKnownKeys(reader, fields, "pinned", "component: version", "component", SoftwareComponents(),
                [&](const std::string& component, const YAML::Node& value, const std::string& path) {
                  if (value.IsScalar() && !value.Scalar().empty()) {
                    pinned.push_back({component, "", value.Scalar()});
                    return true;
                  }
                  if (!value.IsMap() || !IsFirmwareComponent(component)) {
                    reader.Fail(LineOf(value.Mark()), path,
                                IsFirmwareComponent(component)
                                    ? "expected a version, or a mapping of device model: version, got " +
                                          Described(value)
                                    : "expected a version string, got " + Described(value));
                    return false;
                  }
                  for (const auto& model : value) {
                    if (!model.first.IsScalar() || model.first.Scalar().empty() || !model.second.IsScalar() ||
                        model.second.Scalar().empty()) {
                      reader.Fail(LineOf(model.first.Mark()), path,
                                  "expected device model: version (e.g. MT4129: 28.39.1002), got " +
                                      Described(model.second));
                      return false;
                    }
                    pinned.push_back({component, model.first.Scalar(), model.second.Scalar()});
                  }
                  return true;
                });
  return pinned;
}

SoftwareExpectation ReadSoftware(ProfileReader& reader, const Fields& fields) {
  SoftwareExpectation software;
  software.identical_across_nodes =
      reader.StringList(fields, "identical_across_nodes").value_or(std::vector<std::string>{});
  const std::vector<std::string_view>& known = SoftwareComponents();
  for (std::size_t i = 0; i < software.identical_across_nodes.size(); ++i) {
    const std::string& component = software.identical_across_nodes[i];
    if (std::find(known.begin(), known.end(), component) == known.end()) {
      const YAML::Node item = (*fields.Value("identical_across_nodes"))[i];
      reader.Fail(LineOf(item.Mark()), "software.identical_across_nodes[" + std::to_string(i) + "]",
                  "unknown component " + Shown(component) + " (known: " + JoinViews(known) + ")");
    }
  }
  software.pinned = ReadPinnedVersions(reader, fields);
  software.source = reader.NonEmptyString(fields, "source").value_or("");
  if (!software.pinned.empty()) {
    reader.Require(fields, {"source"}, "say where the pinned versions come from, e.g. the vendor's support matrix");
  }
  return software;
}

const ProfileSectionRegistration kRegistration(
    MappingSection<SoftwareExpectation>({"identical_across_nodes", "pinned", "source"}, ReadSoftware));

}  // namespace

const PinnedVersion* SoftwareExpectation::PinFor(std::string_view component, std::string_view model) const {
  const PinnedVersion* any_model = nullptr;
  for (const PinnedVersion& pin : pinned) {
    if (pin.component != component) continue;
    if (!model.empty() && pin.model == model) return &pin;
    if (pin.model.empty()) any_model = &pin;
  }
  return any_model;
}

}  // namespace gpuconform::software
