#include "probes/dcgm/dcgm_probes.h"

#include <string>

#include "harness/core/snapshot_only_probe.h"
#include "probes/dcgm/dcgm_profile.h"

namespace gpuconform::dcgm {

int DiagTimeoutMs(int level) {
  constexpr int kMinuteMs = 60 * 1000;
  switch (level) {
    case 1: return 2 * kMinuteMs;
    case 2: return 5 * kMinuteMs;
    case 3: return 40 * kMinuteMs;
    default: return 90 * kMinuteMs;
  }
}

std::optional<ProbeCommand> DcgmDiagCommand(const Profile* profile) {
  if (profile != nullptr && !profile->Get<DcgmExpectation>()) return std::nullopt;
  const DcgmExpectation dcgm = profile == nullptr ? DcgmExpectation{} : *profile->Get<DcgmExpectation>();
  ProbeCommand command{{dcgm.dcgmi, "diag", "-r", std::to_string(dcgm.level), "-j"}, DiagTimeoutMs(dcgm.level)};
  if (!dcgm.parameters_file.empty()) {
    command.argv.push_back("-c");
    command.argv.push_back(dcgm.parameters_file);
  }
  return command;
}

const ProbeSpec& DcgmDiagJsonProbe() {
  // The longest level's deadline is the ceiling; the profile's level sets the real one.
  static const ProbeSpec kSpec = Active(ProfileCommandProbe(
      "dcgmi-diag-json", ProbeScope::kNode, "dcgmi-diag.json",
      {{"dcgmi", "diag", "-r", "1", "-j"}, DiagTimeoutMs(4)}, DcgmDiagCommand));
  return kSpec;
}

const ProbeSpec& DcgmDiagTextProbe() {
  static const ProbeSpec kSpec = Active(SnapshotOnlyProbe("dcgmi-diag-text", "dcgmi-diag.txt", "dcgmi diag"));
  return kSpec;
}

const ProbeSpec& DcgmNvlinkStatusProbe() {
  static const ProbeSpec kSpec = SnapshotOnlyProbe("dcgmi-nvlink-s", "dcgmi-nvlink-s.txt", "dcgmi nvlink -s");
  return kSpec;
}

}  // namespace gpuconform::dcgm
