#include "probes/slurm/slurm_topology.h"

#include <map>
#include <optional>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform::slurm {

namespace {

// What Slurm's error() prints when no topology plugin is configured or it holds no records.
constexpr std::string_view kNoTopology = "No topology information available";
// Releases before the tree plugin printed its own records cut a line at 512 characters, 511
// of them printed (src/api/topo_info.c).
constexpr std::size_t kSlurmCutLineLength = 511;

// The Key=value words of a record line; the first of a repeated key wins, words without '='
// are passed over.
std::map<std::string, std::string, std::less<>> RecordFields(std::string_view line) {
  std::map<std::string, std::string, std::less<>> fields;
  for (const auto word : SplitWords(line)) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    fields.emplace(std::string(word.substr(0, eq)), std::string(word.substr(eq + 1)));
  }
  return fields;
}

std::optional<std::string> Field(const std::map<std::string, std::string, std::less<>>& fields, std::string_view key) {
  const auto it = fields.find(key);
  if (it == fields.end()) return std::nullopt;
  return it->second;
}

struct Record {
  int line = 0;
  std::size_t length = 0;
  TopologyGroup group;
  std::vector<std::string> children;  // an inner switch's Switches=, expanded
  bool leaf = false;
};

}  // namespace

Result<std::vector<TopologyGroup>> ParseSlurmTopology(const std::string& text, const std::string& origin) {
  std::vector<Record> records;
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view line = Trim(WithoutCarriageReturn(next->text));
    if (line.empty() || Contains(line, kNoTopology)) continue;
    const bool is_switch = StartsWith(line, "SwitchName=");
    if (!is_switch && !StartsWith(line, "BlockName=")) {
      return ErrorAt(origin, next->number,
                     "not a SwitchName= or BlockName= record of `scontrol show topology`: " + QuoteForMessage(line));
    }
    const auto fields = RecordFields(line);
    Record record;
    record.line = next->number;
    record.length = line.size();
    record.group.name = *Field(fields, is_switch ? "SwitchName" : "BlockName");
    const std::string kind = is_switch ? "switch" : "block";
    if (record.group.name.empty()) return ErrorAt(origin, record.line, "a " + kind + " record without a name");
    const auto expand = [&](std::string_view key, const std::string& list) -> Result<std::vector<std::string>> {
      auto names = ExpandHostlist(list);
      if (!names) {
        const std::string cut =
            record.length >= kSlurmCutLineLength
                ? " (the line may be cut at Slurm's 512-character limit: run scontrol with SLURM_TOPO_LEN=1000000)"
                : "";
        return ErrorAt(origin, record.line,
                       kind + " " + record.group.name + " " + std::string(key) + "=: " + names.error() + cut);
      }
      return names;
    };
    const auto switches = is_switch ? Field(fields, "Switches") : std::nullopt;
    const auto nodes = Field(fields, "Nodes");
    if (switches) {
      // An inner switch: a parent only. Slurm also prints its Nodes=, every node below it.
      auto children = expand("Switches", *switches);
      if (!children) return Error{children.error()};
      record.children = std::move(children).value();
    } else if (nodes) {
      auto names = expand("Nodes", *nodes);
      if (!names) return Error{names.error()};
      record.group.nodes = std::move(names).value();
      record.leaf = true;
    } else if (is_switch) {
      return ErrorAt(origin, record.line, "switch " + record.group.name + " lists neither Nodes= nor Switches=");
    }
    // A block without Nodes= has no nodes to seed a group with.
    records.push_back(std::move(record));
  }

  std::map<std::string, std::string, std::less<>> parent_of;  // the first switch naming each child
  for (const auto& record : records) {
    for (const auto& child : record.children) parent_of.emplace(child, record.group.name);
  }
  std::vector<TopologyGroup> groups;
  for (auto& record : records) {
    if (!record.leaf) continue;
    if (const auto parent = parent_of.find(record.group.name); parent != parent_of.end()) {
      record.group.parent = parent->second;
    }
    groups.push_back(std::move(record.group));
  }
  return groups;
}

}  // namespace gpuconform::slurm
