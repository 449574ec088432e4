// Probes: the only code that touches the outside world. A probe returns raw material
// exactly as the tool printed it, so that a snapshot is just those outputs on disk.
// Contract (leveldb's Env as the model): one ProbeSource interface; LiveSource runs the
// commands on this node, SnapshotSource answers from a snapshot directory (layout v1).
// A source never throws and never hangs: every failure is a RawOutput with a status.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/reason_code.h"

namespace gpuconform {

struct CollectiveContext;  // harness/world/gather.h: a collective probe includes it
struct LiveContext;        // live_source.h
struct Profile;            // profile.h
struct RawOutput;

// A command and its deadline, as a profile chooses them (ProbeSpec::command_from_profile).
struct ProbeCommand {
  std::vector<std::string> argv;
  int timeout_ms = 15000;
};

enum class ProbeScope {
  kNode,     // one answer per node: nodes/<host>/<file>
  kCluster,  // one answer for the cluster, taken on rank 0: cluster/<file>
};

// How a live source obtains the raw output.
enum class ProbeMethod {
  kCommand,   // run argv
  kReadFile,  // read path (e.g. /proc/sys/kernel/osrelease)
  kBuiltin,   // computed in-process by the live source (library versions, the run's env)
  kCollective,  // needs the ranks to talk (credential exchange, bandwidth): see gather.h
};

struct ProbeSpec {
  std::string id;    // stable name, also the snapshot file name without directory
  ProbeScope scope = ProbeScope::kNode;
  ProbeMethod method = ProbeMethod::kCommand;
  std::vector<std::string> argv;  // kCommand
  std::string path;               // kReadFile
  int timeout_ms = 15000;
  // kCommand tools that talk to the node's own devices: a path that exists while their driver
  // is loaded ("/proc/driver/nvidia"). Such a tool passing its deadline there is a wedged
  // device (os_error.h), and the tool is not started again on the node in the same run.
  std::string device_driver;
  std::string file;  // snapshot file name, e.g. "nvidia-smi-topo-m.txt"
  // kCollective: called on every rank, in the same order, during the live gather; returns
  // this node's raw output (kept from the lowest rank on each node). Node scope only.
  std::function<RawOutput(const CollectiveContext&)> collective;
  // kBuiltin: computes the output in-process on the node (library calls, device files).
  std::function<RawOutput(const LiveContext&)> builtin;
  // kCommand whose options are the profile's (dcgmi diag's level): the live source runs what
  // this returns for the run's profile (null where a capture has none) instead of argv, under
  // the smaller of its deadline and timeout_ms (a health check's budget shortens the latter);
  // nullopt: the profile does not ask for the tool, which is then not run ("absent", saying so).
  std::function<std::optional<ProbeCommand>(const Profile*)> command_from_profile;
  // An output that can outgrow memory (the logs of long jobs): a snapshot, or an operator's file
  // read on rank 0, answers with RawOutput::file instead of the text, and its reader streams it
  // line by line (harness/core/raw_lines.h).
  bool large_output = false;
  // It measures, loads the GPUs or talks to other nodes (a collective, DCGM's diagnostic): never
  // run by a health check, which must stay cheap and passive on a node that runs jobs.
  bool active = false;
};

enum class ProbeStatus {
  kOk,           // text holds the output
  kAbsent,       // the snapshot has no such file
  kToolMissing,  // the command or library does not exist on the node
  kTimedOut,     // the command passed its deadline and was killed
  kFailed,       // the command exited non-zero or the file could not be read
};

const char* ProbeStatusName(ProbeStatus status);
// The catalogue code for a probe that did not give its output (any status but kOk).
ReasonCode ProbeStatusReason(ProbeStatus status);

// The four ways to define a probe, so that suites state only what differs.
ProbeSpec CommandProbe(std::string id, ProbeScope scope, std::string file, std::vector<std::string> argv,
                       int timeout_ms = 15000);
ProbeSpec FileProbe(std::string id, ProbeScope scope, std::string file, std::string path);
ProbeSpec BuiltinProbe(std::string id, ProbeScope scope, std::string file,
                       std::function<RawOutput(const LiveContext&)> run);
ProbeSpec CollectiveProbe(std::string id, std::string file, std::function<RawOutput(const CollectiveContext&)> run);

// A command probe whose argv and deadline `command` chooses from the run's profile
// (ProbeSpec::command_from_profile); `fallback` is what messages and docs show.
ProbeSpec ProfileCommandProbe(std::string id, ProbeScope scope, std::string file, ProbeCommand fallback,
                              std::function<std::optional<ProbeCommand>(const Profile*)> command);

// Paths that exist while the drivers of the node's devices are loaded (ProbeSpec::device_driver).
inline constexpr char kNvidiaDriverLoaded[] = "/proc/driver/nvidia";
inline constexpr char kInfinibandDriverLoaded[] = "/sys/class/infiniband";
// `spec` as a tool that talks to the devices whose driver `driver_path` shows loaded.
ProbeSpec TalksToDevices(ProbeSpec spec, std::string driver_path);
// `spec` as an active probe (ProbeSpec::active).
ProbeSpec Active(ProbeSpec spec);

// Appends `spec` unless a probe with its id is already there: several suites read one probe,
// and each probe runs (and is recorded) once.
void AddProbeOnce(std::vector<ProbeSpec>& probes, const ProbeSpec& spec);

// The probes of several groups (a fact reader's probes, then a suite's own), each once by id,
// in order.
std::vector<ProbeSpec> JoinProbes(std::initializer_list<std::vector<ProbeSpec>> groups);

struct RawOutput {
  ProbeStatus status = ProbeStatus::kAbsent;
  std::string text;    // stdout (or file contents); kept for kFailed too, tools explain on stdout
  std::string origin;  // where it came from, for messages: "node1: `uname -r`" or a file path
  std::string detail;  // for non-ok: what went wrong, naming the command and node
  // kOk with `text` empty: the output is this file's content, too large to hold (a probe with
  // ProbeSpec::large_output). Readers stream it with RawLines; it is read where it was taken,
  // on rank 0 or from the snapshot, never sent between ranks.
  std::string file{};  // braced so the outputs built from four fields need not name it

  bool ok() const { return status == ProbeStatus::kOk; }
};

class ProbeSource {
 public:
  virtual ~ProbeSource() = default;
  // The nodes this source can answer node-scope probes for.
  virtual std::vector<std::string> Nodes() const = 0;
  virtual RawOutput Fetch(const ProbeSpec& spec, const std::string& node) = 0;
};

}  // namespace gpuconform
