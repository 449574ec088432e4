// The CUDA P2P probe: nodes/<h>/cuda-p2p.txt (format in cuda_p2p_parse.h), measured
// in-process with the CUDA runtime, loaded with dlopen (libcudart.so.13, .12, .11.0, then
// libcudart.so; from GPUCONFORM_GPU_LIBRARY_DIR when set) so the binary runs where no CUDA
// exists. Contract: no driver (libcuda.so.1) -> kToolMissing "no NVIDIA driver (libcuda.so.1
// not found: <dlerror>)"; cuInit failing -> kFailed quoting the driver ("cuInit(0) failed:
// CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected"); no runtime -> kToolMissing
// naming the libraries tried; a failing call -> the pair gets an error record, the probe goes on.
// It asks cudaDeviceCanAccessPeer for every ordered pair, then times 256 MiB copy-engine
// copies (cudaMemcpyPeerAsync) between every pair with peer access, one way and both ways,
// 2 warm-up then 5 timed iterations with CUDA events, and records the median. It stops
// measuring, saying so, when its time budget is spent. It measures; it never judges.
#pragma once

#include "harness/core/live_source.h"
#include "harness/core/probe.h"

namespace gpuconform::cuda_p2p {

RawOutput CudaP2pOutput(const LiveContext& context);
const ProbeSpec& CudaP2pProbe();  // id "cuda-p2p", file "cuda-p2p.txt", built in

}  // namespace gpuconform::cuda_p2p
