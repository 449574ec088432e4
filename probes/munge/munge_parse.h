// Parsers for what the Munge suite's probes write, and for munge's own messages.
// Pure: text in, typed facts out, or an error naming the origin and line. Every parser
// accepts exactly the format its probe writes and rejects anything else (a truncated or
// foreign file is an error, never a guess). Also here: where munge's socket and key live
// (env, slurm.conf, defaults), as a pure function of what the caller read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform::munge {

// munge-key.digest: "nonce <64 hex>\nhmac-sha256 <64 hex>\n".
struct KeyDigest {
  std::string nonce_hex;
  std::string hmac_hex;
};
Result<KeyDigest> ParseKeyDigest(const std::string& text, const std::string& origin);

// munge-key-stat.txt: "path <p>\nowner <user>\ngroup <group>\nmode <octal>\nsize_bytes <n>\n".
struct KeyStat {
  std::string path;
  std::string owner;
  std::string group;
  unsigned mode = 0;  // permission bits only (07777)
  long long size_bytes = 0;
};
Result<KeyStat> ParseKeyStat(const std::string& text, const std::string& origin);

// One line "from <node>: status=<status> exit=<code> <message>" of munge-decode.txt:
// this node's unmunge of <node>'s credential. exit is unmunge's exit status (munge's
// error number); -1 means unmunge gave no verdict (no credential, timeout, not installed).
struct DecodeAttempt {
  std::string from_node;
  std::string status;  // "Success", "Invalid credential", ... or why it was not decoded
  int exit_code = -1;
  std::string message;  // unmunge's STATUS line or first stderr line
};

// munge-decode.txt: the node's own `munge -n`, then its decodes of every node's credential:
//   socket <path>
//   encode: ok | encode: failed <munge's error>
//   nodes <n>
//   from <node>: ...            (n lines)
struct DecodeReport {
  std::string socket_path;
  bool encode_ok = false;
  std::string encode_failure;  // munge's own error text when !encode_ok
  std::vector<DecodeAttempt> attempts;
};
Result<DecodeReport> ParseDecodeReport(const std::string& text, const std::string& origin);
std::string FormatDecodeAttempt(const DecodeAttempt& attempt);  // the "from ..." line, no newline

// clock.txt: "epoch_ns <n>\n" — CLOCK_REALTIME in nanoseconds.
Result<long long> ParseClockReading(const std::string& text, const std::string& origin);

// What unmunge said about one credential, from its exit status and output. The status is
// munge's STATUS text ("Success", "Invalid credential"), found in the STATUS line, else in
// stderr ("unmunge: Error: Invalid credential"), else from the exit status.
struct UnmungeVerdict {
  std::string status;
  std::string message;  // the line worth quoting: STATUS line or first stderr line
};
UnmungeVerdict InterpretUnmunge(int exit_code, std::string_view stdout_text, std::string_view stderr_text);

// munge's name for one of its error numbers (munge.h), e.g. 14 -> "Invalid credential".
std::optional<std::string> MungeErrorName(int code);

// A munge failure found in free text: tool stderr, slurmctld/slurmd logs, systemctl output.
enum class MungeFailure {
  kSocketUnreachable,    // 'Failed to access "<socket>"': munged not running, or another socket
  kDaemonFailed,         // munged refused to start or its service failed
  kInvalidCredential,    // decoded with another key
  kExpiredCredential,    // older than its TTL: the encoder's clock is behind
  kRewoundCredential,    // from the future: the encoder's clock is ahead
  kReplayedCredential,   // decoded twice
  kUnauthorizedCredential,
  kMalformedCredential,  // damaged in transit, or not a credential
};
struct MungeFailureLine {
  MungeFailure kind;
  std::string line;  // trimmed, as printed
  int line_number = 0;  // 1-based
};
// The first line of `text` that names a munge failure; nullopt when there is none.
std::optional<MungeFailureLine> FindMungeFailure(std::string_view text);
MungeFailure ClassifyMungeStatus(int exit_code, std::string_view status);

// Where munge listens and keeps its key, and why we think so (for messages).
struct MungePaths {
  std::string socket_path;
  std::string socket_source;  // "GPUCONFORM_MUNGE_SOCKET", "AuthInfo in <slurm.conf>", "munge's default"
  std::string key_path;
  std::string key_source;
};
inline constexpr char kDefaultSocketPath[] = "/run/munge/munge.socket.2";
inline constexpr char kDefaultKeyPath[] = "/etc/munge/munge.key";
inline constexpr char kDefaultSlurmConf[] = "/etc/slurm/slurm.conf";

// The `socket=` option of slurm.conf's AuthInfo (the last AuthInfo line wins), if any.
std::optional<std::string> ParseAuthInfoSocket(std::string_view slurm_conf_text);
// Empty environment values count as unset. slurm_conf_text is the file at SlurmConfPath,
// or nullopt when it could not be read.
MungePaths ResolveMungePaths(const std::optional<std::string>& env_socket, const std::optional<std::string>& env_key,
                             const std::string& slurm_conf_path, const std::optional<std::string>& slurm_conf_text);
std::string SlurmConfPath(const std::optional<std::string>& env_slurm_conf);

}  // namespace gpuconform::munge
