// cuda-p2p.txt: what gpuconform's CUDA runtime probe measured on a node, in record lines
// (harness/util/record_lines.h). Format v1, one record per line:
//   cuda library=libcudart.so.12 runtime_version=12040 driver_version=12040 device_count=8
//       buffer_bytes=268435456 warmup_iterations=2 timed_iterations=5     (one line in the file)
//   device index=0 bus_id=0000:18:00.0
//   access from=0 to=1 peer=yes|no                  cudaDeviceCanAccessPeer, every ordered pair
//   bandwidth mode=unidirectional from=0 to=1 median_gb_per_s=389.21
//   bandwidth mode=bidirectional from=0 to=1 median_gb_per_s=761.02   (from < to; both ways, summed)
//   error from=0 to=1 message="cudaMemcpyPeerAsync: out of memory"     (a pair that could not be measured)
//   stopped reason="time budget of 120 s spent"     (pairs after this line were not measured)
// Bandwidth is cudaMemcpyPeerAsync on the copy engines, GB/s = 1e9 bytes/s, the median of
// the timed iterations (CUDA events) after the warm-up. Only pairs with peer access both ways
// are measured: a copy between others is staged through the host and says nothing of NVLink.
// Parse is pure: text in, P2pReport out, or an error naming origin:line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::cuda_p2p {

using GpuPair = std::pair<int, int>;  // (from, to) device indices

struct P2pReport {
  int device_count = 0;
  long long buffer_bytes = 0;
  std::map<int, std::string> bus_ids;   // device index -> PCI bus id
  std::map<GpuPair, bool> peer_access;  // every ordered pair the probe asked
  std::map<GpuPair, double> unidirectional_gb_per_s;
  std::map<GpuPair, double> bidirectional_gb_per_s;  // from < to
  std::map<GpuPair, std::string> errors;             // pair -> why it could not be measured
  std::string stopped;                               // why measuring stopped early; empty when it did not

  // "GPU 3 (0000:5D:00.0)".
  std::string GpuName(int index) const;
};

Result<P2pReport> ParseCudaP2p(const std::string& text, const std::string& origin);

}  // namespace gpuconform::cuda_p2p
