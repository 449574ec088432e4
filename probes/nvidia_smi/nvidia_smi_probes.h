// The nvidia-smi probes whose outputs this folder's parsers read. Their snapshot file names are
// part of the snapshot layout v1 contract (architecture §2). nvidia-smi can take tens of seconds
// on a node with a wedged GPU; that is what their deadline is for.
#pragma once

#include "harness/core/probe.h"

namespace gpuconform::nvidia_smi {

ProbeSpec NvidiaSmiQueryXml();          // nodes/<h>/nvidia-smi-q.xml       nvidia-smi -q -x
ProbeSpec NvidiaSmiQueryText();         // nodes/<h>/nvidia-smi-q.txt       nvidia-smi -q (snapshots only: live runs read -x)
ProbeSpec NvidiaSmiTopoMatrix();        // nodes/<h>/nvidia-smi-topo-m.txt  nvidia-smi topo -m
const ProbeSpec& NvlinkStatusProbe();  // nodes/<h>/nvidia-smi-nvlink-s.txt nvidia-smi nvlink -s
const ProbeSpec& NvlinkErrorsProbe();  // nodes/<h>/nvidia-smi-nvlink-e.txt nvidia-smi nvlink -e

}  // namespace gpuconform::nvidia_smi
