// Parsers for Slurm's outputs and configuration: `scontrol show node`, GRES strings,
// hostlists, gres.conf, `squeue` pending-job lines, and gpuconform's slurmd reachability and
// GPU allocation probes. Pure: text in, typed records out,
// or an error naming origin:line. They accept what operators paste: shell prompts and
// other tables around the output, tabs, mixed-case keys.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::slurm {

struct SlurmNode {
  std::string name;
  // Every Key=value of the record. The hosts of one slurm.conf NodeName= line share one map
  // (a line may name 100,000 hosts); Field("NodeName") is each host's own `name`.
  std::shared_ptr<const std::map<std::string, std::string>> fields;
  int line = 0;  // where the record starts, for messages

  std::string Field(const std::string& key) const;
  std::string state() const { return Field("State"); }  // e.g. "IDLE+DRAIN+INVALID_REG"
  std::set<std::string> StateFlags() const;             // {"IDLE", "DRAIN", "INVALID_REG"}
  std::string reason() const { return Field("Reason"); }
  std::vector<std::string> Partitions() const;
};

Result<std::vector<SlurmNode>> ParseScontrolShowNode(const std::string& text, const std::string& origin);
// Upper bound on the hosts a hostlist, or all NodeName= lines of one slurm.conf, may name:
// a typo like [1-999999999] must not eat memory. The fuzz targets pass a smaller cap so the
// same bound is reached in microseconds rather than by building 100,000 strings per input.
inline constexpr std::size_t kMaxHostlistEntries = 100000;

// NodeName= lines of slurm.conf, one SlurmNode per expanded host (State is not set).
Result<std::vector<SlurmNode>> ParseSlurmConfNodes(const std::string& text, const std::string& origin,
                                                   std::size_t max_hosts = kMaxHostlistEntries);

// One entry of a GRES string: "gpu:h100:8(S:0-1)" -> {gpu, h100, 8}.
struct GresEntry {
  std::string name;
  std::string type;  // empty when untyped
  long long count = 0;
};
// "gpu:8", "gpu:h100:8(S:0-1),mps:100", "(null)" (no GRES) -> entries.
Result<std::vector<GresEntry>> ParseGres(const std::string& gres);
long long GpuCount(const std::vector<GresEntry>& entries);
// GPUs per type ("" for untyped): {"h100": 8}.
std::map<std::string, long long> GpuCountByType(const std::vector<GresEntry>& entries);

// "node[1-3],gpu-[01-02]" -> node1 node2 node3 gpu-01 gpu-02. Errors on bad ranges or
// lists longer than max_hosts.
Result<std::vector<std::string>> ExpandHostlist(const std::string& hostlist,
                                                std::size_t max_hosts = kMaxHostlistEntries);

struct GresConfLine {
  int line = 0;
  std::vector<std::string> nodes;  // empty: applies to every node
  std::string name;                // "gpu"
  std::string type;
  long long count = 0;             // Count= or the number of File= devices
  std::string file;                // File= as written
};
struct GresConf {
  std::string autodetect;  // AutoDetect= value ("nvml", "off", ...), empty when unset
  std::vector<GresConfLine> lines;
  // GPUs gres.conf declares for `node`; -1 when no line applies (autodetected or absent).
  long long GpusFor(const std::string& node) const;
  std::map<std::string, long long> GpuTypesFor(const std::string& node) const;
};
Result<GresConf> ParseGresConf(const std::string& text, const std::string& origin);

struct PendingJob {
  std::string job_id;
  std::string partition;
  std::string user;
  std::string reason;  // e.g. "ReqNodeNotAvail, UnavailableNodes:node3"
};
// Lines of `squeue -h -t PD -o "%i|%P|%u|%r"`.
Result<std::vector<PendingJob>> ParsePendingJobs(const std::string& text, const std::string& origin);

// One line "node addr:port ok|failed <error>" of the slurmd-reachable probe: whether the
// node's slurmd accepts connections from rank 0.
struct SlurmdProbeResult {
  std::string node;
  std::string endpoint;  // "10.10.0.2:6818"
  bool reachable = false;
  std::string error;     // "Connection refused"
};
// Every line of three or more words; others are skipped.
std::vector<SlurmdProbeResult> ParseSlurmdReachability(const std::string& text);

// One task of `srun --gpus-per-node=N`: "host devices", as the allocation probe prints it.
struct AllocationTask {
  std::string host;
  std::string visible_devices;  // "0,1,2,3" or "unset"
};
// Every line of two words; others are skipped.
std::vector<AllocationTask> ParseAllocationReport(const std::string& text);

}  // namespace gpuconform::slurm
