#include "probes/nccl_log/nccl_log_parse.h"

#include <algorithm>
#include <bitset>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>

#include "harness/util/text_util.h"

namespace gpuconform::nccl_log {

namespace {

// Prefixes as string_view literals: their length is known, so each test compiles to a compare
// of a few bytes (a char* prefix costs a strlen and a call, on every line of a long log).
using namespace std::string_view_literals;

// string_view::starts_with, inlined: GCC calls it out of line, and then memcmp, for each of the
// dozen prefixes tried on every line of a long log.
inline bool Begins(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && std::memcmp(text.data(), prefix.data(), prefix.size()) == 0;
}

// Every text the parser keeps is clipped, so a log of long garbage lines cannot make the
// capped fact lists hold kMaxLineBytes per field.
std::string Field(std::string_view text) { return std::string(text.substr(0, kMaxFieldBytes)); }

std::optional<int> LeadingInt(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// The integer after `key` (e.g. " rank "), if any.
std::optional<int> IntAfter(std::string_view text, std::string_view key) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  return LeadingInt(text.substr(at + key.size()));
}

std::string_view AfterPrefix(std::string_view text, std::string_view prefix) {
  return text.substr(std::min(prefix.size(), text.size()));
}

// Trim (text_util.h) by hand: the library's set search costs a call per byte looked at, and
// every line of a long log is trimmed.
std::string_view TrimBlanks(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t start = 0;
  std::size_t end = text.size();
  while (start < end && blank(text[start])) ++start;
  while (end > start && blank(text[end - 1])) --end;
  return text.substr(start, end - start);
}

// The last of the words SplitWords would give, without building them all.
std::string_view LastWord(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  std::size_t end = text.size();
  while (end > 0 && blank(text[end - 1])) --end;
  std::size_t start = end;
  while (start > 0 && !blank(text[start - 1])) --start;
  return text.substr(start, end - start);
}

std::string_view FirstWord(std::string_view text) {
  const auto words = SplitWords(text);
  return words.empty() ? std::string_view() : words.front();
}

// "eth0:10.0.0.4<0>" -> "eth0"; "[0]eth0:..." -> "eth0".
std::string InterfaceOf(std::string_view text) {
  text = Trim(text);
  if (Begins(text, "["sv)) {
    const auto close = text.find(']');
    text = close == std::string_view::npos ? std::string_view() : text.substr(close + 1);
  }
  return Field(text.substr(0, text.find(':')));
}

bool IsHostChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_'; }

// "host:pid:tid [dev]" before NCCL's marker; any launcher tag in front ("[1,0]<stdout>:",
// "0: ") is dropped. Fields that do not parse stay unknown.
void ParseNcclPrefix(std::string_view head, Source& source) {
  const auto close = head.rfind(']');
  if (close == std::string_view::npos) return;
  const auto open = head.rfind('[', close);
  if (open == std::string_view::npos) return;
  source.cuda_dev = LeadingInt(head.substr(open + 1)).value_or(-1);
  const std::string_view token = LastWord(head.substr(0, open));
  if (token.empty()) return;
  const auto tid_colon = token.rfind(':');
  if (tid_colon == std::string_view::npos || tid_colon == 0) return;
  const auto pid_colon = token.rfind(':', tid_colon - 1);
  if (pid_colon == std::string_view::npos) return;
  source.pid = LeadingInt(token.substr(pid_colon + 1)).value_or(-1);
  std::string_view host = token.substr(0, pid_colon);
  std::size_t junk = host.size();  // past the last ':', '>' or ']' of a launcher's tag
  while (junk > 0 && host[junk - 1] != ':' && host[junk - 1] != '>' && host[junk - 1] != ']') --junk;
  host = host.substr(junk);
  source.host = Field(host);
}

// The source of an NCCL INFO line, its prefix parsed only when a fact from the line is kept:
// most INFO lines of a long log carry nothing the checks read, or repeat a fact past its cap.
class LazySource {
 public:
  LazySource(std::string_view head, int number) : head_(head) { source_.line = number; }
  const Source& get() const {
    if (!parsed_) {
      ParseNcclPrefix(head_, source_);
      parsed_ = true;
    }
    return source_;
  }

 private:
  std::string_view head_;
  mutable Source source_;
  mutable bool parsed_ = false;
};

TransportKind KindOfVia(std::string_view via) {
  if (Begins(via, "NET/"sv)) return TransportKind::kNet;
  if (Begins(via, "P2P"sv)) return TransportKind::kP2p;
  if (Begins(via, "SHM"sv)) return TransportKind::kShm;
  if (Begins(via, "NVLS"sv)) return TransportKind::kNvls;
  if (Begins(via, "COLLNET"sv) || Begins(via, "CollNet"sv)) return TransportKind::kCollNet;
  return TransportKind::kOther;
}

// "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA" (message after "NCCL INFO ").
std::optional<Channel> ParseChannel(std::string_view message, const LazySource& source) {
  const auto via_at = message.find(" via ");
  if (via_at == std::string_view::npos) return std::nullopt;
  const auto words = SplitWords(message.substr(0, via_at));
  if (words.size() < 6 || words[2] != ":" || words[4] != "->") return std::nullopt;
  Channel channel;
  channel.source = source.get();
  channel.channel = Field(words[1]);
  const auto from = LeadingInt(words[3]);
  const auto to = LeadingInt(words[5]);
  if (!from || !to) return std::nullopt;
  channel.from_rank = *from;
  channel.to_rank = *to;
  if (words.size() > 6) {
    if (words[6] == "[send]") channel.direction = "send";
    if (words[6] == "[receive]") channel.direction = "receive";
  }
  channel.via = Field(Trim(message.substr(via_at + 5)));
  channel.kind = KindOfVia(channel.via);
  if (channel.kind == TransportKind::kNet) {
    const std::string_view rest = std::string_view(channel.via).substr(4);
    channel.net = Field(rest.substr(0, rest.find('/')));
    channel.gdr = Contains(channel.via, "/GDRDMA");
  }
  return channel;
}

// "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.4<0>".
NetInit ParseNetInit(std::string_view net, std::string_view devices_text, const Source& source) {
  NetInit init;
  init.source = source;
  init.net = Field(net);
  const auto oob = devices_text.find("OOB ");
  if (oob != std::string_view::npos) init.oob_ifname = InterfaceOf(devices_text.substr(oob + 4));
  devices_text = devices_text.substr(0, devices_text.find(';'));
  for (std::string_view word : SplitWords(devices_text)) {
    if (init.devices.size() >= kMaxDevicesPerInit) break;
    if (!Begins(word, "["sv)) continue;
    const auto close = word.find(']');
    if (close == std::string_view::npos || close + 1 >= word.size()) continue;  // "[RO]" and the like
    word = word.substr(close + 1);
    NetDevice device;
    const auto colon = word.find(':');
    device.name = Field(word.substr(0, colon));
    if (colon != std::string_view::npos) {
      const std::string_view after = word.substr(colon + 1);
      const auto slash = after.find('/');
      if (slash != std::string_view::npos && !Contains(after, "<")) {
        device.port = Field(after.substr(0, slash));
        device.link_layer = Field(after.substr(slash + 1));
      } else {
        device.address = Field(after);
      }
    }
    init.devices.push_back(std::move(device));
  }
  return init;
}

// The error signatures a line is classed by, most telling first: a line that holds several is
// the first one's kind. Each signature contains an anchor, at `anchor_at`.
struct Anchor {
  std::string_view text;
  // Where two overlapping pairs of bytes that ordinary text seldom holds start in `text`: the
  // pairs at pair_at and pair_at + 1. One of them starts at an even place of the line wherever
  // the anchor is, so the scan looks at every second pair only.
  std::size_t pair_at;
};
constexpr Anchor kAnchors[] = {{"nccl", 1},          {"error", 1},         {"timeout", 2},
                               {"Watchdog", 4},      {"remote process", 2}, {"Caught signal", 2},
                               {"Segmentation fault", 1}, {"terminate called", 2}};
enum AnchorIndex { kNccl, kError, kTimeout, kWatchdog, kRemoteProcess, kCaughtSignal, kSegfault, kTerminate };

struct Signature {
  std::string_view text;
  int rank;  // the kind's place in kKinds: lower wins
  AnchorIndex anchor;
  std::size_t anchor_at;  // where the anchor starts in `text`
};
constexpr std::string_view kKinds[] = {"timeout",     "remote-error", "system-error", "internal-error",
                                       "cuda-error",  "invalid-usage", "crash",       "nccl-error"};
constexpr Signature kSignatures[] = {
    {"collective operation timeout", 0, kTimeout, 21},
    {"Watchdog caught", 0, kWatchdog, 0},
    {"ncclRemoteError", 1, kNccl, 0},
    {"remote process exited", 1, kRemoteProcess, 0},
    {"ncclSystemError", 2, kNccl, 0},
    {"unhandled system error", 2, kError, 17},
    {"ncclInternalError", 3, kNccl, 0},
    {"internal error - please report", 3, kError, 9},
    {"ncclUnhandledCudaError", 4, kNccl, 0},
    {"unhandled cuda error", 4, kError, 15},
    {"ncclInvalidUsage", 5, kNccl, 0},
    {"ncclInvalidArgument", 5, kNccl, 0},
    {"Caught signal", 6, kCaughtSignal, 0},
    {"Segmentation fault", 6, kSegfault, 0},
    {"terminate called after throwing", 6, kTerminate, 0},
    {"NCCL error", 7, kError, 5},
};

// Each signature holds its anchor where it says: the one-pass search relies on it.
constexpr bool SignaturesHoldTheirAnchors() {
  for (const Signature& signature : kSignatures) {
    if (!signature.text.substr(signature.anchor_at).starts_with(kAnchors[signature.anchor].text)) return false;
  }
  for (const Anchor& anchor : kAnchors) {
    if (anchor.text.size() < anchor.pair_at + 3) return false;
  }
  return true;
}
static_assert(SignaturesHoldTheirAnchors());

std::uint16_t PairKey(char first, char second) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(first) << 8 | static_cast<unsigned char>(second));
}

const std::bitset<65536>& AnchorPairs() {
  static const std::bitset<65536> pairs = [] {
    std::bitset<65536> set;
    for (const Anchor& anchor : kAnchors) {
      for (std::size_t at = anchor.pair_at; at <= anchor.pair_at + 1; ++at) set.set(PairKey(anchor.text[at], anchor.text[at + 1]));
    }
    return set;
  }();
  return pairs;
}

// The kind of problem a line reports, if it holds an error signature. A large log is mostly
// lines that hold none, and even its problem lines are long: the line is scanned once, two bytes
// at a time, for the pairs of bytes inside each anchor ("cc" and "cl" of "nccl", "rr" and "ro" of
// "error"), an anchor is compared only where one of its pairs is, and a signature only where its anchor is. Every occurrence of a signature
// holds its anchor at a fixed place, so this finds what a search for each signature in turn
// finds (which, one memmem per signature, was most of the time spent on a log full of errors).
std::optional<std::string> ErrorKind(std::string_view line, bool nccl_prefixed) {
  const std::bitset<65536>& pairs = AnchorPairs();
  int best = static_cast<int>(std::size(kKinds));
  for (std::size_t i = 0; i + 1 < line.size(); i += 2) {
    const std::uint16_t key = PairKey(line[i], line[i + 1]);
    if (!pairs[key]) continue;
    for (int a = 0; a < static_cast<int>(std::size(kAnchors)); ++a) {
      const Anchor& anchor = kAnchors[a];
      for (std::size_t at = anchor.pair_at; at <= anchor.pair_at + 1; ++at) {
        if (PairKey(anchor.text[at], anchor.text[at + 1]) != key || i < at) continue;
        const std::size_t anchor_start = i - at;
        if (!Begins(line.substr(anchor_start), anchor.text)) continue;
        for (const Signature& signature : kSignatures) {
          if (signature.anchor != a || signature.rank >= best || anchor_start < signature.anchor_at) continue;
          if (Begins(line.substr(anchor_start - signature.anchor_at), signature.text)) best = signature.rank;
        }
      }
    }
  }
  if (best < static_cast<int>(std::size(kKinds))) return std::string(kKinds[best]);
  // NCCL's own lines also say "Timeout" of a proxy or socket wait, which holds no anchor.
  if (nccl_prefixed && Contains(line, "Timeout")) return "nccl-error";
  return std::nullopt;
}

// "[rank3]:..." (PyTorch) names the rank; "[host:pid ..." (UCX) names the host.
void ParseForeignPrefix(std::string_view line, std::optional<int>& rank, std::string& host) {
  if (Begins(line, "[rank"sv)) {
    rank = LeadingInt(line.substr(5));
    return;
  }
  if (!Begins(line, "["sv)) return;
  std::size_t end = 1;
  while (end < line.size() && IsHostChar(line[end])) ++end;
  if (end > 1 && end < line.size() && line[end] == ':') host = Field(line.substr(1, end - 1));
}

// Where NCCL's markers are in a line: " NCCL INFO ", " NCCL WARN " and "NCCL version ", each
// the first of its kind (npos when absent). One pass over the line's "NCCL " words, where a
// search per marker stopped at every space of every line: most of a long log's time.
struct Markers {
  std::size_t info = std::string_view::npos;
  std::size_t warn = std::string_view::npos;
  std::size_t version = std::string_view::npos;
};

Markers FindMarkers(std::string_view line) {
  Markers markers;
  for (auto at = line.find("NCCL "); at != std::string_view::npos; at = line.find("NCCL ", at + 1)) {
    const std::string_view rest = line.substr(at + 5);
    if (at > 0 && line[at - 1] == ' ') {
      if (markers.info == std::string_view::npos && Begins(rest, "INFO "sv)) markers.info = at - 1;
      if (markers.warn == std::string_view::npos && Begins(rest, "WARN "sv)) markers.warn = at - 1;
    }
    if (markers.version == std::string_view::npos && Begins(rest, "version "sv)) markers.version = at;
  }
  return markers;
}

class LogBuilder {
 public:
  explicit LogBuilder(NcclLog& log) : log_(log) {}

  void Line(std::string_view line, int number) {
    ++log_.lines;
    if (line.size() > kMaxLineBytes) line = line.substr(0, kMaxLineBytes);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view trimmed = TrimBlanks(line);
    if (trimmed.empty()) return;  // a blank line does not break a continuation
    Source source;
    source.line = number;
    const Markers markers = FindMarkers(line);
    const std::size_t info = markers.info;
    const std::size_t warn = markers.warn;
    const std::size_t version = markers.version;
    if (version != std::string_view::npos) {
      AddVersion(FirstWord(line.substr(version + 13)));
      if (info == std::string_view::npos && warn == std::string_view::npos && Begins(trimmed, "NCCL version"sv)) {
        ++log_.nccl_lines;
        previous_problem_ = false;
        return;
      }
    }
    if (info != std::string_view::npos) {
      ++log_.nccl_lines;
      Info(TrimBlanks(line.substr(info + 11)), LazySource(line.substr(0, info), number));
      previous_problem_ = false;
      return;
    }
    if (warn != std::string_view::npos) {
      ++log_.nccl_lines;
      ParseNcclPrefix(line.substr(0, warn), source);
      const std::string_view message = Trim(line.substr(warn + 11));
      AddProblem(source, std::nullopt, ErrorKind(message, true).value_or("warn"),
                 [&] { return WarnText(line, warn, message); });
      return;
    }
    if (Begins(trimmed, "#"sv)) {  // nccl-tests' own comments and tables, annotations
      previous_problem_ = false;
      return;
    }
    Foreign(trimmed, source);
  }

 private:
  // Keeps NCCL's "file.cc:123" location with the warning: it says which part of NCCL complained.
  static std::string WarnText(std::string_view line, std::size_t warn, std::string_view message) {
    const auto words = SplitWords(line.substr(0, warn));
    std::string text;
    if (!words.empty() && Contains(words.back(), ".") && !StartsWith(words.back(), "[")) {
      text = std::string(words.back()) + " ";
    }
    return text + "NCCL WARN " + std::string(message);
  }

  void Info(std::string_view message, const LazySource& at) {
    if (Begins(message, "Channel "sv) || Begins(message, "Ring "sv)) {
      if (auto channel = ParseChannel(message, at)) {
        if (log_.channels.size() < kMaxChannels) {
          log_.channels.push_back(std::move(*channel));
        } else {
          ++log_.dropped;
        }
      }
      return;
    }
    if (Begins(message, "NET/"sv)) {
      const auto colon = message.find(" : ");
      if (colon == std::string_view::npos) return;
      const std::string_view net = Trim(message.substr(4, colon - 4));
      const std::string_view rest = Trim(message.substr(colon + 3));
      if (Begins(rest, "Using "sv)) {
        if (Room(log_.net_inits)) log_.net_inits.push_back(ParseNetInit(net, AfterPrefix(rest, "Using "), at.get()));
      } else if (Begins(rest, "No device found"sv)) {
        Store(log_.no_device, SourcedText{at.get(), Field(net)});
      } else if (const bool gdr = Contains(rest, "GPU Direct RDMA"); gdr && Contains(rest, "for GPU ")) {
        GdrPathLine(rest, at.get());
      } else if (gdr && Contains(rest, "for HCA")) {
        if (Room(log_.gdr)) log_.gdr.push_back(ParseGdrStatus(rest, at.get()));
      }
      return;
    }
    if (Begins(message, "GPU Direct RDMA "sv) && Contains(message, "for GPU ")) {
      GdrPathLine(message, at.get());
      return;
    }
    if (Begins(message, "GPU/"sv) && Contains(message, " :")) {
      GpuNetPaths(message, at.get());
      return;
    }
    if (Begins(message, "Using network "sv)) {
      if (Room(log_.networks)) log_.networks.push_back({at.get(), Field(Trim(AfterPrefix(message, "Using network ")))});
      return;
    }
    if (Begins(message, "Bootstrap : Using "sv)) {
      if (Room(log_.bootstraps)) {
        log_.bootstraps.push_back({at.get(), InterfaceOf(AfterPrefix(message, "Bootstrap : Using "))});
      }
      return;
    }
    if (const auto set_at = message.find(" set by environment to"); set_at != std::string_view::npos) {
      const std::string_view name = LastWord(message.substr(0, set_at));
      if (name.empty() || !Room(log_.env)) return;
      std::string value = Field(Trim(message.substr(set_at + 22)));
      if (!value.empty() && value.back() == '.') value.pop_back();  // integer parameters end in "."
      log_.env.push_back({at.get(), Field(name), value});
      return;
    }
    // Both need an 'N' ("NVLS", "CollNet"), which most of the lines that reach here lack.
    const bool has_n = !message.empty() && std::memchr(message.data(), 'N', message.size()) != nullptr;
    if (has_n && (Begins(message, "Connected NVLS"sv) || Contains(message, "NVLS comm "))) log_.nvls_connected = true;
    if (has_n && (Begins(message, "Connected CollNet"sv) || (Contains(message, "CollNet") && Contains(message, "enabled")))) {
      log_.collnet_connected = true;
    }
    if (Contains(message, " rank ") && (Contains(message, "nranks ") || Contains(message, "nRanks "))) {
      RankIdentity identity;
      identity.rank = IntAfter(message, " rank ").value_or(-1);
      if (identity.rank < 0 || !Room(log_.ranks)) return;
      identity.source = at.get();
      identity.nranks = IntAfter(message, "nranks ").value_or(IntAfter(message, "nRanks ").value_or(-1));
      identity.nnodes = IntAfter(message, "nNodes ").value_or(-1);
      log_.ranks.push_back(std::move(identity));
    }
  }

  // "GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", "... Disabled for HCA 0 'mlx5_0' (no module)",
  // "GPU Direct RDMA (nvidia-peermem) enabled for HCA 0 'mlx5_0" (no closing quote).
  static GdrStatus ParseGdrStatus(std::string_view rest, const Source& source) {
    GdrStatus status{source, "", Contains(rest, "nabled") && !Contains(rest, "isabled"), "", ""};
    const auto open = rest.find("RDMA (");
    const auto for_hca = rest.find("for HCA");
    if (open != std::string_view::npos && open < for_hca) {
      const std::string_view inside = rest.substr(open + 6);
      status.mechanism = Field(inside.substr(0, inside.find(')')));
    }
    const auto quote = rest.find('\'');
    if (quote == std::string_view::npos) return status;
    const std::string_view name = rest.substr(quote + 1);
    const auto close = name.find('\'');
    status.hca = Field(Trim(name.substr(0, close)));
    if (close == std::string_view::npos) return status;
    const std::string_view after = name.substr(close + 1);
    const auto paren = after.find('(');
    if (paren != std::string_view::npos) {
      const std::string_view inside = after.substr(paren + 1);
      status.reason = Field(inside.substr(0, inside.find(')')));
    }
    return status;
  }

  // "GPU Direct RDMA Disabled for GPU ca000 / HCA 0 (distance 7 > 4)" and its Enabled form.
  void GdrPathLine(std::string_view text, const Source& source) {
    const auto for_gpu = text.find("for GPU ");
    const auto hca_at = text.find("/ HCA ", for_gpu);
    const auto distance_at = text.find("(distance ", for_gpu);
    if (hca_at == std::string_view::npos || distance_at == std::string_view::npos) return;
    GdrPath path;
    path.source = source;
    path.enabled = Contains(text.substr(0, for_gpu), "Enabled");
    path.gpu = Field(FirstWord(text.substr(for_gpu + 8, hca_at - for_gpu - 8)));
    path.hca = Field(FirstWord(text.substr(hca_at + 6)));
    const auto words = SplitWords(text.substr(distance_at + 10));
    if (words.size() < 3) return;
    path.distance = LeadingInt(words[0]).value_or(-1);
    path.threshold = LeadingInt(words[2]).value_or(-1);
    Store(log_.gdr_paths, std::move(path));
  }

  // "GPU/81000 :GPU/81000 (0/5000.000000/LOC) CPU/1 (1/24.000000/PHB) NET/1 (3/24.000000/PHB)".
  void GpuNetPaths(std::string_view message, const Source& source) {
    const auto colon = message.find(" :");
    const std::string gpu = Field(message.substr(4, colon - 4));
    const auto words = SplitWords(message.substr(colon + 2));
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      if (!StartsWith(words[i], "NET/") || !StartsWith(words[i + 1], "(")) continue;
      std::string_view path = words[i + 1];
      const auto slash = path.rfind('/');
      const auto close = path.rfind(')');
      if (slash == std::string_view::npos || close == std::string_view::npos || close < slash) continue;
      Store(log_.gpu_net_paths,
            GpuNetPath{source, gpu, Field(words[i].substr(4)), Field(path.substr(slash + 1, close - slash - 1))});
    }
  }

  // A line some other program printed: PyTorch, MPI, the C++ runtime.
  void Foreign(std::string_view line, const Source& source) {
    const auto kind = ErrorKind(line, false);
    if (!kind) {
      previous_problem_ = false;
      return;
    }
    std::optional<int> rank;
    Source where = source;
    ParseForeignPrefix(line, rank, where.host);
    // "ncclRemoteError: ..." on its own line continues the exception message above it.
    if (!rank && where.host.empty() && previous_problem_) {
      rank = previous_rank_;
      where.host = previous_host_;
    }
    AddProblem(where, rank, *kind, [&] { return std::string(line); });
  }

  // `make_text()` is the problem's text, made only for a problem that is kept: a log of
  // millions of errors costs a count past the cap, not a copy of each line.
  template <typename MakeText>
  void AddProblem(const Source& source, std::optional<int> rank, const std::string& kind, MakeText make_text) {
    previous_problem_ = true;
    previous_rank_ = rank;
    previous_host_ = source.host;
    if (log_.problems.size() >= kMaxProblems) {
      ++log_.dropped;
      return;
    }
    std::string text = make_text();
    if (text.size() > 300) text = text.substr(0, 300) + "...";
    log_.problems.push_back({source, rank, kind, std::move(text)});
  }

  void AddVersion(std::string_view word) {
    while (!word.empty() && (word.back() == ',' || word.back() == '.')) word.remove_suffix(1);
    if (word.empty() || !std::isdigit(static_cast<unsigned char>(word.front()))) return;
    const std::string version(word);
    if (std::find(log_.versions.begin(), log_.versions.end(), version) == log_.versions.end() &&
        log_.versions.size() < 64) {
      log_.versions.push_back(version);
    }
  }

  // Whether one more fact of a kind is kept; past the cap it is counted as dropped instead.
  // Checked before a fact is built, so that a long log, which repeats its facts far past the
  // caps, costs no more than the recognition of each line.
  template <typename Fact>
  bool Room(const std::vector<Fact>& facts) {
    if (facts.size() < kMaxFactsPerKind) return true;
    ++log_.dropped;
    return false;
  }

  template <typename Fact>
  void Store(std::vector<Fact>& facts, Fact fact) {
    if (Room(facts)) facts.push_back(std::move(fact));
  }

  NcclLog& log_;
  bool previous_problem_ = false;
  std::optional<int> previous_rank_;
  std::string previous_host_;
};

std::string SourceKey(const Source& source) {
  return source.host + ":" + std::to_string(source.pid) + ":" + std::to_string(source.cuda_dev);
}

}  // namespace

const char* TransportKindName(TransportKind kind) {
  switch (kind) {
    case TransportKind::kNet: return "NET";
    case TransportKind::kP2p: return "P2P";
    case TransportKind::kShm: return "SHM";
    case TransportKind::kNvls: return "NVLS";
    case TransportKind::kCollNet: return "CollNet";
    case TransportKind::kOther: return "other";
  }
  return "other";
}

std::string NetFamily(std::string_view net) {
  if (net == "IB" || Begins(net, "IBext"sv)) return "IB";
  return std::string(net);
}

void NcclLog::BuildIndex() {
  rank_by_source.clear();
  host_by_rank.clear();
  for (const auto& identity : ranks) {
    rank_by_source[SourceKey(identity.source)] = identity.rank;
    if (!identity.source.host.empty()) host_by_rank.emplace(identity.rank, identity.source.host);
  }
  // NCCL prints a send (or untagged) channel on the sender and a receive on the receiver.
  for (const auto& channel : channels) {
    const int printed_by = channel.direction == "receive" ? channel.to_rank : channel.from_rank;
    if (!channel.source.host.empty()) host_by_rank.emplace(printed_by, channel.source.host);
  }
}

std::optional<int> NcclLog::RankOf(const Source& source) const {
  const auto found = rank_by_source.find(SourceKey(source));
  if (found == rank_by_source.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string> NcclLog::HostOfRank(int rank) const {
  const auto found = host_by_rank.find(rank);
  if (found == host_by_rank.end()) return std::nullopt;
  return found->second;
}

namespace {

Result<NcclLog> Finish(NcclLog log, const std::string& origin) {
  if (log.nccl_lines == 0 && log.problems.empty()) {
    return Error{origin + ":1: no NCCL output in " + std::to_string(log.lines) +
                 " line(s) (no 'NCCL INFO', 'NCCL WARN' or 'NCCL version' line); capture the job's output with "
                 "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH,ENV"};
  }
  log.BuildIndex();
  return log;
}

}  // namespace

Result<NcclLog> ParseNcclLog(LineSource& lines, const std::string& origin) {
  NcclLog log;
  LogBuilder builder(log);
  while (const auto line = lines.Next()) {
    if (!line->terminated && line->number > 1) {
      // A log that ends inside a line was cut off (a full disk, a killed job, a copy that
      // stopped): "via NET/I" or half a device list would be judged as a wrong transport,
      // so the fragment is counted and named, never judged.
      ++log.lines;
      log.cut_last_line = line->number;
      break;
    }
    builder.Line(line->text, line->number);
  }
  if (const std::string error = lines.error(); !error.empty()) return Error{origin + ": " + error};
  return Finish(std::move(log), origin);
}

Result<NcclLog> ParseNcclLog(std::string_view text, const std::string& origin) {
  TextLines lines(text);
  return ParseNcclLog(lines, origin);
}

}  // namespace gpuconform::nccl_log
