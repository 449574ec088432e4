// InfiniBand.GpuDirectRdmaAvailable: whether GPUDirect RDMA can work at all on a node. The HCA
// reads and writes GPU memory only through a peer-memory module (nvidia_peermem, or the legacy
// nv_peer_mem) or DMA-BUF (Linux 5.12+, NVIDIA driver R515+ with the open kernel modules, NCCL
// 2.13+, NCCL_DMABUF_ENABLE not 0); without either, NCCL stages every inter-node transfer
// through host memory. Where the run holds an NCCL_DEBUG=INFO log, NCCL's own lines for the node
// cross-check the facts: an HCA it disabled GDR for, a GPU it disabled GDR for towards every
// NIC (distance above NCCL_NET_GDR_LEVEL), and GDR enabled only because NCCL_NET_GDR_LEVEL was
// raised past its default PXB (a pass, with a warning measurement). Pure: facts and log in.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/gpudirect/gpudirect_parse.h"
#include "probes/nccl_log/nccl_log_parse.h"

namespace gpuconform::infiniband {

GPUCONFORM_CHECK_NAME(GpuDirectRdmaAvailable);

// Why the check does not apply: no InfiniBand, no GPUs, or a profile that does not ask for
// GPUDirect RDMA (nccl.gpudirect_rdma: false). nullopt when it applies.
std::optional<std::string> GpuDirectSkipReason(const Profile& profile);

// `log` is the run's NCCL log, or null with `no_log` saying why there is none.
CheckResult CheckGpuDirectRdmaAvailable(const std::string& node, const gpudirect::GpuDirectReport& report,
                                        const nccl_log::NcclLog* log, const std::string& no_log);

}  // namespace gpuconform::infiniband
