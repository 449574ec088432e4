// Software suite's firmware checks: the GPUs' VBIOS and InfoROM image and the HCAs' firmware
// identical on every device of one model across the cluster. A node whose GPUs kept an older
// VBIOS, or one HCA that missed a firmware roll-out, passes every configuration check and
// still fails jobs in ways no single node shows (NVLink training, RDMA timeouts). Devices are
// compared only with devices of their own model: two HCA models in one fleet run two
// firmware lines by design. The expected version is the profile's pin for the model
// (software.pinned), else the version most devices of that model run. Pure: every node's
// reading (facts/firmware_facts.h) + profile in, one cluster-wide judgement out.
#pragma once

#include <map>
#include <string>

#include "facts/firmware_facts.h"
#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "suites/software/software_profile.h"

namespace gpuconform::software {

struct FirmwareComponent {
  std::string key;      // the profile's name: "vbios", "inforom", "hca_firmware"
  std::string label;    // in messages: "VBIOS", "InfoROM image", "HCA firmware"
  std::string check;    // "VbiosVersionIdentical"
  bool on_gpus = true;  // GPUs (not applicable without GPUs), else HCAs (without InfiniBand)
  std::string fix;      // how an operator brings a device to the expected version
};

CheckResult CheckFirmwareIdentical(const FirmwareComponent& component,
                                   const std::map<std::string, facts::FirmwareReading>& readings,
                                   const Profile& profile);

}  // namespace gpuconform::software
