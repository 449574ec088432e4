// `dcgmi nvlink --link-status` (-s; dcgmi/Nvlink.cpp): each GPU's and NVSwitch's NVLink states,
// one character per link in link order:
//   +----------------------+
//   |  NvLink Link Status  |
//   +----------------------+
//   GPUs:
//       gpuId 0:
//           U U U D ...
//   NvSwitches:
//       No NvSwitches found.        (or "physicalId 8:" and its row)
//   Key: Up=U, Down=D, Disabled=X, Not Supported=_
// With --show-entity-ids a "Link Entities: ..." line follows each row; it is skipped. Whether
// a link should be up is the topology's business, not this parser's: a bridge-less PCIe card
// legitimately shows every link down. Pure; errors name origin:line; garbage is an error.
#pragma once

#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::dcgm {

enum class NvlinkState { kUp, kDown, kDisabled, kNotSupported };

struct NvlinkDevice {
  int id = 0;                       // gpuId, or the NVSwitch's physicalId
  std::vector<NvlinkState> links;   // index = link number

  int CountIn(NvlinkState state) const;
};

struct DcgmNvlinkStatus {
  std::string origin;
  std::vector<NvlinkDevice> gpus;
  std::vector<NvlinkDevice> nvswitches;
  std::vector<std::string> errors;  // "Error: Unable to retrieve NvLink link status from DCGM. ..."
};

Result<DcgmNvlinkStatus> ParseDcgmNvlinkStatus(const std::string& text, const std::string& origin);

}  // namespace gpuconform::dcgm
