// Whether GPUDirect RDMA can work at all on a node, from the three places that say so:
//   - gpuconform's own probe (gpudirect.txt, record lines):
//       gpudirect sysfs_root=/sys proc_root=/proc kernel_release=5.15.0-91-generic
//       module name=nvidia_peermem loaded=1          (one per module of interest, loaded=0 when absent)
//       driver version=535.129.03 open_kernel_module=0 nvrm="NVRM version: NVIDIA UNIX x86_64 Kernel Module ..."
//     modules from /sys/module/<name> (present while the module is loaded), the kernel release from
//     /proc/sys/kernel/osrelease, the driver from /sys/module/nvidia/version and its flavour from
//     /proc/driver/nvidia/version, whose NVRM line says "Open Kernel Module" for the open modules;
//   - `lsmod` output, its first line the "Module  Size  Used by" header;
//   - `lsmod | grep <pattern>` output: module lines without the header, or a shell transcript
//     whose prompt lines ("[root@gpu3 ~]# lsmod | grep nvidia_peermem") say which patterns were
//     searched and on which host. An empty text is a grep that found nothing.
// A peer-memory module (nvidia_peermem, since driver R470; the legacy nv_peer_mem of MLNX_OFED)
// lets the HCA register GPU memory. Without one, NCCL can still use DMA-BUF where the kernel is
// 5.12 or later, the driver R515 or later with the open kernel modules, and NCCL 2.13 or later
// (NCCL_DMABUF_ENABLE, default on). Pure; errors name origin:line; garbage is an error, never a crash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::gpudirect {

inline constexpr char kPeermem[] = "nvidia_peermem";
inline constexpr char kLegacyPeermem[] = "nv_peer_mem";

// The modules the probe records and the parsers keep: the two peer-memory modules, the GPU
// driver, and the RDMA core they attach to.
const std::vector<std::string>& ModulesOfInterest();

struct GpuDirectReport {
  std::string origin;
  std::string format;  // "probe", "lsmod", "lsmod-grep"
  std::string host;    // the host a transcript's prompt names ("gpu3"); empty elsewhere
  std::vector<std::string> loaded;    // modules of interest that are loaded, in ModulesOfInterest order
  std::vector<std::string> searched;  // modules of interest the text says were looked for (loaded or not)
  std::string kernel_release;         // "5.15.0-91-generic"; empty when not recorded
  std::string driver_version;         // "535.129.03"; empty when not recorded
  std::optional<bool> open_kernel_module;  // the NVIDIA driver is the open kernel module flavour

  bool Loaded(const std::string& module) const;
  bool Searched(const std::string& module) const;
  // nvidia_peermem or nv_peer_mem, whichever is loaded; empty when neither is.
  std::string PeerMemoryModule() const;
};

// Any of the three formats, told apart by their first meaningful line.
Result<GpuDirectReport> ParseGpuDirect(const std::string& text, const std::string& origin);

// "5.15.0-91-generic" -> {5, 15}; "535.129.03" -> {535, 129}; nullopt when it does not start
// with two dot-separated numbers.
std::optional<std::pair<int, int>> MajorMinor(const std::string& version);

}  // namespace gpuconform::gpudirect
