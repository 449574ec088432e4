// ibverbs.txt: what gpuconform's libibverbs probe (ibverbs_probe.h) read on a node, in record
// lines (harness/util/record_lines.h). Format v1, one record per line:
//   ibverbs library=libibverbs.so.1 device_count=9
//   device name=mlx5_0 vendor_part_id=4129 fw_ver=28.39.1002 phys_port_cnt=1
//   port device=mlx5_0 port=1 state=active phys_state=link_up width=4x speed=NDR link_layer=InfiniBand
//   error device=mlx5_3 message="ibv_open_device: Permission denied"
// state: nop|down|init|armed|active|active_defer (ibv_port_state); phys_state: sleep|polling|
// disabled|port_configuration_training|link_up|link_error_recovery|phy_test; width: 1x|2x|4x|
// 8x|12x; speed: SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR; link_layer: InfiniBand|Ethernet.
// device_count=0 is a node where libibverbs loads but finds no RDMA device.
// Parse is pure: text in, the IbPortReport the other listings give (states in ibstat's words,
// rate = lanes x per-lane rate as ibstat prints it, CA type "MT<vendor_part_id>"), or an error
// naming origin:line.
#pragma once

#include <string>

#include "harness/util/result.h"
#include "probes/ib_tools/ib_tools_parse.h"

namespace gpuconform::ibverbs {

using namespace gpuconform::ib_tools;

Result<IbPortReport> ParseIbverbs(const std::string& text, const std::string& origin);

}  // namespace gpuconform::ibverbs
