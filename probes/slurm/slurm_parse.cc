#include "probes/slurm/slurm_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"

namespace gpuconform::slurm {

namespace {


bool ParseCount(std::string_view text, long long& value) {
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && value >= 0;
}

// "Key=value more words Other=x" -> {Key: "value more words", Other: "x"}. Words without
// '=' continue the previous value, which keeps Reason= and OS= texts whole.
void AddFields(std::string_view line, std::map<std::string, std::string>& fields, std::string& last_key) {
  for (auto word : SplitWords(line)) {
    const auto eq = word.find('=');
    if (eq != std::string_view::npos && eq > 0 && std::isalpha(static_cast<unsigned char>(word[0]))) {
      last_key = std::string(word.substr(0, eq));
      fields[last_key] = std::string(word.substr(eq + 1));
    } else if (!last_key.empty()) {
      fields[last_key] += " " + std::string(word);
    }
  }
}

}  // namespace

std::string SlurmNode::Field(const std::string& key) const {
  if (key == "NodeName") return name;
  if (!fields) return "";
  auto it = fields->find(key);
  return it == fields->end() ? "" : it->second;
}

std::set<std::string> SlurmNode::StateFlags() const {
  std::set<std::string> flags;
  std::string flag;
  for (char c : state()) {
    if (c == '+') {
      if (!flag.empty()) flags.insert(flag);
      flag.clear();
    } else {
      flag += c;
    }
  }
  if (!flag.empty()) flags.insert(flag);
  return flags;
}

std::vector<std::string> SlurmNode::Partitions() const {
  std::vector<std::string> partitions;
  // Field returns a copy, which must outlive the words SplitWords points into.
  const std::string field = Field("Partitions");
  for (auto& part : SplitWords(field)) {
    std::string list(part);
    std::size_t start = 0;
    while (start < list.size()) {
      auto comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      if (comma > start) partitions.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return partitions;
}

Result<std::vector<SlurmNode>> ParseScontrolShowNode(const std::string& text, const std::string& origin) {
  std::vector<SlurmNode> nodes;
  std::shared_ptr<std::map<std::string, std::string>> record;  // the fields of nodes.back()
  std::string last_key;
  bool in_record = false;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view raw_line = WithoutCarriageReturn(next->text);
    const std::string_view line = Trim(raw_line);
    if (StartsWith(line, "NodeName=")) {
      record = std::make_shared<std::map<std::string, std::string>>();
      nodes.push_back({});
      nodes.back().line = number;
      nodes.back().fields = record;
      last_key.clear();
      AddFields(line, *record, last_key);
      nodes.back().name = (*record)["NodeName"];
      if (nodes.back().name.empty()) return ErrorAt(origin, number, "NodeName= without a name");
      in_record = true;
      continue;
    }
    // A record's continuation lines are indented; anything else (a prompt, a table) ends it.
    const bool indented = !raw_line.empty() && (raw_line[0] == ' ' || raw_line[0] == '\t');
    if (in_record && indented && !line.empty()) {
      AddFields(line, *record, last_key);
    } else {
      in_record = false;
    }
  }
  if (nodes.empty()) return ErrorAt(origin, 1, "no 'NodeName=' record: not `scontrol show node` output");
  for (const auto& node : nodes) {
    if (node.state().empty()) return ErrorAt(origin, node.line, "node " + node.name + " has no State= field");
  }
  return nodes;
}

Result<std::vector<SlurmNode>> ParseSlurmConfNodes(const std::string& text, const std::string& origin,
                                                   std::size_t max_hosts) {
  std::vector<SlurmNode> nodes;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view raw_line = WithoutCarriageReturn(next->text);
    const std::string_view line = Trim(raw_line.substr(0, raw_line.find('#')));
    if (Lowercase(line.substr(0, 9)) != "nodename=") continue;
    auto fields = std::make_shared<std::map<std::string, std::string>>();
    std::string last_key;
    AddFields(line, *fields, last_key);
    std::string names;
    for (const auto& [key, value] : *fields) {
      if (Lowercase(key) == "nodename") names = value;
    }
    if (names == "DEFAULT") continue;
    auto hosts = ExpandHostlist(names, max_hosts);
    if (!hosts) return ErrorAt(origin, number, hosts.error());
    // The cap is for the whole file: many long lines must not eat memory either.
    if (nodes.size() + hosts->size() > max_hosts) {
      return ErrorAt(origin, number,
                     "NodeName= lines name more than " + std::to_string(max_hosts) +
                         " nodes in all: a typo in a host range (this line names " + std::to_string(hosts->size()) +
                         ")");
    }
    for (const auto& host : *hosts) {
      nodes.push_back({.name = host, .fields = fields, .line = number});
    }
  }
  if (nodes.empty()) return ErrorAt(origin, 1, "no NodeName= line: not a slurm.conf with nodes");
  return nodes;
}

Result<std::vector<GresEntry>> ParseGres(const std::string& gres) {
  std::vector<GresEntry> entries;
  const std::string_view text = Trim(gres);
  if (text.empty() || text == "(null)" || text == "N/A") return entries;
  // Split on commas outside parentheses: "gpu:a40:1(S:0,2,4),mps:100".
  std::vector<std::string> parts;
  std::string part;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  for (auto entry_text : parts) {
    const auto paren = entry_text.find('(');
    if (paren != std::string::npos) entry_text.resize(paren);
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (start <= entry_text.size()) {
      auto colon = entry_text.find(':', start);
      if (colon == std::string::npos) colon = entry_text.size();
      fields.push_back(entry_text.substr(start, colon - start));
      start = colon + 1;
    }
    GresEntry entry;
    entry.name = fields[0];
    if (entry.name.empty()) return Error{"GRES '" + gres + "': empty name"};
    long long count = 1;  // "gpu" alone means one
    if (fields.size() >= 2 && !ParseCount(fields.back(), count)) {
      // "gpu:h100" is one typed GPU; other GRES carry counts like "4G" or flags like
      // "no_consume" that do not concern GPU checks, so only GPU counts must be numbers.
      if (entry.name == "gpu" && fields.size() >= 3) {
        return Error{"GRES '" + gres + "': count '" + fields.back() + "' is not a number"};
      }
      count = entry.name == "gpu" ? 1 : 0;
    }
    if (fields.size() >= 3 || (fields.size() == 2 && !ParseCount(fields[1], count))) entry.type = fields[1];
    if (fields.size() == 2 && entry.type.empty()) ParseCount(fields[1], count);
    entry.count = count;
    entries.push_back(entry);
  }
  return entries;
}

std::map<std::string, long long> GpuCountByType(const std::vector<GresEntry>& entries) {
  std::map<std::string, long long> by_type;
  for (const auto& entry : entries) {
    if (entry.name == "gpu") by_type[entry.type] += entry.count;
  }
  return by_type;
}

long long GpuCount(const std::vector<GresEntry>& entries) {
  long long total = 0;
  for (const auto& entry : entries) {
    if (entry.name == "gpu") total += entry.count;
  }
  return total;
}

namespace {

// Expands one bracket group "01-03,7" with the prefix and suffix around it.
Result<bool> ExpandRanges(const std::string& prefix, const std::string& ranges, const std::string& suffix,
                          std::size_t max_hosts, std::vector<std::string>& out) {
  std::size_t start = 0;
  while (start <= ranges.size()) {
    auto comma = ranges.find(',', start);
    if (comma == std::string::npos) comma = ranges.size();
    const std::string range = ranges.substr(start, comma - start);
    const auto dash = range.find('-');
    const std::string low_text = range.substr(0, dash);
    const std::string high_text = dash == std::string::npos ? low_text : range.substr(dash + 1);
    long long low = 0;
    long long high = 0;
    if (!ParseCount(low_text, low) || !ParseCount(high_text, high) || high < low) {
      return Error{"bad range '" + range + "'"};
    }
    if (static_cast<std::size_t>(high - low) + out.size() >= max_hosts) {
      return Error{"range '" + range + "' has more than " + std::to_string(max_hosts) + " entries"};
    }
    const std::size_t width = low_text.size();  // zero padding: "01-12"
    for (long long i = low; i <= high; ++i) {
      std::string number = std::to_string(i);
      if (number.size() < width) number.insert(0, width - number.size(), '0');
      out.push_back(prefix + number + suffix);
    }
    start = comma + 1;
  }
  return true;
}

}  // namespace

Result<std::vector<std::string>> ExpandHostlist(const std::string& hostlist, std::size_t max_hosts) {
  std::vector<std::string> hosts;
  std::string item;
  int depth = 0;
  auto flush = [&]() -> Result<bool> {
    if (item.empty()) return true;
    const auto open = item.find('[');
    if (open == std::string::npos) {
      if (hosts.size() >= max_hosts) return Error{"hostlist names more than " + std::to_string(max_hosts) + " hosts"};
      hosts.push_back(item);
    } else {
      const auto close = item.find(']', open);
      if (close == std::string::npos) return Error{"hostlist '" + hostlist + "': unclosed '['"};
      auto expanded = ExpandRanges(item.substr(0, open), item.substr(open + 1, close - open - 1), item.substr(close + 1),
                                   max_hosts, hosts);
      if (!expanded) return Error{"hostlist '" + hostlist + "': " + expanded.error()};
    }
    item.clear();
    return true;
  };
  for (char c : hostlist) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      auto ok = flush();
      if (!ok) return Error{ok.error()};
    } else if (c != ' ') {
      item += c;
    }
  }
  auto ok = flush();
  if (!ok) return Error{ok.error()};
  return hosts;
}

std::map<std::string, long long> GresConf::GpuTypesFor(const std::string& node) const {
  std::map<std::string, long long> by_type;
  for (const auto& line : lines) {
    if (line.name != "gpu") continue;
    if (!line.nodes.empty() && std::find(line.nodes.begin(), line.nodes.end(), node) == line.nodes.end()) continue;
    by_type[line.type] += line.count;
  }
  return by_type;
}

long long GresConf::GpusFor(const std::string& node) const {
  long long total = 0;
  bool any = false;
  for (const auto& line : lines) {
    if (line.name != "gpu") continue;
    if (!line.nodes.empty() && std::find(line.nodes.begin(), line.nodes.end(), node) == line.nodes.end()) continue;
    total += line.count;
    any = true;
  }
  return any ? total : -1;
}

Result<GresConf> ParseGresConf(const std::string& text, const std::string& origin) {
  GresConf conf;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const int number = next->number;
    const std::string_view raw_line = WithoutCarriageReturn(next->text);
    std::string_view line = raw_line.substr(0, raw_line.find('#'));
    line = Trim(line);
    if (line.empty()) continue;
    std::map<std::string, std::string> fields;  // lower-case keys: gres.conf keys are case-insensitive
    for (auto word : SplitWords(line)) {
      const auto eq = word.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return ErrorAt(origin, number, "expected Key=Value, got '" + std::string(word) + "'");
      }
      fields[Lowercase(word.substr(0, eq))] = std::string(word.substr(eq + 1));
    }
    if (fields.count("autodetect") && fields.size() == 1) {
      conf.autodetect = Lowercase(fields["autodetect"]);
      continue;
    }
    GresConfLine entry;
    entry.line = number;
    entry.name = fields["name"];
    entry.type = fields["type"];
    entry.file = fields["file"];
    if (entry.name.empty()) return ErrorAt(origin, number, "a GRES line needs Name= (e.g. Name=gpu)");
    if (fields.count("nodename")) {
      auto nodes = ExpandHostlist(fields["nodename"]);
      if (!nodes) return ErrorAt(origin, number, nodes.error());
      entry.nodes = *nodes;
    }
    if (fields.count("count")) {
      // Count may carry a suffix (K, M, G) for bandwidth-like GRES; GPUs never do.
      long long count = 0;
      std::string count_text = fields["count"];
      if (!ParseCount(count_text, count)) {
        if (entry.name == "gpu") return ErrorAt(origin, number, "Count='" + count_text + "' is not a number");
        count = 0;
      }
      entry.count = count;
    } else if (!entry.file.empty()) {
      auto files = ExpandHostlist(entry.file);
      if (!files) return ErrorAt(origin, number, "File=" + entry.file + ": " + files.error());
      entry.count = static_cast<long long>(files->size());
    } else {
      entry.count = 1;
    }
    conf.lines.push_back(entry);
  }
  return conf;
}

Result<std::vector<PendingJob>> ParsePendingJobs(const std::string& text, const std::string& origin) {
  std::vector<PendingJob> jobs;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view raw_line = WithoutCarriageReturn(next->text);
    const std::string_view line = Trim(raw_line);
    if (line.empty()) continue;
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= line.size()) {
      auto bar = line.find('|', start);
      if (bar == std::string_view::npos) bar = line.size();
      parts.emplace_back(line.substr(start, bar - start));
      start = bar + 1;
    }
    if (parts.size() != 4) {
      return ErrorAt(origin, next->number, "expected 'jobid|partition|user|reason' (squeue -h -t PD -o \"%i|%P|%u|%r\")");
    }
    jobs.push_back({parts[0], parts[1], parts[2], parts[3]});
  }
  return jobs;
}

std::vector<SlurmdProbeResult> ParseSlurmdReachability(const std::string& text) {
  std::vector<SlurmdProbeResult> probes;
  for (auto line : SplitLines(text)) {
    const auto words = SplitWords(line);
    if (words.size() < 3) continue;
    SlurmdProbeResult probe{std::string(words[0]), std::string(words[1]), words[2] == "ok", ""};
    for (std::size_t i = 3; i < words.size(); ++i) probe.error += (i > 3 ? " " : "") + std::string(words[i]);
    probes.push_back(probe);
  }
  return probes;
}

std::vector<AllocationTask> ParseAllocationReport(const std::string& text) {
  std::vector<AllocationTask> tasks;
  for (auto line : SplitLines(text)) {
    const auto words = SplitWords(line);
    if (words.size() == 2) tasks.push_back({std::string(words[0]), std::string(words[1])});
  }
  return tasks;
}

}  // namespace gpuconform::slurm
