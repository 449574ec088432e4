// The profile's `software:` section, owned by the Software suite that reads it: which
// components' versions must agree across the nodes, and the versions the profile pins. Always
// set: the section, else the defaults (nothing listed, nothing pinned: every version is
// recorded only), so the suite reads it with profile.GetOrDefault<SoftwareExpectation>().
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuconform::software {

// A version the profile pins (`software.pinned:`): every node (every device of `model`, for
// firmware) must run it, instead of the majority's version.
struct PinnedVersion {
  std::string component;  // "driver", "vbios", "hca_firmware", ...
  std::string model;      // firmware only: a GPU product name or an HCA's CA type; empty: every model
  std::string version;
};

struct SoftwareExpectation {
  static constexpr char kKey[] = "software";
  // Components whose version must be identical on every node (kernel, driver, cuda, nccl,
  // slurm, munge, mpi, gpuconform) or on every device of one model (vbios, inforom,
  // hca_firmware); a component not listed (nor pinned) is recorded only.
  std::vector<std::string> identical_across_nodes;
  std::vector<PinnedVersion> pinned;
  std::string source;  // where the pinned versions come from (required with pinned)

  // The pinned version of `component` for devices of `model` (a model's own pin first).
  const PinnedVersion* PinFor(std::string_view component, std::string_view model = "") const;
};

}  // namespace gpuconform::software
