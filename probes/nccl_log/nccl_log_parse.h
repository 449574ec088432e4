// Parser for NCCL_DEBUG=INFO logs (NCCL 2.1x-2.2x): every rank of a multi-node run
// interleaved, with other program output (nccl-tests tables, PyTorch, MPI) mixed in.
// Pure and bounded: lines in (a LineSource: one pass, one line held at a time, so a log of
// gigabytes is never in memory whole), the facts the transport checks need out; lines it does
// not recognise are ignored, each kind of fact is capped (so the facts of any log stay
// bounded) and counted past the cap. No regular expressions: a hostile line cannot make the
// parser recurse or backtrack. The errors are a source that could not be read to its end and
// a log with no NCCL output at all.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/line_source.h"
#include "harness/util/result.h"

namespace gpuconform::nccl_log {

// Where a line came from: NCCL prefixes its lines with "host:pid:tid [cudaDev]".
struct Source {
  int line = 0;  // 1-based line number in the log
  std::string host;
  int pid = -1;
  int cuda_dev = -1;
};

enum class TransportKind { kNet, kP2p, kShm, kNvls, kCollNet, kOther };
const char* TransportKindName(TransportKind kind);

// "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA" (and the older "Channel 00 :" and
// "Ring 00 :" forms).
struct Channel {
  Source source;
  std::string channel;   // "00/0" or "00"
  int from_rank = -1;
  int to_rank = -1;
  std::string direction;  // "send", "receive" or empty
  std::string via;        // everything after "via ", e.g. "NET/IB/0/GDRDMA", "P2P/CUMEM/read"
  TransportKind kind = TransportKind::kOther;
  std::string net;        // for kNet: the network name, "IB", "Socket", "IBext_v8", "AWS Libfabric"
  bool gdr = false;       // via contains /GDRDMA
};

struct NetDevice {
  std::string name;        // "mlx5_0" or, for sockets, "eth0"
  std::string port;        // "1" for IB devices; empty for sockets
  std::string link_layer;  // "IB", "RoCE", or empty for sockets
  std::string address;     // sockets: "10.0.0.4<0>"
};

// "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.4<0>" or
// "NET/Socket : Using [0]eth0:10.0.0.4<0>".
struct NetInit {
  Source source;
  std::string net;  // "IB", "Socket", ...
  std::vector<NetDevice> devices;
  std::string oob_ifname;  // the socket interface of the IB out-of-band connection
};

struct SourcedText {
  Source source;
  std::string text;  // "IB" for "Using network IB"; "IB" for "NET/IB : No device found"; the interface of "Bootstrap : Using eth0:..."
};

// Whether an HCA can take GPU memory: the topology's "NET/IB : GPU Direct RDMA Enabled for HCA 0
// 'mlx5_0'" (or Disabled, with any reason NCCL or a plugin adds in parentheses, "(no module)"),
// and the IB transport's "NET/IB : GPU Direct RDMA (nvidia-peermem) enabled for HCA 0 'mlx5_0"
// and "(DMABUF) enabled" (NCCL 2.19 and later, and the RDMA plugin; no closing quote).
struct GdrStatus {
  Source source;
  std::string hca;
  bool enabled = false;
  std::string mechanism;  // "nvidia-peermem", "DMABUF", or empty for the topology's summary line
  std::string reason;     // what a Disabled line gives in parentheses after the HCA, e.g. "no module"
};

// NCCL's decision for one GPU and one NIC (ncclTopoCheckGdr): "GPU Direct RDMA Enabled for GPU
// 81000 / HCA 1 (distance 6 <= 7), read 0" or "... Disabled for GPU ca000 / HCA 0 (distance 7 > 4)"
// (older: "NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 1 (distance 4 >= 3)"). The
// distance is NCCL's path type, compared with NCCL_NET_GDR_LEVEL (default PXB); its numbering
// changes between NCCL versions, so GpuNetPath names it.
struct GdrPath {
  Source source;
  std::string gpu;  // as NCCL prints it: a bus id ("81000"), a rank or a cudaDev
  std::string hca;  // the NIC's index (or, in NCCL 2.2x, its net id in hex)
  bool enabled = false;
  int distance = -1;
  int threshold = -1;
};

// The path type between a GPU and a NET in the topology NCCL prints (NCCL_DEBUG_SUBSYS=GRAPH):
// "GPU/81000 :GPU/81000 (0/5000.000000/LOC) CPU/1 (1/24.000000/PHB) NET/1 (3/24.000000/PHB)".
struct GpuNetPath {
  Source source;
  std::string gpu;   // "81000"
  std::string net;   // "1"
  std::string type;  // "PIX", "PXB", "PHB", "SYS", ...
};

struct EnvSetting {  // "NCCL_IB_DISABLE set by environment to 1."
  Source source;
  std::string name;
  std::string value;
};

// A rank's identity: "ncclCommInitRank comm 0x.. rank 3 nranks 16 cudaDev 3 ..." or
// "comm 0x.. rank 3 nRanks 16 nNodes 2 localRanks 8 localRank 3".
struct RankIdentity {
  Source source;
  int rank = -1;
  int nranks = -1;
  int nnodes = -1;
};

// A warning or error: NCCL WARN lines and the error signatures NCCL, PyTorch and the C++
// runtime print (ncclRemoteError, ncclSystemError, watchdog timeouts, crashes).
struct Problem {
  Source source;
  std::optional<int> rank;  // when the line (or the line it continues) names one
  std::string kind;         // "warn", "remote-error", "system-error", "internal-error", "cuda-error",
                            // "invalid-usage", "timeout", "nccl-error", "crash"
  std::string text;         // the line, trimmed and capped
};

// Caps per kind of fact; past a cap facts are counted in `dropped`, not stored.
inline constexpr std::size_t kMaxChannels = 100000;
inline constexpr std::size_t kMaxFactsPerKind = 20000;
inline constexpr std::size_t kMaxProblems = 2000;
inline constexpr std::size_t kMaxLineBytes = 8192;  // longer lines are judged on their first 8 KiB
inline constexpr std::size_t kMaxFieldBytes = 128;  // each kept text (host, via, value) is clipped to this
inline constexpr std::size_t kMaxDevicesPerInit = 64;  // devices kept from one "NET/... : Using" line

struct NcclLog {
  std::size_t lines = 0;
  std::size_t nccl_lines = 0;  // lines NCCL printed (INFO/WARN) or "NCCL version"
  std::vector<std::string> versions;  // "2.21.5+cuda12.4", distinct
  std::vector<Channel> channels;
  std::vector<NetInit> net_inits;
  std::vector<SourcedText> networks;    // "Using network X"
  std::vector<SourcedText> no_device;   // "NET/X : No device found"
  std::vector<SourcedText> bootstraps;  // "Bootstrap : Using IF:ADDR"
  std::vector<GdrStatus> gdr;
  std::vector<GdrPath> gdr_paths;
  std::vector<GpuNetPath> gpu_net_paths;
  std::vector<EnvSetting> env;
  std::vector<RankIdentity> ranks;
  std::vector<Problem> problems;
  bool nvls_connected = false;     // "Connected NVLS" / "NVLS comm": NVLink SHARP in use
  bool collnet_connected = false;  // "Connected CollNet" / "CollNet ... enabled"
  std::size_t dropped = 0;         // facts beyond the caps
  // The line number of a last line without its newline when the log has others: the log
  // was cut off inside it, so it is not judged. 0 when the log ends with a whole line.
  int cut_last_line = 0;

  // Who is who, from the identity and channel lines; ParseNcclLog fills these via BuildIndex.
  std::map<std::string, int> rank_by_source;  // "host:pid:cudaDev" -> rank
  std::map<int, std::string> host_by_rank;
  void BuildIndex();

  // The rank that printed a line (by host, pid, cudaDev); nullopt if unknown.
  std::optional<int> RankOf(const Source& source) const;
  std::optional<std::string> HostOfRank(int rank) const;
};

// The facts of every line `lines` gives, in one pass.
Result<NcclLog> ParseNcclLog(LineSource& lines, const std::string& origin);
// The same over a text held whole (fuzzing, tests, a small output).
Result<NcclLog> ParseNcclLog(std::string_view text, const std::string& origin);

// Network family: "IBext_v8" and other HPC-X/plugin IB transports are "IB".
std::string NetFamily(std::string_view net);

}  // namespace gpuconform::nccl_log
