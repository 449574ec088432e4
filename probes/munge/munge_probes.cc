#include "probes/munge/munge_probes.h"

#include <fcntl.h>
#include <grp.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pwd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "harness/core/process_runner.h"
#include "harness/util/text_util.h"

namespace gpuconform::munge {

namespace {

constexpr std::size_t kNonceBytes = 32;

std::optional<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh nonce per run, so a digest recorded in one run cannot be replayed as another's.
std::string RandomNonceHex() {
  std::array<unsigned char, kNonceBytes> bytes{};
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  if (!urandom.read(reinterpret_cast<char*>(bytes.data()), bytes.size())) {
    std::random_device device;
    for (auto& byte : bytes) byte = static_cast<unsigned char>(device());
  }
  return ToHex({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

RawOutput Output(ProbeStatus status, const std::string& origin, std::string text, std::string detail) {
  RawOutput out;
  out.status = status;
  out.origin = origin;
  out.text = std::move(text);
  out.detail = std::move(detail);
  return out;
}

std::string OneLine(std::string_view text) {
  for (auto line : SplitLines(text)) {
    if (!Trim(line).empty()) return std::string(Trim(line));
  }
  return "";
}

std::string ErrnoText(int error) {
  std::string text = std::strerror(error);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

std::string KeyAccessAdvice(int error) {
  if (error != EACCES && error != EPERM) return "";
  return " (gpuconform runs as uid " + std::to_string(geteuid()) +
         "; the key is normally 0400 munge:munge): run gpuconform as root to compare keys, or rely on "
         "Munge.CredentialsDecodeAcrossNodes, which needs no access to the key";
}

// Reads the key and digests it in one place, so the key bytes live in one buffer that is
// wiped before returning; no path out of here carries them.
RawOutput DigestKeyFile(const std::string& host, const MungePaths& paths, const std::string& nonce_hex) {
  const std::string origin = host + ": HMAC-SHA256 of " + paths.key_path;
  const auto nonce = FromHex(nonce_hex);
  if (nonce_hex.size() != kNonceBytes * 2 || !nonce) {
    return Output(ProbeStatus::kFailed, origin, "", host + ": rank 0 shared no usable nonce for the key digest");
  }
  const int fd = open(paths.key_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    return Output(error == ENOENT ? ProbeStatus::kToolMissing : ProbeStatus::kFailed, origin, "",
                  host + ": cannot read the MUNGE key " + paths.key_path + " (" + paths.key_source +
                      "): " + ErrnoText(error) + KeyAccessAdvice(error));
  }
  std::vector<unsigned char> key;
  std::array<unsigned char, 4096> chunk{};
  int read_error = 0;
  for (;;) {
    const ssize_t got = read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) read_error = errno;
    if (got <= 0) break;
    key.insert(key.end(), chunk.begin(), chunk.begin() + got);
  }
  close(fd);
  OPENSSL_cleanse(chunk.data(), chunk.size());
  std::string hmac;
  if (read_error == 0) hmac = HmacSha256Hex({reinterpret_cast<const char*>(key.data()), key.size()}, *nonce);
  OPENSSL_cleanse(key.data(), key.size());
  if (read_error != 0) {
    return Output(ProbeStatus::kFailed, origin, "",
                  host + ": cannot read the MUNGE key " + paths.key_path + ": " + ErrnoText(read_error) +
                      KeyAccessAdvice(read_error));
  }
  if (hmac.empty()) return Output(ProbeStatus::kFailed, origin, "", host + ": HMAC-SHA256 failed in OpenSSL");
  return Output(ProbeStatus::kOk, origin, "nonce " + nonce_hex + "\nhmac-sha256 " + hmac + "\n", "");
}

std::string UserName(uid_t uid) {
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->pw_name;
  return std::to_string(uid);
}

std::string GroupName(gid_t gid) {
  std::vector<char> buffer(16384);
  group entry{};
  group* found = nullptr;
  if (getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->gr_name;
  return std::to_string(gid);
}

// The lowest rank of every host, by host name: the ranks whose credentials count.
std::map<std::string, int> NodeOwnerRanks(const std::vector<std::string>& rank_hosts) {
  std::map<std::string, int> owners;
  for (int rank = 0; rank < static_cast<int>(rank_hosts.size()); ++rank) owners.emplace(rank_hosts[rank], rank);
  return owners;
}

struct Encoded {
  std::string credential;  // empty when encoding failed
  std::string encode_line;  // "encode: ok" or "encode: failed <munge's words>"
  std::optional<RawOutput> tool_missing;
};

Encoded EncodeCredential(const std::string& host, const MungePaths& paths) {
  const std::vector<std::string> argv = {"munge", "-n", "-S", paths.socket_path};
  const CommandResult run = RunCommand(argv, std::chrono::milliseconds(kMungeCommandTimeoutMs));
  Encoded encoded;
  switch (run.outcome) {
    case CommandOutcome::kNotFound:
      encoded.tool_missing = Output(ProbeStatus::kToolMissing, host + ": `" + CommandText(argv) + "`", "",
                                    host + ": `munge` is not installed (not found on PATH)");
      return encoded;
    case CommandOutcome::kTimedOut:
      encoded.encode_line = "encode: failed `" + CommandText(argv) + "` did not finish within " +
                            std::to_string(kMungeCommandTimeoutMs / 1000) + " s (munged hung?)";
      return encoded;
    case CommandOutcome::kSpawnFailed:
      encoded.encode_line = "encode: failed " + OneLine(run.error);
      return encoded;
    case CommandOutcome::kExited: break;
  }
  const std::string credential(Trim(run.stdout_text));
  if (run.exit_code != 0 || credential.empty()) {
    const std::string said = OneLine(run.stderr_text);
    encoded.encode_line = "encode: failed " + (said.empty() ? "munge -n exited with status " + std::to_string(run.exit_code) : said);
    return encoded;
  }
  encoded.credential = credential;
  encoded.encode_line = "encode: ok";
  return encoded;
}

DecodeAttempt DecodeCredential(const std::string& from_node, const std::string& credential, const MungePaths& paths) {
  if (credential.empty()) {
    return {from_node, "no credential", -1, from_node + "'s munge -n failed (see Munge.DaemonReachable/" + from_node + ")"};
  }
  const std::vector<std::string> argv = {"unmunge", "-S", paths.socket_path};
  const CommandResult run = RunCommand(argv, std::chrono::milliseconds(kMungeCommandTimeoutMs), credential + "\n");
  switch (run.outcome) {
    case CommandOutcome::kNotFound: return {from_node, "unmunge not installed", -1, "`unmunge` not found on PATH"};
    case CommandOutcome::kTimedOut:
      return {from_node, "timed out", -1,
              "`" + CommandText(argv) + "` did not finish within " + std::to_string(kMungeCommandTimeoutMs / 1000) + " s"};
    case CommandOutcome::kSpawnFailed: return {from_node, "not run", -1, OneLine(run.error)};
    case CommandOutcome::kExited: break;
  }
  if (run.exit_code < 0) return {from_node, "killed", -1, "unmunge ended without an exit status"};
  const UnmungeVerdict verdict = InterpretUnmunge(run.exit_code, run.stdout_text, run.stderr_text);
  return {from_node, verdict.status, run.exit_code, OneLine(verdict.message)};
}

}  // namespace

std::string HmacSha256Hex(std::string_view key, std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_size = 0;
  // OpenSSL wants a non-null key pointer even for an empty key.
  static const unsigned char kNoKey = 0;
  const void* key_data = key.empty() ? static_cast<const void*>(&kNoKey) : key.data();
  if (!HMAC(EVP_sha256(), key_data, static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
            message.size(), digest.data(), &digest_size)) {
    return "";
  }
  return ToHex({reinterpret_cast<const char*>(digest.data()), digest_size});
}

MungePaths CurrentMungePaths(const RunOptions& options) {
  const std::string conf = SlurmConfPath(options.slurm_conf);
  return ResolveMungePaths(options.munge_socket, options.munge_key, conf, ReadTextFile(conf));
}

// The exchanges below follow short local work (a digest, one munge call), so the ranks wait
// for each other at most the collective timeout.
namespace {

Exchange MungeExchange(const CollectiveContext& context, std::string what) {
  return {std::move(what), std::chrono::seconds(context.options.collective_timeout_s)};
}

}  // namespace

RawOutput ProbeKeyDigest(const CollectiveContext& context) {
  const std::string mine = context.world.is_root() ? RandomNonceHex() : "";
  const std::vector<std::string> shared = context.world.AllGather(mine, MungeExchange(context, "the key-digest nonce"));
  if (!context.node_owner) return {};
  return DigestKeyFile(context.host, CurrentMungePaths(context.options), shared.empty() ? "" : shared.front());
}

RawOutput ProbeKeyStat(const LiveContext& context) {
  const MungePaths paths = CurrentMungePaths(context.options);
  const std::string origin = context.host + ": stat " + paths.key_path;
  struct stat info {};
  if (stat(paths.key_path.c_str(), &info) != 0) {
    const int error = errno;
    return Output(error == ENOENT ? ProbeStatus::kToolMissing : ProbeStatus::kFailed, origin, "",
                  context.host + ": cannot stat the MUNGE key " + paths.key_path + " (" + paths.key_source +
                      "): " + ErrnoText(error));
  }
  char mode[8];
  std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(info.st_mode & 07777));
  return Output(ProbeStatus::kOk, origin,
                "path " + paths.key_path + "\nowner " + UserName(info.st_uid) + "\ngroup " + GroupName(info.st_gid) +
                    "\nmode " + mode + "\nsize_bytes " + std::to_string(info.st_size) + "\n",
                "");
}

RawOutput ProbeCrossDecode(const CollectiveContext& context) {
  const MungePaths paths = CurrentMungePaths(context.options);
  Encoded encoded;
  if (context.node_owner) encoded = EncodeCredential(context.host, paths);
  // Every rank contributes, non-owners an empty string, so the gather matches on all ranks.
  const std::vector<std::string> credentials =
      context.world.AllGather(encoded.credential, MungeExchange(context, "the exchange of MUNGE credentials"));
  if (!context.node_owner) return {};
  if (encoded.tool_missing) return *encoded.tool_missing;

  const auto owners = NodeOwnerRanks(context.rank_hosts);
  std::string text = "socket " + paths.socket_path + "\n" + encoded.encode_line + "\nnodes " +
                     std::to_string(owners.size()) + "\n";
  for (const auto& [host, rank] : owners) {
    const std::string credential = rank < static_cast<int>(credentials.size()) ? credentials[rank] : "";
    text += FormatDecodeAttempt(DecodeCredential(host, credential, paths)) + "\n";
  }
  return Output(ProbeStatus::kOk, context.host + ": munge -n | unmunge across nodes via " + paths.socket_path, text, "");
}

RawOutput ProbeClock(const CollectiveContext& context) {
  // The barrier lines every rank up, so the readings below are taken together (within the
  // gather latency, milliseconds, against a limit of minutes).
  context.world.AllGather("", MungeExchange(context, "the clock probe's first barrier"));
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const long long epoch_ns = static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
  // Keeps the ranks in step for the probe that follows; each node's own reading is what is kept.
  context.world.AllGather(std::to_string(epoch_ns), MungeExchange(context, "the exchange of clock readings"));
  if (!context.node_owner) return {};
  return Output(ProbeStatus::kOk, context.host + ": clock_gettime(CLOCK_REALTIME)",
                "epoch_ns " + std::to_string(epoch_ns) + "\n", "");
}

const ProbeSpec& KeyDigestProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("munge-key-digest", "munge-key.digest", ProbeKeyDigest);
  return kSpec;
}

const ProbeSpec& KeyStatProbe() {
  static const ProbeSpec kSpec =
      BuiltinProbe("munge-key-stat", ProbeScope::kNode, "munge-key-stat.txt", ProbeKeyStat);
  return kSpec;
}

const ProbeSpec& CrossDecodeProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("munge-cross-decode", "munge-decode.txt", ProbeCrossDecode);
  return kSpec;
}

const ProbeSpec& ClockProbe() {
  static const ProbeSpec kSpec = CollectiveProbe("clock", "clock.txt", ProbeClock);
  return kSpec;
}

}  // namespace gpuconform::munge
