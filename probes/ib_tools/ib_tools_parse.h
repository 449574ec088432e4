// Parsers of the InfiniBand port listings a node can give: `ibstat` (the snapshot's
// ibstat.txt), `ibv_devinfo -v` (ibv_devinfo.txt), and, because operators paste them, the
// `ibstatus` and `ibdev2netdev` formats. Pure: text in, one IbPortReport out (the format is
// recognised from the text), or an error naming origin:line. States are normalised to
// ibstat's words (Active, Down, LinkUp, Polling, ...); what a format does not show (rate in
// ibdev2netdev, port state in ibdev2netdev) stays unset. No byte string makes it crash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::ib_tools {

// kIbverbs: gpuconform's own libibverbs probe (ibverbs.txt, parsed by ibverbs_parse.h).
enum class PortListingFormat { kIbstat, kIbstatus, kIbvDevinfo, kIbdev2netdev, kIbverbs };
const char* PortListingFormatName(PortListingFormat format);  // "ibstat", ...

struct IbPort {
  std::string ca;       // "mlx5_0"
  int port = 1;
  std::string ca_type;  // "MT4129" (ConnectX-7); empty when the format does not say
  std::string state;           // "Active", "Down", "Initializing", "Armed"; empty if not shown
  std::string physical_state;  // "LinkUp", "Polling", "Disabled", "Sleep", ...; empty if not shown
  std::optional<double> rate_gbit_per_s;
  std::string link_layer;  // "InfiniBand" or "Ethernet"
  std::string netdev;      // ibdev2netdev: "ibp24s0"
  std::string netdev_state;  // ibdev2netdev: "Up"/"Down" of the netdev, not of the port
  int line = 0;            // where the port's record starts
  // The HCA's firmware (ibstat "Firmware version:", ibv_devinfo "fw_ver:"), the same on every
  // port of one CA; empty where the format does not show it (ibstatus, ibdev2netdev).
  std::string firmware_version;

  std::string Name() const { return ca + " port " + std::to_string(port); }
};

struct IbPortReport {
  PortListingFormat format = PortListingFormat::kIbstat;
  std::vector<IbPort> ports;
  std::string tool_error;  // e.g. ibstat's "ibpanic: ... stat of IB device 'mlx5_8' failed"

  // Whether the format shows the port's own state and rate (ibdev2netdev does not).
  bool ShowsPortState() const { return format != PortListingFormat::kIbdev2netdev; }
};

Result<IbPortReport> ParseIbPorts(const std::string& text, const std::string& origin);

}  // namespace gpuconform::ib_tools
