#include "probes/torchrun/job_log_parse.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <optional>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::torchrun {

namespace {

// A line longer than this is analysed by its start only: real log lines are far shorter, and
// the cap keeps a giant line (a progress bar without newlines, garbage) linear and cheap.
constexpr std::size_t kMaxAnalysedBytes = 64 * 1024;
constexpr std::size_t kMaxEvidenceChars = 200;
// Share of control bytes in the first bytes above which the input is not a text log.
constexpr std::size_t kBinarySampleBytes = 64 * 1024;
constexpr std::size_t kBinaryPercentMax = 25;

// One logical line: a '\n' line, or a '\r'-separated part of one (progress bars redraw with
// '\r'), less the launcher prefix srun -l ("3: ") or torch ("[rank3]:", "[default0]:") adds.
struct LogLine {
  int number = 0;
  std::string launcher;  // "task 3", "rank 3", "local rank 0"; "" without a prefix
  std::string_view body;
  std::string lower;  // body in lowercase, for case-insensitive matching
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Digits at `at` as a number (at most 9 of them, so no overflow); -1 when none.
long DigitsAt(std::string_view text, std::size_t at) {
  long value = 0;
  std::size_t i = at;
  while (i < text.size() && IsDigit(text[i]) && i - at < 9) value = value * 10 + (text[i++] - '0');
  return i == at ? -1 : value;
}

bool Has(const std::string& lower, std::string_view needle) { return lower.find(needle) != std::string::npos; }

std::string Evidence(std::string_view body) {
  const std::string_view trimmed = Trim(body);
  std::string out(Trim(trimmed.substr(0, kMaxEvidenceChars)));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f) c = '?';
  }
  if (trimmed.size() > kMaxEvidenceChars) out += "...";
  return out;
}

// "3: text" (srun -l), "[rank3]: text", "[default0]:text": the launcher and the rest.
std::pair<std::string, std::string_view> SplitLauncherPrefix(std::string_view line) {
  std::string launcher;
  for (int round = 0; round < 3; ++round) {
    std::string_view rest = line;
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::size_t digits = 0;
    while (digits < rest.size() && digits < 7 && IsDigit(rest[digits])) ++digits;
    if (digits > 0 && digits + 1 < rest.size() && rest[digits] == ':' && rest[digits + 1] == ' ') {
      launcher = "task " + std::string(rest.substr(0, digits));
      line = rest.substr(digits + 2);
      continue;
    }
    bool matched = false;
    for (const auto& [tag, name] : {std::pair<std::string_view, std::string_view>{"[rank", "rank "},
                                    std::pair<std::string_view, std::string_view>{"[default", "local rank "}}) {
      if (!StartsWith(rest, tag)) continue;
      std::size_t end = tag.size();
      while (end < rest.size() && IsDigit(rest[end])) ++end;
      if (end > tag.size() && end + 1 < rest.size() && rest[end] == ']' && rest[end + 1] == ':') {
        if (launcher.empty()) launcher = std::string(name) + std::string(rest.substr(tag.size(), end - tag.size()));
        line = rest.substr(end + 2);
        matched = true;
      }
    }
    if (!matched) break;
  }
  return {launcher, line};
}

// The number after the first of `keys` found in `lower` ("--master_port=29500", "port: 29601",
// "--nnodes 2"): the key, then '=', ':' or spaces, then digits. -1 when none.
long NumberAfterKey(const std::string& lower, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    std::size_t at = lower.find(key);
    while (at != std::string::npos) {
      std::size_t i = at + key.size();
      while (i < lower.size() && (lower[i] == ' ' || lower[i] == '=' || lower[i] == ':' || lower[i] == '"' ||
                                  lower[i] == '\'' || lower[i] == '{')) {
        ++i;
      }
      const long value = DigitsAt(lower, i);
      if (value >= 0) return value;
      at = lower.find(key, at + 1);
    }
  }
  return -1;
}

// The word after the first of `keys` in `body` (matched in `lower`): "--master_addr=node-0" ->
// "node-0". Stops at spaces, quotes, commas and closing brackets. A bare name as key
// ("rdzv_endpoint") must be followed by '=' or ':', so prose that mentions it ("when
// rdzv_endpoint is not specified") is not read as a setting; an option ("--x") or a phrase
// ("set to") may be followed by a space.
std::string WordAfterKey(std::string_view body, const std::string& lower, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    const std::size_t at = lower.find(key);
    if (at == std::string::npos) continue;
    std::size_t i = at + key.size();
    bool separated = false;
    while (i < body.size() && (body[i] == ' ' || body[i] == '=' || body[i] == ':' || body[i] == '"' || body[i] == '\'')) {
      if (body[i] == '=' || body[i] == ':') separated = true;
      ++i;
    }
    const char last = key.back();
    const bool bare_name = (std::isalnum(static_cast<unsigned char>(last)) || last == '_') && !StartsWith(key, "--") &&
                           !(key.size() > 3 && key.substr(key.size() - 3) == " to");
    if (bare_name && !separated) continue;
    std::size_t end = i;
    while (end < body.size() && std::string_view(" \t\"',;)]}").find(body[end]) == std::string_view::npos) ++end;
    if (end > i && end - i <= 255) return std::string(body.substr(i, end - i));
  }
  return "";
}

// An endpoint a connect or bind names: "[node-0]:29500", "(node-0, 29500)", "node-0:29500" after
// "connect to " / "bind to ". Host "" when none.
std::pair<std::string, long> EndpointIn(std::string_view body, const std::string& lower) {
  for (std::string_view key : {"connect to ", "bind to ", "connecting to ", "endpoint "}) {
    const std::size_t at = lower.find(key);
    if (at == std::string::npos) continue;
    std::size_t i = at + key.size();
    if (i < body.size() && body[i] == '(') {
      const std::size_t comma = body.find(',', i);
      if (comma == std::string_view::npos || comma - i > 256) continue;
      std::size_t p = comma + 1;
      while (p < body.size() && body[p] == ' ') ++p;
      return {std::string(Trim(body.substr(i + 1, comma - i - 1))), DigitsAt(body, p)};
    }
    std::size_t end = i;
    while (end < body.size() && end - i < 256 && body[end] != ' ' && body[end] != ',' && body[end] != ')') ++end;
    std::string_view word = body.substr(i, end - i);
    while (!word.empty() && (word.back() == '.' || word.back() == ';')) word.remove_suffix(1);
    const std::size_t colon = word.rfind(':');
    if (colon == std::string_view::npos) continue;
    std::string_view host = word.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    return {std::string(host), DigitsAt(word, colon + 1)};
  }
  return {"", -1};
}

// NCCL prefixes its lines with "host:pid:tid [gpu]"; the host, or "".
std::string NcclHost(std::string_view body) {
  const std::size_t colon = body.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 253) return "";
  const std::string_view host = body.substr(0, colon);
  for (char c : host) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_')) return "";
  }
  std::size_t i = colon + 1;
  const std::size_t pid_start = i;
  while (i < body.size() && IsDigit(body[i])) ++i;
  if (i == pid_start || i >= body.size() || body[i] != ':') return "";
  ++i;
  const std::size_t tid_start = i;
  while (i < body.size() && IsDigit(body[i])) ++i;
  if (i == tid_start || i + 1 >= body.size() || body[i] != ' ' || body[i + 1] != '[') return "";
  return std::string(host);
}

// "0-5,7" -> the task numbers (at most 100,000 of them, so a garbage range stays cheap).
std::vector<long> TaskList(std::string_view text) {
  std::vector<long> tasks;
  std::size_t i = 0;
  while (i < text.size() && tasks.size() < 100000) {
    const long first = DigitsAt(text, i);
    if (first < 0) break;
    while (i < text.size() && IsDigit(text[i])) ++i;
    long last = first;
    if (i < text.size() && text[i] == '-') {
      last = DigitsAt(text, i + 1);
      if (last < first) break;
      ++i;
      while (i < text.size() && IsDigit(text[i])) ++i;
    }
    for (long t = first; t <= last && tasks.size() < 100000; ++t) tasks.push_back(t);
    if (i < text.size() && text[i] == ',') {
      ++i;
    } else {
      break;
    }
  }
  return tasks;
}

// "srun: error: HOST: tasks 0-5,7: Exited with exit code 1".
struct SrunExit {
  std::string host;
  std::vector<long> tasks;
  int line = 0;
};

std::optional<SrunExit> SrunExitLine(const LogLine& line) {
  const std::size_t at = line.lower.find("srun: error: ");
  if (at == std::string::npos || !Has(line.lower, "exit")) return std::nullopt;
  const std::size_t host_start = at + 13;
  const std::size_t host_end = line.body.find(": task", host_start);
  if (host_end == std::string_view::npos || host_end - host_start > 253) return std::nullopt;
  std::size_t list = host_end + 6;
  if (list < line.body.size() && line.body[list] == 's') ++list;
  while (list < line.body.size() && line.body[list] == ' ') ++list;
  SrunExit exit{std::string(line.body.substr(host_start, host_end - host_start)), TaskList(line.body.substr(list)),
                line.number};
  if (exit.host.empty() || exit.tasks.empty()) return std::nullopt;
  return exit;
}

// A Python traceback of one launcher, from "Traceback (most recent call last):" to its
// exception line.
struct Traceback {
  bool open = false;
  bool through_launcher = false;  // a frame in torch's launcher (run.py, elastic, launcher)
  std::string torch_version;
  std::string python_version;
};

// "python3.11" in a frame's path -> "3.11".
std::string PythonVersionIn(const std::string& lower) {
  const std::size_t at = lower.find("/python3.");
  if (at == std::string::npos) return "";
  std::size_t end = at + 9;
  while (end < lower.size() && IsDigit(lower[end])) ++end;
  return end > at + 9 ? lower.substr(at + 7, end - at - 7) : "";
}

bool IsLauncherFrame(const std::string& lower) {
  return Has(lower, "torch/distributed/run.py") || Has(lower, "torch/distributed/elastic/") ||
         Has(lower, "torch/distributed/launcher/") || Has(lower, "torch/distributed/launch.py") ||
         Has(lower, "bin/torchrun");
}

// Python's exception line: "Name: message" or a bare "Name", the name dotted words.
bool IsExceptionLine(std::string_view body) {
  std::size_t i = 0;
  while (i < body.size() && (std::isalnum(static_cast<unsigned char>(body[i])) || body[i] == '_' || body[i] == '.')) ++i;
  if (i == 0 || !std::isalpha(static_cast<unsigned char>(body[0]))) return false;
  const std::string_view name = body.substr(0, i);
  const bool named = name.find("Error") != std::string_view::npos || name.find("Exception") != std::string_view::npos ||
                     name.find("Interrupt") != std::string_view::npos || name == "SystemExit";
  return named && (i == body.size() || body[i] == ':');
}

enum class Kind { kPortInUse, kTimeout, kRefused, kUnresolved, kIfname, kNodeRank, kNone };

struct Event {
  Kind kind = Kind::kNone;
  int line = 0;
  std::string launcher;
  std::string node;
  std::string host;  // the endpoint's host (timeouts, refusals, resolution)
  long port = -1;
  std::string ifname;
  std::string variable;  // NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME
  std::string evidence;
  std::string text;  // the body, for counting identical lines
};

// What the scan saw, before it is resolved into root causes.
struct Scan {
  std::vector<Event> events;
  std::vector<SrunExit> srun_exits;
  std::vector<LaunchFailure> crashes;
  // The job's settings as the log shows them (command lines, launch configs, NCCL INFO).
  std::string master_addr;
  long master_port = -1;
  std::string nccl_ifname;
  std::string gloo_ifname;
  long nnodes = -1;
  std::map<long, std::pair<int, std::string>> node_ranks;  // value -> (first line, evidence)
  int procid_as_node_rank_line = 0;
  std::string procid_as_node_rank_evidence;
  // The deepspeed runner.
  int deepspeed_line = 0;
  std::string deepspeed_evidence;
  int deepspeed_runner_starts = 0;
  bool deepspeed_over_ssh = false;
  bool deepspeed_drives_srun = false;
  bool slurm_seen = false;
  std::string deepspeed_host;
  // Completion.
  int succeeded_lines = 0;
  int done_waiting_lines = 0;
  bool workers_failed = false;
  std::map<std::string, std::pair<int, std::string>> notes;  // kind -> (first line, note)
  std::string last_error;
  int last_error_line = 0;
  std::string failed_root_host;  // "host : node-1" in torchrun's failure summary
};

void Note(Scan& scan, const std::string& kind, int line, const std::string& text) {
  scan.notes.emplace(kind, std::make_pair(line, "line " + std::to_string(line) + ": " + text));
}

bool IsPortInUse(const std::string& lower) {
  return Has(lower, "eaddrinuse") || Has(lower, "errno: 98") || Has(lower, "errno 98") ||
         Has(lower, "address already in use");
}

bool IsTimeout(const std::string& lower) {
  return Has(lower, "rendezvoustimeouterror") || (Has(lower, "diststoreerror") && Has(lower, "timed out")) ||
         (Has(lower, "timed out after") && Has(lower, "waiting for clients")) || Has(lower, "connect() timed out") ||
         Has(lower, "client socket has timed out") || Has(lower, "rendezvousconnectionerror") ||
         (Has(lower, "rendezvous") && Has(lower, "timed out"));
}

bool IsRefused(const std::string& lower) {
  return Has(lower, "connection refused") || Has(lower, "errno: 111") || Has(lower, "errno 111") ||
         (Has(lower, "failed to connect") && !Has(lower, "errno: 97") && !Has(lower, "errno: 22"));
}

// Name resolution failed. torch's warnings that the IPv6 addresses of a name cannot be
// retrieved are benign (IPv4 goes on), so they are not this.
bool IsUnresolved(const std::string& lower) {
  if (Has(lower, "ipv6")) return false;
  return Has(lower, "name or service not known") || Has(lower, "temporary failure in name resolution") ||
         Has(lower, "gaierror") || Has(lower, "nodename nor servname") ||
         (Has(lower, "getaddrinfo") && (Has(lower, "fail") || Has(lower, "error")));
}

bool IsIfnameMissing(const std::string& lower) {
  return Has(lower, "no socket interface found") || Has(lower, "no usable socket interface") ||
         (Has(lower, "socket_ifname") && Has(lower, "no interface")) ||
         (Has(lower, "net/socket") && Has(lower, "no interface found")) || Has(lower, "unable to find address for") ||
         Has(lower, "unable to find interface for");
}

// The job's settings, wherever a line states them.
void ReadSettings(const LogLine& line, Scan& scan) {
  const std::string& lower = line.lower;
  const std::string addr = WordAfterKey(line.body, lower, {"--master_addr", "--master-addr", "master_addr="});
  if (!addr.empty() && scan.master_addr.empty() && addr.find('$') == std::string::npos) scan.master_addr = addr;
  const long port = NumberAfterKey(lower, {"--master_port", "--master-port", "master_port="});
  if (port > 0 && port <= 65535 && scan.master_port < 0) scan.master_port = port;
  const std::string endpoint = WordAfterKey(line.body, lower, {"--rdzv_endpoint", "--rdzv-endpoint", "rdzv_endpoint"});
  if (!endpoint.empty() && endpoint.find('$') == std::string::npos) {
    const std::size_t colon = endpoint.rfind(':');
    if (scan.master_addr.empty()) scan.master_addr = endpoint.substr(0, colon);
    if (colon != std::string::npos && scan.master_port < 0) {
      const long value = DigitsAt(endpoint, colon + 1);
      if (value > 0 && value <= 65535) scan.master_port = value;
    }
  }
  for (const auto& [variable, target] : {std::pair<std::string_view, std::string*>{"nccl_socket_ifname", &scan.nccl_ifname},
                                         std::pair<std::string_view, std::string*>{"gloo_socket_ifname", &scan.gloo_ifname}}) {
    std::string value = WordAfterKey(line.body, lower, {std::string(variable) + " set by environment to",
                                                        std::string(variable) + " set to", std::string(variable)});
    if (!value.empty() && value.find('$') == std::string::npos && value != "set" && target->empty()) *target = value;
  }
  // nnodes: torchrun's --nnodes=N or N:M (the most), the launch configs' max_nodes, deepspeed's nnodes=N.
  long nnodes = -1;
  for (std::string_view key : {"--nnodes", "nnodes=", "max_nodes", "num_nodes="}) {
    const std::size_t at = lower.find(key);
    if (at == std::string::npos) continue;
    std::size_t i = at + key.size();
    while (i < lower.size() && (lower[i] == ' ' || lower[i] == '=' || lower[i] == ':')) ++i;
    nnodes = DigitsAt(lower, i);
    while (i < lower.size() && IsDigit(lower[i])) ++i;
    if (nnodes >= 0 && i + 1 < lower.size() && lower[i] == ':') nnodes = std::max(nnodes, DigitsAt(lower, i + 1));
    if (nnodes > 0) break;
  }
  if (nnodes > 0) scan.nnodes = std::max(scan.nnodes, nnodes);
  const long node_rank = NumberAfterKey(lower, {"--node_rank", "--node-rank", "node_rank=", "node_rank ="});
  if (node_rank >= 0) scan.node_ranks.emplace(node_rank, std::make_pair(line.number, Evidence(line.body)));
  if ((Has(lower, "node_rank") || Has(lower, "node-rank")) && Has(lower, "slurm_procid") &&
      scan.procid_as_node_rank_line == 0) {
    scan.procid_as_node_rank_line = line.number;
    scan.procid_as_node_rank_evidence = Evidence(line.body);
  }
}

void ReadDeepspeed(const LogLine& line, Scan& scan) {
  const std::string& lower = line.lower;
  if (Has(lower, "srun") || Has(lower, "slurm_") || Has(lower, "slurmstepd")) scan.slurm_seen = true;
  const bool runner = Has(lower, "deepspeed.launcher") || Has(lower, "[launch.py:") || Has(lower, "[runner.py:") ||
                      Has(lower, "[multinode_runner.py:") || Has(lower, "running on the following workers") ||
                      Has(lower, "world info dict");
  if (!runner) return;
  if (scan.deepspeed_line == 0) {
    scan.deepspeed_line = line.number;
    scan.deepspeed_evidence = Evidence(line.body);
  }
  if (Has(lower, "cmd =") || Has(lower, "world info dict")) ++scan.deepspeed_runner_starts;
  if (Has(lower, "pdsh") || Has(lower, "running on the following workers") || Has(lower, "ssh ")) {
    scan.deepspeed_over_ssh = true;
  }
  // deepspeed --launcher slurm runs srun itself: that is DeepSpeed driving Slurm, not the trap.
  if (Has(lower, "cmd = srun")) scan.deepspeed_drives_srun = true;
  const std::string host = WordAfterKey(line.body, lower, {"for node "});
  if (!host.empty() && scan.deepspeed_host.empty()) scan.deepspeed_host = host;
}

// Completion, consequences and benign lines.
void ReadOutcome(const LogLine& line, Scan& scan) {
  const std::string& lower = line.lower;
  if (Has(lower, "workerstate.succeeded")) ++scan.succeeded_lines;
  if (Has(lower, "done waiting for other agents")) ++scan.done_waiting_lines;
  if (Has(lower, "workerstate.failed") || Has(lower, "childfailederror") || Has(lower, "failed (exitcode:")) {
    scan.workers_failed = true;
  }
  const std::string trimmed(Trim(line.body));
  if (trimmed.size() >= 8 && StartsWith(trimmed, "host") && trimmed.find(':') != std::string::npos &&
      Trim(trimmed.substr(0, trimmed.find(':'))) == "host" && scan.failed_root_host.empty()) {
    scan.failed_root_host = std::string(Trim(trimmed.substr(trimmed.find(':') + 1)));
  }
  if (Has(lower, "master_addr is only used for static rdzv_backend")) {
    Note(scan, "master_addr", line.number,
         "torchrun's warning that master_addr is only used for the static rendezvous (benign with an rdzv endpoint)");
  } else if (Has(lower, "setting omp_num_threads environment variable")) {
    Note(scan, "omp", line.number, "torchrun's warning that it set OMP_NUM_THREADS=1 for each worker (benign)");
  } else if (trimmed == "..." || trimmed == "\xE2\x80\xA6" || trimmed == "[...]") {
    Note(scan, "elision", line.number, "an elision (\"...\"): lines left out of the log, tolerated");
  } else if (Has(lower, "errno: 97") || Has(lower, "address family not supported") ||
             (Has(lower, "ipv6") && (Has(lower, "cannot be retrieved") || Has(lower, "gai error")))) {
    Note(scan, "ipv6", line.number, "c10d could not use IPv6 for the rendezvous and went on with IPv4 (benign)");
  }
}

// One line's failure events.
void ReadFailures(const LogLine& line, Scan& scan) {
  const std::string& lower = line.lower;
  Event event;
  event.line = line.number;
  event.launcher = line.launcher;
  event.node = NcclHost(line.body);
  event.evidence = Evidence(line.body);
  event.text = std::string(line.body.substr(0, 512));
  if (IsPortInUse(lower)) {
    event.kind = Kind::kPortInUse;
    event.port = NumberAfterKey(lower, {"port: ", "port=", " port "});
    if (event.port <= 0 || event.port > 65535) event.port = EndpointIn(line.body, lower).second;
  } else if (IsIfnameMissing(lower)) {
    event.kind = Kind::kIfname;
    const bool gloo = Has(lower, "unable to find") || Has(lower, "gloo");
    event.variable = gloo ? "GLOO_SOCKET_IFNAME" : "NCCL_SOCKET_IFNAME";
    std::string named = WordAfterKey(line.body, lower, {"unable to find address for:", "unable to find interface for:",
                                                        "socket_ifname set to", "socket_ifname="});
    while (!named.empty() && (named.front() == '[' || named.front() == ' ')) named.erase(0, 1);
    event.ifname = named;
  } else if (IsUnresolved(lower)) {
    event.kind = Kind::kUnresolved;
    std::tie(event.host, event.port) = EndpointIn(line.body, lower);
  } else if (IsTimeout(lower)) {
    event.kind = Kind::kTimeout;
    std::tie(event.host, event.port) = EndpointIn(line.body, lower);
  } else if (IsRefused(lower) && !Has(lower, "errno: 97")) {
    event.kind = Kind::kRefused;
    std::tie(event.host, event.port) = EndpointIn(line.body, lower);
  }
  if (event.kind != Kind::kNone) scan.events.push_back(std::move(event));
  if (auto exit = SrunExitLine(line)) scan.srun_exits.push_back(std::move(*exit));
}

bool RecognisedElsewhere(const std::string& lower) {
  return IsPortInUse(lower) || IsIfnameMissing(lower) || IsUnresolved(lower) || IsTimeout(lower) ||
         IsRefused(lower) || Has(lower, "childfailederror") || Has(lower, "signalexception") ||
         Has(lower, "rendezvousclosederror") || Has(lower, "keyboardinterrupt");
}

void ReadTraceback(const LogLine& line, std::map<std::string, Traceback>& tracebacks, Scan& scan) {
  Traceback& tb = tracebacks[line.launcher];
  const std::string_view body = line.body;
  if (StartsWith(Trim(body), "Traceback (most recent call last)")) {
    tb = Traceback{};
    tb.open = true;
    return;
  }
  if (!tb.open) return;
  const std::string_view trimmed = Trim(body);
  if (StartsWith(trimmed, "File \"")) {
    if (IsLauncherFrame(line.lower)) tb.through_launcher = true;
    if (tb.python_version.empty()) tb.python_version = PythonVersionIn(line.lower);
    return;
  }
  if (!body.empty() && (body.front() == ' ' || body.front() == '\t')) {
    // A frame's source line: load_entry_point('torch==1.13.1', ...) names the version.
    const std::size_t at = line.lower.find("torch==");
    if (at != std::string::npos && tb.torch_version.empty()) {
      std::size_t end = at + 7;
      while (end < body.size() && end - at < 40 && (IsDigit(body[end]) || body[end] == '.' ||
                                                    std::isalnum(static_cast<unsigned char>(body[end])) ||
                                                    body[end] == '+')) {
        ++end;
      }
      tb.torch_version = std::string(body.substr(at + 7, end - at - 7));
    }
    return;
  }
  if (trimmed.empty() || trimmed == "...") return;
  tb.open = false;
  if (!IsExceptionLine(trimmed) || !tb.through_launcher || RecognisedElsewhere(line.lower)) return;
  LaunchFailure crash;
  crash.code = kTorchrunCrashed;
  crash.line = line.number;
  crash.evidence = Evidence(trimmed);
  std::string versions;
  if (!tb.torch_version.empty()) versions += "torch " + tb.torch_version;
  if (!tb.python_version.empty()) versions += std::string(versions.empty() ? "" : " on ") + "Python " + tb.python_version;
  crash.detail = "torchrun itself crashed before it started the workers" +
                 (versions.empty() ? std::string() : " (" + versions + ")") + ": " + crash.evidence;
  crash.fix = "install a torch built for the Python that runs torchrun" +
              (versions.empty() ? std::string() : " (" + versions + " do not go together, or the build is broken)") +
              ", e.g. from pip or conda in a virtual environment rather than the distribution's python3-torch; "
              "check with python -c 'import torch; print(torch.__version__)' and torchrun --help on the node";
  scan.crashes.push_back(std::move(crash));
}

void ReadLastError(const LogLine& line, Scan& scan) {
  const std::string& lower = line.lower;
  if (Has(lower, "master_addr is only used") || Has(lower, "errno: 97")) return;
  const std::string_view trimmed = Trim(line.body);
  if (IsExceptionLine(trimmed) || Has(lower, "error:") || Has(lower, " error ") || Has(lower, "failed")) {
    scan.last_error = Evidence(trimmed);
    scan.last_error_line = line.number;
  }
}

std::string Endpoint(const std::string& host, long port) {
  if (host.empty()) return port > 0 ? "port " + std::to_string(port) : "the rendezvous endpoint";
  const bool ipv6 = host.find(':') != std::string::npos;
  const std::string shown = ipv6 ? "[" + host + "]" : host;
  return port > 0 ? shown + ":" + std::to_string(port) : shown;
}

constexpr char kOneLauncherPerNode[] =
    "srun --ntasks-per-node=1 torchrun --nnodes=$SLURM_NNODES --node_rank=$SLURM_NODEID "
    "--nproc_per_node=GPUS_PER_NODE";

void ResolvePortInUse(const Scan& scan, std::vector<LaunchFailure>& failures) {
  std::vector<const Event*> events;
  for (const auto& e : scan.events) {
    if (e.kind == Kind::kPortInUse) events.push_back(&e);
  }
  if (events.empty()) return;
  // One failure per port; lines that name no port belong to the port the others name.
  std::map<long, std::vector<const Event*>> by_port;
  long known_port = -1;
  for (const Event* e : events) {
    if (e->port > 0) {
      known_port = e->port;
      break;
    }
  }
  for (const Event* e : events) by_port[e->port > 0 ? e->port : known_port].push_back(e);
  for (auto& [port_read, group] : by_port) {
    const long port = port_read > 0 ? port_read : scan.master_port;
    // The evidence: the first line that names the port and the errno, else the first.
    const Event* best = group.front();
    for (const Event* e : group) {
      if (e->port > 0) {
        best = e;
        break;
      }
    }
    // Launchers that failed: distinct prefixes, the most copies of one identical line, or
    // what srun says exited on the node.
    std::set<std::string> prefixes;
    std::map<std::string, int> copies;
    int most_copies = 0;
    for (const Event* e : group) {
      if (!e->launcher.empty()) prefixes.insert(e->launcher);
      most_copies = std::max(most_copies, ++copies[e->text]);
    }
    std::string node = best->node;
    long failed = static_cast<long>(prefixes.size());
    if (failed == 0 && most_copies > 1) failed = most_copies;
    long launchers = 0;
    std::string tasks_text;
    if (!scan.srun_exits.empty()) {
      const SrunExit& exit = scan.srun_exits.front();
      if (node.empty()) node = exit.host;
      if (node == exit.host) {
        failed = std::max(failed, static_cast<long>(exit.tasks.size()));
        launchers = *std::max_element(exit.tasks.begin(), exit.tasks.end()) + 1;
      }
    }
    LaunchFailure f;
    f.code = kPortInUse;
    f.node = node;
    f.line = best->line;
    f.evidence = best->evidence;
    const std::string where =
        node.empty() ? (scan.master_addr.empty()
                            ? " on the master node (the one hosting the rendezvous; the log does not name it)"
                            : " on the master node " + scan.master_addr + " (the one hosting the rendezvous)")
                     : " on " + node;
    f.detail = "the rendezvous port " + (port > 0 ? std::to_string(port) : std::string("(not named in the log)")) +
               " is already in use" + where;
    if (failed > 0) {
      f.detail += " (" + std::to_string(failed) + (launchers > failed ? " of " + std::to_string(launchers) : "") +
                  (failed == 1 ? " launcher" : " launchers") + " failed to listen)";
    }
    f.detail += "; expected: the port free, held by one torchrun on that node";
    const std::string port_text = port > 0 ? std::to_string(port) : "PORT";
    if (failed > 1) {
      f.fix = "several launchers on one node each tried to host the rendezvous: srun started more than one torchrun "
              "per node (srun without --ntasks-per-node=1";
      const auto single = scan.node_ranks.find(0);
      if (scan.nnodes == 1 && single != scan.node_ranks.end() && scan.node_ranks.size() == 1) {
        f.fix += ", each a single-node torchrun with --nnodes=1 --node_rank=0";
      }
      f.fix += "); start one torchrun per node, which starts the node's workers itself: " +
               std::string(kOneLauncherPerNode);
    } else {
      f.fix = "most often a second launcher of the same job holds it (srun ran more than one torchrun per node, or "
              "node_rank comes from SLURM_PROCID): start one per node (" + std::string(kOneLauncherPerNode) +
              "); else a leftover process holds it (ss -ltnp 'sport = :" + port_text +
              "' on the node) or choose another --master_port";
    }
    failures.push_back(std::move(f));
  }
}

void ResolveRendezvous(const Scan& scan, bool completed, std::vector<LaunchFailure>& failures) {
  const Event* unresolved = nullptr;
  const Event* timeout = nullptr;
  const Event* refused = nullptr;
  int refusals = 0;
  for (const auto& e : scan.events) {
    if (e.kind == Kind::kUnresolved && unresolved == nullptr) unresolved = &e;
    if (e.kind == Kind::kTimeout && timeout == nullptr) timeout = &e;
    if (e.kind == Kind::kRefused) {
      if (refused == nullptr || (refused->host.empty() && !e.host.empty())) refused = &e;
      ++refusals;
    }
  }
  if (unresolved != nullptr) {
    // A name that does not resolve is the cause; the timeouts that follow are its consequence.
    const std::string host = !unresolved->host.empty() ? unresolved->host : scan.master_addr;
    LaunchFailure f;
    f.code = kMasterAddrUnresolvable;
    f.node = unresolved->node;
    f.line = unresolved->line;
    f.evidence = unresolved->evidence;
    f.detail = "the rendezvous address " + (host.empty() ? std::string("(not named in the log)") : host) +
               " does not resolve to an address (name resolution failed); expected: MASTER_ADDR a name every node "
               "resolves, or an IP address";
    f.fix = "set MASTER_ADDR (or --rdzv_endpoint) to the first allocated host as the nodes know it: "
            "MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -1), or its IP address; check with "
            "getent hosts " + (host.empty() ? std::string("NAME") : host) + " on every node";
    failures.push_back(std::move(f));
    return;
  }
  // Refusals while the master's store is not yet up are normal and retried; they matter only
  // when the launch never got through.
  if (timeout == nullptr && (refused == nullptr || completed)) return;
  const Event* cause = timeout != nullptr ? timeout : refused;
  std::string host = cause->host;
  long port = cause->port;
  if (host.empty() && refused != nullptr) std::tie(host, port) = std::pair(refused->host, refused->port);
  if (host.empty()) host = scan.master_addr;
  if (port <= 0) port = scan.master_port;
  LaunchFailure f;
  f.code = kRendezvousUnreachable;
  f.node = cause->node;
  f.line = cause->line;
  f.evidence = cause->evidence;
  f.detail = timeout != nullptr ? "the launchers did not meet at the rendezvous " + Endpoint(host, port) +
                                      " before the timeout"
                                : "the launchers could not connect to the rendezvous " + Endpoint(host, port) +
                                      " (refused or failed, and never got through)";
  if (refusals > 0 && timeout != nullptr) f.detail += " (connection refused " + std::to_string(refusals) + " times)";
  f.detail += "; expected: every node's torchrun reaches the store on the first node";
  f.fix = "make MASTER_ADDR/--rdzv_endpoint the first allocated host (scontrol show hostnames $SLURM_JOB_NODELIST | "
          "head -1) with a free port, start torchrun on every node of the allocation (srun --ntasks-per-node=1, "
          "--nnodes=$SLURM_NNODES), and check the port is open between the nodes (nc -zv " +
          (host.empty() ? std::string("HOST") : host) + " " + (port > 0 ? std::to_string(port) : "PORT") +
          " from another node; a firewall drops it)";
  failures.push_back(std::move(f));
}

void ResolveIfname(const Scan& scan, std::vector<LaunchFailure>& failures) {
  std::set<std::pair<std::string, std::string>> seen;  // (variable, node)
  for (const auto& e : scan.events) {
    if (e.kind != Kind::kIfname || !seen.insert({e.variable, e.node}).second) continue;
    const bool gloo = e.variable == "GLOO_SOCKET_IFNAME";
    std::string ifname = e.ifname;
    if (ifname.empty()) ifname = gloo ? scan.gloo_ifname : scan.nccl_ifname;
    LaunchFailure f;
    f.code = kSocketIfnameMissing;
    f.node = e.node;
    f.line = e.line;
    f.evidence = e.evidence;
    const std::string where = e.node.empty() ? " on the node" : " on " + e.node;
    f.detail = (gloo ? std::string("Gloo") : std::string("NCCL's bootstrap")) + " found no usable socket interface" +
               where + ": " + e.variable +
               (ifname.empty() ? std::string(", when set, names no interface the node has (the log does not show its "
                                             "value; unset, the node has only lo or docker interfaces)")
                               : "=" + ifname + " names an interface the node does not have") +
               "; expected: an interface that carries the cluster network";
    f.fix = "set " + e.variable + " to the node's fabric interface (the one `ip -o -4 addr` shows with the cluster "
            "network's address, e.g. ib0 or ens1f0), a prefix of it, or an exclusion list such as ^docker,lo; "
            "interface names differ between node types, so do not hard-code eth0";
    failures.push_back(std::move(f));
  }
}

void ResolveNodeRank(const Scan& scan, std::vector<LaunchFailure>& failures) {
  int line = scan.procid_as_node_rank_line;
  std::string evidence = scan.procid_as_node_rank_evidence;
  std::string observed;
  if (line != 0) observed = "node_rank is set from SLURM_PROCID (the task's rank, not the node's)";
  if (scan.nnodes > 0) {
    long beyond = -1;
    for (const auto& [value, where] : scan.node_ranks) {
      if (value >= scan.nnodes) {
        beyond = value;
        if (line == 0 || where.first < line) std::tie(line, evidence) = where;
        break;
      }
    }
    std::string values;
    for (const auto& [value, where] : scan.node_ranks) {
      if (values.size() < 80) values += (values.empty() ? "" : ",") + std::to_string(value);
    }
    if (beyond >= 0) {
      observed += std::string(observed.empty() ? "" : "; ") + "node_rank=" + std::to_string(beyond) + " with --nnodes=" +
                  std::to_string(scan.nnodes) + " (node ranks seen: " + values + ")";
    } else if (static_cast<long>(scan.node_ranks.size()) > scan.nnodes && line == 0) {
      std::tie(line, evidence) = scan.node_ranks.rbegin()->second;
      observed = std::to_string(scan.node_ranks.size()) + " distinct node ranks (" + values + ") for --nnodes=" +
                 std::to_string(scan.nnodes);
    }
  }
  if (line == 0) return;
  LaunchFailure f;
  f.code = kNodeRankFromProcid;
  f.line = line;
  f.evidence = evidence;
  f.detail = observed + "; expected: one torchrun per node with node_rank 0.." +
             (scan.nnodes > 0 ? std::to_string(scan.nnodes - 1) : std::string("nnodes-1")) +
             ", so with several tasks per node the launchers collide on ranks and on the rendezvous port";
  f.fix = "take the node rank from SLURM_NODEID and start one launcher per node: " + std::string(kOneLauncherPerNode);
  failures.push_back(std::move(f));
}

void ResolveDeepspeed(const Scan& scan, bool completed, std::vector<LaunchFailure>& failures) {
  if (scan.deepspeed_line == 0 || !scan.slurm_seen || scan.deepspeed_drives_srun) return;
  // One deepspeed runner on one node under srun is fine; several, one that spawns over SSH, or
  // one whose launch failed is the trap.
  if (!scan.deepspeed_over_ssh && scan.deepspeed_runner_starts <= 1 && completed) return;
  LaunchFailure f;
  f.code = kDeepspeedUnderSrun;
  f.node = scan.deepspeed_host;
  f.line = scan.deepspeed_line;
  f.evidence = scan.deepspeed_evidence;
  f.detail = "the standalone deepspeed launcher runs inside a Slurm job" +
             std::string(scan.deepspeed_over_ssh ? " and starts its workers over SSH (pdsh) on every node"
                                                 : "") +
             (scan.deepspeed_runner_starts > 1 ? " (" + std::to_string(scan.deepspeed_runner_starts) +
                                                     " deepspeed launchers started)"
                                               : std::string()) +
             ": the launchers fight over ranks and ports; expected: Slurm starts one torchrun per node";
  f.fix = "start the job with torchrun under srun and let DeepSpeed initialise from its environment: " +
          std::string(kOneLauncherPerNode) + " train.py --deepspeed ds_config.json (or deepspeed --launcher slurm "
                                             "outside srun)";
  failures.push_back(std::move(f));
}

Error NotText(const std::string& origin, const std::string& why) { return Error{origin + ": " + why}; }

}  // namespace

Result<JobLogDiagnosis> ParseJobLog(const std::string& text, const std::string& origin) {
  if (Trim(text).empty()) return NotText(origin, "the job's output is empty: nothing to diagnose");
  const std::size_t sample = std::min(text.size(), kBinarySampleBytes);
  std::size_t control = 0;
  for (std::size_t i = 0; i < sample; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b) || c == 0x7f) ++control;
  }
  if (control * 100 > sample * kBinaryPercentMax) {
    return NotText(origin, "is not a text log (" + std::to_string(control) + " of its first " +
                               std::to_string(sample) + " bytes are control bytes): give the job's output file");
  }

  Scan scan;
  std::map<std::string, Traceback> tracebacks;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    std::string_view physical = next->text;
    if (physical.size() > kMaxAnalysedBytes) physical = physical.substr(0, kMaxAnalysedBytes);
    const std::string stripped = StripAnsiEscapes(physical);
    std::string_view rest = stripped;
    while (true) {
      const std::size_t cr = rest.find('\r');
      const std::string_view part = rest.substr(0, cr);
      if (!Trim(part).empty()) {
        LogLine line;
        line.number = next->number;
        std::tie(line.launcher, line.body) = SplitLauncherPrefix(part);
        line.lower = Lowercase(line.body);
        ReadSettings(line, scan);
        ReadDeepspeed(line, scan);
        ReadOutcome(line, scan);
        ReadFailures(line, scan);
        ReadTraceback(line, tracebacks, scan);
        ReadLastError(line, scan);
      }
      if (cr == std::string_view::npos) break;
      rest = rest.substr(cr + 1);
    }
  }

  JobLogDiagnosis diagnosis;
  diagnosis.agents_succeeded = std::max(scan.succeeded_lines, scan.done_waiting_lines);
  const bool completed = diagnosis.agents_succeeded > 0 && !scan.workers_failed;
  ResolveDeepspeed(scan, completed, diagnosis.failures);
  ResolveNodeRank(scan, diagnosis.failures);
  ResolvePortInUse(scan, diagnosis.failures);
  ResolveIfname(scan, diagnosis.failures);
  ResolveRendezvous(scan, completed, diagnosis.failures);
  // A launcher traceback is a crash only when nothing above explains it: with a cause found,
  // torchrun's own exception is how that cause surfaced.
  if (diagnosis.failures.empty() && !scan.crashes.empty()) diagnosis.failures.push_back(scan.crashes.front());
  std::stable_sort(diagnosis.failures.begin(), diagnosis.failures.end(),
                   [](const LaunchFailure& a, const LaunchFailure& b) { return a.line < b.line; });
  diagnosis.launch_completed = completed;
  if (completed) {
    for (const auto& e : scan.events) {
      if (e.kind == Kind::kRefused) {
        Note(scan, "refused", e.line, "a connection refused while the rendezvous store was starting, retried (benign)");
        break;
      }
    }
  }
  std::vector<std::pair<int, std::string>> notes;
  for (const auto& [kind, note] : scan.notes) notes.push_back(note);
  std::sort(notes.begin(), notes.end());
  for (auto& [line, note] : notes) diagnosis.notes.push_back(std::move(note));
  diagnosis.last_error = scan.last_error;
  diagnosis.last_error_line = scan.last_error_line;
  if (!scan.failed_root_host.empty() && diagnosis.failures.empty() && !completed) {
    diagnosis.last_error += " (torchrun's failure summary names host " + scan.failed_root_host.substr(0, 100) + ")";
  }
  return diagnosis;
}

}  // namespace gpuconform::torchrun
