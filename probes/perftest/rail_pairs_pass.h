// The live pairing pass: ib_write_bw between node pairs on every rail, as rail_pair_plan.h
// plans them, run by the node owners' ranks one round at a time. In each round the servers
// start (`ib_write_bw -d HCA -i PORT -p TCP_PORT -D 5 -F --report_gbits`, then `ib_write_lat`
// on the same rail), the ranks meet, and each client runs the same commands with its server's
// host name: perftest's own handshake then
// travels over the management network, which that name resolves to, never the fabric under
// test. Both sides run under deadlines (a server whose client never comes is killed), a client
// that could not connect tries again until its deadline, and every rank meets the others
// between rounds with a deadline, so a dead peer costs one round, never the run. Rank 0's
// answer is cluster/perftest-rail-pairs.txt (rail_pairs_parse.h). Where no node has an active
// RDMA port, the answer quotes perftest's own words on each node. Where the node has GPUs and
// its perftest was built with CUDA, each side passes --use_cuda=<k> for its k-th active rail
// (GPUDirect RDMA, as an HGX board pairs NIC k with GPU k); otherwise host memory.
#pragma once

#include "harness/core/probe.h"
#include "harness/world/gather.h"

namespace gpuconform::perftest {

RawOutput RunRailPairsPass(const CollectiveContext& context);

}  // namespace gpuconform::perftest
