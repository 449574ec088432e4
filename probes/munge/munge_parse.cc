#include "probes/munge/munge_parse.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::munge {

namespace {

constexpr std::size_t kSha256HexDigits = 64;


struct NumberedLine {
  std::string_view text;
  int number = 0;
};

// Non-blank lines with their 1-based numbers; probes write no blank lines, but a file
// edited by hand or copied through a terminal may gain some.
std::vector<NumberedLine> ContentLines(std::string_view text) {
  std::vector<NumberedLine> lines;
  TextLines source(text);
  while (const auto line = source.Next()) {
    if (const std::string_view content = Trim(line->text); !content.empty()) lines.push_back({content, line->number});
  }
  return lines;
}

int LastLineNumber(std::string_view text) { return static_cast<int>(SplitLines(text).size()) + 1; }

bool IsLowerHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// "<key> <value>" where the value is the rest of the line.
std::optional<std::string_view> ValueAfterKey(std::string_view line, std::string_view key) {
  if (!StartsWith(line, key) || line.size() <= key.size() || (line[key.size()] != ' ' && line[key.size()] != '\t')) {
    return std::nullopt;
  }
  return Trim(line.substr(key.size()));
}

template <typename Integer>
std::optional<Integer> ParseInteger(std::string_view text, int base = 10) {
  Integer value{};
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

Result<std::string> HexField(const NumberedLine& line, std::string_view key, const std::string& origin) {
  const std::string expected = "'" + std::string(key) + " <64 lowercase hex digits>'";
  auto value = ValueAfterKey(line.text, key);
  if (!value) return ErrorAt(origin, line.number, "expected " + expected + ", got " + QuoteForMessage(line.text));
  if (value->size() != kSha256HexDigits || !IsLowerHex(*value)) {
    return ErrorAt(origin, line.number, "expected " + expected + ", got " + std::to_string(value->size()) +
                                       " characters " + QuoteForMessage(*value));
  }
  return std::string(*value);
}

struct MungeErrorEntry {
  int code;
  const char* name;
};

// munge_strerror() of munge 0.5.x (src/libcommon/munge_strerror.c); unmunge exits with these.
constexpr std::array<MungeErrorEntry, 19> kMungeErrors = {{
    {0, "Success"},
    {1, "Internal error"},
    {2, "Invalid argument"},
    {3, "Exceeded maximum message length"},
    {4, "Buffer overflow"},
    {5, "Out of memory"},
    {6, "Socket communication error"},
    {7, "Socket timeout"},
    {8, "Invalid credential format"},
    {9, "Invalid credential version"},
    {10, "Invalid cipher type"},
    {11, "Invalid MAC type"},
    {12, "Invalid compression type"},
    {13, "Unrecognized security realm"},
    {14, "Invalid credential"},
    {15, "Expired credential"},
    {16, "Rewound credential"},
    {17, "Replayed credential"},
    {18, "Unauthorized credential"},
}};

std::string CollapseSpaces(std::string_view line) {
  std::vector<std::string> words;
  for (auto word : SplitWords(line)) words.emplace_back(word);
  return Join(words, " ");
}

std::string FirstNonBlankLine(std::string_view text) {
  for (auto line : SplitLines(text)) {
    if (!Trim(line).empty()) return std::string(Trim(line));
  }
  return "";
}

std::optional<MungeFailure> ClassifyLine(std::string_view line) {
  const std::string lower = Lowercase(line);
  auto has = [&](std::string_view needle) { return Contains(lower, needle); };
  if (has("munged: error:") || has("failed to start munge") || has("munge.service failed") ||
      has("munge.service: failed") || (has("starting munge") && has("[fail]"))) {
    return MungeFailure::kDaemonFailed;
  }
  // The client's connect() to munged's socket failed. munge 0.5.x says "Failed to access",
  // older clients "Unable to access"; a socket of any name, so no test on the path.
  if (has("failed to access \"") || has("unable to access \"") || has("did you start munged")) {
    return MungeFailure::kSocketUnreachable;
  }
  if (has("invalid credential format") || has("failed to match armor")) return MungeFailure::kMalformedCredential;
  // Slurm 23+ relays munge's "Invalid credential" as "Invalid authentication credential".
  if (has("invalid credential") || has("invalid authentication credential")) return MungeFailure::kInvalidCredential;
  if (has("expired credential")) return MungeFailure::kExpiredCredential;
  if (has("rewound credential")) return MungeFailure::kRewoundCredential;
  if (has("replayed credential")) return MungeFailure::kReplayedCredential;
  if (has("unauthorized credential")) return MungeFailure::kUnauthorizedCredential;
  return std::nullopt;
}

// Inside one AuthInfo value ("cred_expire=120,socket=/run/x"), the socket option.
std::optional<std::string> SocketOption(std::string_view auth_info) {
  std::size_t start = 0;
  while (start <= auth_info.size()) {
    auto end = auth_info.find(',', start);
    if (end == std::string_view::npos) end = auth_info.size();
    const auto option = Trim(auth_info.substr(start, end - start));
    if (Lowercase(option.substr(0, 7)) == "socket=" && option.size() > 7) return std::string(Trim(option.substr(7)));
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> NonEmpty(const std::optional<std::string>& value) {
  if (value && !value->empty()) return value;
  return std::nullopt;
}

}  // namespace

Result<KeyDigest> ParseKeyDigest(const std::string& text, const std::string& origin) {
  const auto lines = ContentLines(text);
  if (lines.empty()) return ErrorAt(origin, 1, "empty digest file; expected 'nonce <hex>' and 'hmac-sha256 <hex>' lines");
  if (lines.size() < 2) {
    return ErrorAt(origin, LastLineNumber(text), "truncated digest file: no 'hmac-sha256 <hex>' line after the nonce");
  }
  if (lines.size() > 2) return ErrorAt(origin, lines[2].number, "unexpected line " + QuoteForMessage(lines[2].text));
  auto nonce = HexField(lines[0], "nonce", origin);
  if (!nonce) return Error{nonce.error()};
  auto hmac = HexField(lines[1], "hmac-sha256", origin);
  if (!hmac) return Error{hmac.error()};
  return KeyDigest{*nonce, *hmac};
}

Result<KeyStat> ParseKeyStat(const std::string& text, const std::string& origin) {
  static const std::array<const char*, 5> kKeys = {"path", "owner", "group", "mode", "size_bytes"};
  std::array<std::optional<std::string>, 5> values;
  for (const auto& line : ContentLines(text)) {
    const auto words = SplitWords(line.text);
    const auto key = std::find(kKeys.begin(), kKeys.end(), words.front());
    if (key == kKeys.end() || words.size() < 2) {
      return ErrorAt(origin, line.number, "expected '<path|owner|group|mode|size_bytes> <value>', got " + QuoteForMessage(line.text));
    }
    auto& slot = values[key - kKeys.begin()];
    if (slot) return ErrorAt(origin, line.number, std::string("'") + *key + "' appears twice");
    slot = std::string(*ValueAfterKey(line.text, *key));
  }
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    if (!values[i]) {
      return ErrorAt(origin, LastLineNumber(text), std::string("truncated stat file: no '") + kKeys[i] + " <value>' line");
    }
  }
  KeyStat stat;
  stat.path = *values[0];
  stat.owner = *values[1];
  stat.group = *values[2];
  const auto mode = values[3]->size() <= 4 ? ParseInteger<unsigned>(*values[3], 8) : std::nullopt;
  if (!mode) return Error{origin + ": mode " + QuoteForMessage(*values[3]) + " is not an octal permission such as 0600"};
  stat.mode = *mode;
  const auto size = ParseInteger<long long>(*values[4]);
  if (!size || *size < 0) return Error{origin + ": size_bytes " + QuoteForMessage(*values[4]) + " is not a byte count"};
  stat.size_bytes = *size;
  return stat;
}

std::string FormatDecodeAttempt(const DecodeAttempt& attempt) {
  std::string line = "from " + attempt.from_node + ": status=" + attempt.status + " exit=" + std::to_string(attempt.exit_code);
  if (!attempt.message.empty()) line += " " + attempt.message;
  return line;
}

namespace {

Result<DecodeAttempt> ParseDecodeAttempt(const NumberedLine& line, const std::string& origin) {
  const auto fail = [&](const std::string& why) {
    return ErrorAt(origin, line.number, why + ": expected 'from <node>: status=<status> exit=<code> <message>', got " +
                                       QuoteForMessage(line.text));
  };
  std::string_view rest = line.text.substr(5);  // after "from "
  const auto status_at = rest.find(": status=");
  if (status_at == std::string_view::npos || status_at == 0) return fail("no node name");
  DecodeAttempt attempt;
  attempt.from_node = std::string(rest.substr(0, status_at));
  if (SplitWords(attempt.from_node).size() != 1) return fail("node name with spaces");
  rest = rest.substr(status_at + 9);
  const auto exit_at = rest.find(" exit=");
  if (exit_at == std::string_view::npos || exit_at == 0) return fail("no status or exit code");
  attempt.status = std::string(rest.substr(0, exit_at));
  rest = rest.substr(exit_at + 6);
  const auto code_end = std::min(rest.find(' '), rest.size());
  const auto code = ParseInteger<int>(rest.substr(0, code_end));
  if (!code || *code < -1) return fail("exit code is not a number");
  attempt.exit_code = *code;
  attempt.message = code_end < rest.size() ? std::string(Trim(rest.substr(code_end))) : "";
  return attempt;
}

}  // namespace

Result<DecodeReport> ParseDecodeReport(const std::string& text, const std::string& origin) {
  DecodeReport report;
  bool have_socket = false;
  bool have_encode = false;
  std::optional<std::size_t> expected_nodes;
  int nodes_line = 0;
  for (const auto& line : ContentLines(text)) {
    if (auto socket = ValueAfterKey(line.text, "socket"); socket && !have_socket && !have_encode) {
      report.socket_path = std::string(*socket);
      have_socket = true;
    } else if (StartsWith(line.text, "encode:") && !have_encode) {
      const auto outcome = Trim(line.text.substr(7));
      if (outcome == "ok") {
        report.encode_ok = true;
      } else if (StartsWith(outcome, "failed")) {
        report.encode_failure = std::string(Trim(outcome.substr(6)));
      } else {
        return ErrorAt(origin, line.number, "expected 'encode: ok' or 'encode: failed <reason>', got " + QuoteForMessage(line.text));
      }
      have_encode = true;
    } else if (auto count = ValueAfterKey(line.text, "nodes"); count && have_encode && !expected_nodes) {
      const auto n = ParseInteger<std::size_t>(*count);
      if (!n) return ErrorAt(origin, line.number, "expected 'nodes <count>', got " + QuoteForMessage(line.text));
      expected_nodes = *n;
      nodes_line = line.number;
    } else if (StartsWith(line.text, "from ") && expected_nodes) {
      auto attempt = ParseDecodeAttempt(line, origin);
      if (!attempt) return Error{attempt.error()};
      report.attempts.push_back(std::move(attempt).value());
    } else {
      return ErrorAt(origin, line.number,
                "unexpected line " + QuoteForMessage(line.text) + " (expected socket, encode:, nodes, then from lines)");
    }
  }
  if (!have_encode) return ErrorAt(origin, LastLineNumber(text), "no 'encode: ok|failed' line: not a munge-decode.txt");
  if (!expected_nodes) return ErrorAt(origin, LastLineNumber(text), "truncated: no 'nodes <count>' line");
  if (report.attempts.size() != *expected_nodes) {
    return ErrorAt(origin, nodes_line, "truncated: 'nodes " + std::to_string(*expected_nodes) + "' but " +
                                      std::to_string(report.attempts.size()) + " 'from' lines follow");
  }
  return report;
}

Result<long long> ParseClockReading(const std::string& text, const std::string& origin) {
  const auto lines = ContentLines(text);
  if (lines.empty()) return ErrorAt(origin, 1, "empty clock file; expected 'epoch_ns <nanoseconds>'");
  if (lines.size() > 1) return ErrorAt(origin, lines[1].number, "unexpected line " + QuoteForMessage(lines[1].text));
  const auto value = ValueAfterKey(lines[0].text, "epoch_ns");
  const auto ns = value ? ParseInteger<long long>(*value) : std::nullopt;
  if (!ns || *ns <= 0) {
    return ErrorAt(origin, lines[0].number, "expected 'epoch_ns <nanoseconds>', got " + QuoteForMessage(lines[0].text));
  }
  return *ns;
}

std::optional<std::string> MungeErrorName(int code) {
  for (const auto& entry : kMungeErrors) {
    if (entry.code == code) return std::string(entry.name);
  }
  return std::nullopt;
}

UnmungeVerdict InterpretUnmunge(int exit_code, std::string_view stdout_text, std::string_view stderr_text) {
  // Soft errors (expired, rewound, replayed) and success print a STATUS line: "STATUS: Success (0)".
  for (auto line : SplitLines(stdout_text)) {
    const auto trimmed = Trim(line);
    if (!StartsWith(trimmed, "STATUS:")) continue;
    const auto value = Trim(trimmed.substr(7));
    const auto paren = value.rfind(" (");
    return {std::string(Trim(value.substr(0, paren))), CollapseSpaces(trimmed)};
  }
  // Hard errors print only "unmunge: Error: <strerror>" on stderr.
  const std::string message = FirstNonBlankLine(stderr_text);
  if (auto name = MungeErrorName(exit_code)) return {*name, message};
  for (const auto& entry : kMungeErrors) {
    if (entry.code != 0 && Contains(message, entry.name)) return {entry.name, message};
  }
  return {"exit " + std::to_string(exit_code), message};
}

MungeFailure ClassifyMungeStatus(int exit_code, std::string_view status) {
  switch (exit_code) {
    case 6:
    case 7: return MungeFailure::kSocketUnreachable;
    case 14: return MungeFailure::kInvalidCredential;
    case 15: return MungeFailure::kExpiredCredential;
    case 16: return MungeFailure::kRewoundCredential;
    case 17: return MungeFailure::kReplayedCredential;
    case 18: return MungeFailure::kUnauthorizedCredential;
    default: break;
  }
  return ClassifyLine(status).value_or(MungeFailure::kMalformedCredential);
}

std::optional<MungeFailureLine> FindMungeFailure(std::string_view text) {
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view line = WithoutCarriageReturn(next->text);
    if (auto kind = ClassifyLine(line)) return MungeFailureLine{*kind, std::string(Trim(line)), next->number};
  }
  return std::nullopt;
}

std::optional<std::string> ParseAuthInfoSocket(std::string_view slurm_conf_text) {
  std::optional<std::string> socket;
  for (auto line : SplitLines(slurm_conf_text)) {
    line = Trim(line.substr(0, line.find('#')));
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    // slurm.conf keys are case-insensitive: "AuthInfo", "authinfo".
    if (Lowercase(Trim(line.substr(0, equals))) != "authinfo") continue;
    std::string_view value = Trim(line.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (auto path = SocketOption(value)) socket = std::move(path);
  }
  return socket;
}

MungePaths ResolveMungePaths(const std::optional<std::string>& env_socket, const std::optional<std::string>& env_key,
                             const std::string& slurm_conf_path, const std::optional<std::string>& slurm_conf_text) {
  MungePaths paths;
  if (auto socket = NonEmpty(env_socket)) {
    paths.socket_path = *socket;
    paths.socket_source = "GPUCONFORM_MUNGE_SOCKET";
  } else if (auto conf_socket = slurm_conf_text ? ParseAuthInfoSocket(*slurm_conf_text) : std::nullopt) {
    paths.socket_path = *conf_socket;
    paths.socket_source = "AuthInfo=socket= in " + slurm_conf_path;
  } else {
    paths.socket_path = kDefaultSocketPath;
    paths.socket_source = "munge's default";
  }
  if (auto key = NonEmpty(env_key)) {
    paths.key_path = *key;
    paths.key_source = "GPUCONFORM_MUNGE_KEY";
  } else {
    paths.key_path = kDefaultKeyPath;
    paths.key_source = "munge's default";
  }
  return paths;
}

std::string SlurmConfPath(const std::optional<std::string>& env_slurm_conf) {
  return NonEmpty(env_slurm_conf).value_or(kDefaultSlurmConf);
}

}  // namespace gpuconform::munge
