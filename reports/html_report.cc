#include "reports/html_report.h"

#include "harness/core/snapshot_gaps.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "harness/util/atomic_file.h"
#include "harness/util/hostlist.h"
#include "reports/html_svg.h"
#include "results/run_totals.h"

namespace gpuconform {

namespace {

using html::Escape;

// Caps that keep the page's size growing with the distinct problems, never with the fleet.
constexpr std::size_t kMaxHeatmapRows = 200;
constexpr std::size_t kMaxFindingGroups = 200;
constexpr std::size_t kMaxOddVersions = 20;
constexpr std::size_t kMaxHostlistChars = 400;

bool IsProblem(Verdict verdict) { return AttentionRank(verdict) <= AttentionRank(Verdict::kError); }

Verdict Worse(Verdict a, Verdict b) { return AttentionRank(a) <= AttentionRank(b) ? a : b; }

std::string Legend() {
  std::string legend = "<p class=\"legend\">";
  for (const auto& [verdict, meaning] : {std::pair{Verdict::kPass, "conforms"},
                                         {Verdict::kFail, "non-conforming"},
                                         {Verdict::kRegression, "worse than the baseline"},
                                         {Verdict::kError, "not evaluated (error)"},
                                         {Verdict::kSkip, "skipped"}}) {
    legend += fmt::format("<span><i class=\"{}\"></i>{}</span>", html::VerdictClass(verdict), meaning);
  }
  return legend + "</p>";
}

// ---- Summary -----------------------------------------------------------------------------

std::string FactRow(std::string_view name, const std::string& value) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>", name, Escape(value));
}

std::string CountCard(Verdict verdict, int count, std::string_view what) {
  return fmt::format("<div class=\"card c-{}\"><b>{}</b>{}</div>", VerdictName(verdict), count, what);
}

std::string SummarySection(const RunRecord& run, const std::vector<CheckResult>& results) {
  const RunTotals totals = CountChecks(results);
  std::string section = fmt::format(
      "<section id=\"summary\" data-exit-status=\"{0}\"><h1>gpuconform report</h1><p class=\"status exit-{0}\">"
      "<span class=\"exit\">exit {0}</span> {1}</p><div class=\"cards\">",
      run.exit_status, Escape(ExitMeaning(run.exit_status)));
  section += fmt::format("<div class=\"card\"><b>{}</b>checks ({} cases)</div>", totals.checks, totals.cases);
  section += CountCard(Verdict::kPass, totals.passed, "conform");
  section += CountCard(Verdict::kFail, totals.failed, "non-conforming");
  section += CountCard(Verdict::kRegression, totals.regressed, "worse than baseline");
  section += CountCard(Verdict::kError, totals.errored, "not evaluated");
  section += CountCard(Verdict::kSkip, totals.skipped, "skipped");
  section += "</div><table class=\"facts\">";
  section += FactRow("profile", run.profile);
  section += FactRow("mode", run.mode);
  section += FactRow("nodes", fmt::format("{}: {}", run.nodes.size(), ShortHostlist(run.nodes, kMaxHostlistChars)));
  if (!run.not_covered.empty()) {
    const std::size_t listed = run.nodes.size() + run.not_covered.size();
    section += FactRow("not covered",
                       fmt::format("{} of {} nodes the controller lists ran no task ({:.0f}% covered): {}",
                                   run.not_covered.size(), listed, 100.0 * run.nodes.size() / listed,
                                   ShortHostlist(run.not_covered, kMaxHostlistChars)));
  }
  section += FactRow("run id", run.run_id);
  section += FactRow("started (UTC)", run.started_utc);
  section += FactRow("ended (UTC)", run.ended_utc);
  std::string tags;
  for (const auto& [key, value] : run.tags) tags += (tags.empty() ? "" : ", ") + key + "=" + value;
  if (!tags.empty()) section += FactRow("tags", tags);
  if (run.baseline_origin) {
    section += FactRow(
        "baseline",
        *run.baseline_origin +
            (run.baseline_run_ids.empty() ? "" : " (runs " + html::NamesClipped(run.baseline_run_ids, 5) + ")"));
  }
  if (run.slurm_job_id) section += FactRow("Slurm job", *run.slurm_job_id);
  section += FactRow("gpuconform", run.gpuconform_version + " on " + run.hostname);
  return section + "</table></section>";
}

// ---- Heatmap -----------------------------------------------------------------------------

struct Column {
  std::string suite, check;
};

// One row of cells, one per column; nullopt where the row has no case of that check.
using Cells = std::vector<std::optional<Verdict>>;

struct NodeState {
  std::size_t order = 0;
  Verdict worst = Verdict::kSkip;
  int problems = 0;
};

struct HeatmapData {
  std::vector<Column> columns;
  std::vector<std::string> all_skipped;  // checks skipped on every case: listed, not drawn
  std::map<std::pair<std::string, std::string>, std::size_t> column_of;
  std::vector<std::string> node_order;
  std::unordered_map<std::string, NodeState> nodes;
};

HeatmapData CollectHeatmap(const RunRecord& run, const std::vector<CheckResult>& results) {
  HeatmapData data;
  std::map<std::pair<std::string, std::string>, bool> drawn;  // check -> has a case other than skip
  std::vector<std::pair<std::string, std::string>> check_order;
  for (const auto& result : results) {
    const auto key = std::make_pair(result.suite, result.check);
    auto [it, added] = drawn.try_emplace(key, false);
    if (added) check_order.push_back(key);
    it->second = it->second || result.verdict != Verdict::kSkip;
  }
  for (const auto& key : check_order) {
    if (drawn.at(key)) {
      data.column_of[key] = data.columns.size();
      data.columns.push_back({key.first, key.second});
    } else {
      data.all_skipped.push_back(key.first + "." + key.second);
    }
  }
  const auto add_node = [&](const std::string& node) {
    if (data.nodes.try_emplace(node, NodeState{data.node_order.size()}).second) data.node_order.push_back(node);
  };
  for (const auto& node : run.nodes) add_node(node);
  for (const auto& result : results) {
    if (result.node.empty()) continue;
    add_node(result.node);
    NodeState& state = data.nodes.at(result.node);
    state.worst = Worse(state.worst, result.verdict);
    state.problems += IsProblem(result.verdict) ? 1 : 0;
  }
  return data;
}

std::string HeatmapHeader(const HeatmapData& data) {
  std::string header = "<thead><tr><th class=\"corner\">node</th>";
  for (std::size_t i = 0; i < data.columns.size(); ++i) {
    const Column& column = data.columns[i];
    const bool new_suite = i == 0 || data.columns[i - 1].suite != column.suite;
    header += fmt::format("<th class=\"col{}\" title=\"{}.{}\"><span>{}{}</span></th>", new_suite ? " suite-start" : "",
                          Escape(column.suite), Escape(column.check),
                          new_suite ? "<b>" + Escape(column.suite) + "</b> " : "", Escape(column.check));
  }
  return header + "</tr></thead>";
}

std::string HeatmapRow(const HeatmapData& data, const std::string& row_class, const std::string& label_html,
                       const std::string& row_name, const Cells& cells) {
  std::string row = fmt::format("<tr class=\"{}\" data-node=\"{}\"><th class=\"rowlabel\">{}</th>", row_class,
                                Escape(row_name), label_html);
  for (std::size_t i = 0; i < data.columns.size(); ++i) {
    const bool new_suite = i == 0 || data.columns[i - 1].suite != data.columns[i].suite;
    const std::string suite_class = new_suite ? " suite-start" : "";
    if (!cells[i]) {
      row += new_suite ? "<td class=\"none suite-start\"></td>" : "<td class=\"none\"></td>";
    } else if (*cells[i] == Verdict::kPass || *cells[i] == Verdict::kSkip) {
      row += fmt::format("<td class=\"{}{}\"></td>", html::VerdictClass(*cells[i]), suite_class);
    } else {
      row += fmt::format("<td class=\"{}{}\" title=\"{}: {}.{}: {}\"></td>", html::VerdictClass(*cells[i]), suite_class,
                         Escape(row_name), Escape(data.columns[i].suite), Escape(data.columns[i].check),
                         VerdictName(*cells[i]));
    }
  }
  return row + "</tr>";
}

// Folds a case into a cell: the worst verdict wins, so a folded row shows any problem in it.
void FoldInto(Cells& cells, std::size_t column, Verdict verdict) {
  cells[column] = cells[column] ? Worse(*cells[column], verdict) : verdict;
}

// Problem nodes with the same verdict in every column share a row: 10,000 nodes that all
// miss the same file are one row, so rows grow with the distinct patterns, not the nodes.
struct NodeGroup {
  std::vector<std::string> nodes;
  Cells cells;
  NodeState state;  // the first node's: the same for all, their cells being the same
};

std::vector<NodeGroup> GroupProblemNodes(const HeatmapData& data, const std::vector<CheckResult>& results) {
  std::unordered_map<std::string, Cells> cells_of;
  for (const auto& result : results) {
    const auto column = data.column_of.find({result.suite, result.check});
    if (result.node.empty() || column == data.column_of.end()) continue;
    if (!IsProblem(data.nodes.at(result.node).worst)) continue;
    auto [it, added] = cells_of.try_emplace(result.node, Cells(data.columns.size()));
    FoldInto(it->second, column->second, result.verdict);
  }
  std::vector<NodeGroup> groups;
  std::unordered_map<std::string, std::size_t> group_of;  // the cells as text -> group
  for (const auto& node : data.node_order) {
    const auto cells = cells_of.find(node);
    if (!IsProblem(data.nodes.at(node).worst) || cells == cells_of.end()) continue;
    std::string signature;
    for (const auto& cell : cells->second) signature += cell ? static_cast<char>('0' + AttentionRank(*cell)) : '-';
    auto [it, added] = group_of.try_emplace(signature, groups.size());
    if (added) groups.push_back({{}, cells->second, data.nodes.at(node)});
    groups[it->second].nodes.push_back(node);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const NodeGroup& a, const NodeGroup& b) {
    return std::make_tuple(AttentionRank(a.state.worst), -a.state.problems, a.state.order) <
           std::make_tuple(AttentionRank(b.state.worst), -b.state.problems, b.state.order);
  });
  return groups;
}

std::string GroupRow(const HeatmapData& data, const NodeGroup& group) {
  const std::string worst = "worst-" + std::string(VerdictName(group.state.worst));
  if (group.nodes.size() == 1) {
    return HeatmapRow(
        data, "node " + worst,
        fmt::format("{} <span class=\"muted\">{} problem(s)</span>", Escape(group.nodes.front()), group.state.problems),
        group.nodes.front(), group.cells);
  }
  const std::string hostlist = ShortHostlist(group.nodes, kMaxHostlistChars);
  return HeatmapRow(data, "group " + worst,
                    fmt::format("<b>{} nodes</b>, {} problem(s) each<br><span class=\"hostlist\">{}</span>",
                                group.nodes.size(), group.state.problems, Escape(hostlist)),
                    hostlist, group.cells);
}

std::string HeatmapSection(const RunRecord& run, const std::vector<CheckResult>& results) {
  const HeatmapData data = CollectHeatmap(run, results);
  const std::vector<NodeGroup> groups = GroupProblemNodes(data, results);
  std::vector<std::string> conforming_nodes;
  std::size_t problem_nodes = 0;
  for (const auto& node : data.node_order) {
    if (IsProblem(data.nodes.at(node).worst)) {
      ++problem_nodes;
    } else {
      conforming_nodes.push_back(node);
    }
  }
  const Cells empty(data.columns.size());
  Cells cluster = empty, folded = empty;
  bool has_cluster = false;
  const std::unordered_set<std::string> conforming(conforming_nodes.begin(), conforming_nodes.end());
  for (const auto& result : results) {
    const auto column = data.column_of.find({result.suite, result.check});
    if (column == data.column_of.end()) continue;
    if (result.node.empty()) {
      has_cluster = true;
      FoldInto(cluster, column->second, result.verdict);
    } else if (conforming.contains(result.node)) {
      FoldInto(folded, column->second, result.verdict);
    }
  }

  std::string section = fmt::format(
      "<section id=\"heatmap\"><h2>Nodes × checks</h2><p class=\"muted\">{} node(s) with a problem, drawn first "
      "(non-conforming, then worse than the baseline, then not evaluated), nodes with the same verdicts sharing a "
      "row; the {} node(s) whose every case conforms or is skipped share one row. Hover a cell for its check.</p>",
      problem_nodes, conforming_nodes.size());
  section += Legend() + "<div class=\"scroll\"><table class=\"heatmap\">" + HeatmapHeader(data) + "<tbody>";
  if (has_cluster) section += HeatmapRow(data, "cluster", "cluster-wide", "cluster", cluster);
  const std::size_t shown = std::min(groups.size(), kMaxHeatmapRows);
  for (std::size_t i = 0; i < shown; ++i) section += GroupRow(data, groups[i]);
  if (groups.size() > shown) {
    std::vector<std::string> rest;
    Cells hidden = empty;
    for (std::size_t i = shown; i < groups.size(); ++i) {
      rest.insert(rest.end(), groups[i].nodes.begin(), groups[i].nodes.end());
      for (std::size_t column = 0; column < hidden.size(); ++column) {
        if (groups[i].cells[column]) FoldInto(hidden, column, *groups[i].cells[column]);
      }
    }
    section += HeatmapRow(data, "more",
                          fmt::format("<b>{} more node(s) with problems</b><br><span class=\"hostlist\">{}</span>",
                                      rest.size(), Escape(ShortHostlist(rest, kMaxHostlistChars))),
                          "more", hidden);
  }
  if (!conforming_nodes.empty()) {
    section += HeatmapRow(data, "folded",
                          fmt::format("<b>{} conforming node(s)</b><br><span class=\"hostlist\">{}</span>",
                                      conforming_nodes.size(), Escape(ShortHostlist(conforming_nodes, kMaxHostlistChars))),
                          "conforming", folded);
  }
  section += "</tbody></table></div>";
  if (!data.all_skipped.empty()) {
    section += fmt::format("<p class=\"muted\">Skipped on every case, not drawn ({}): {}</p>", data.all_skipped.size(),
                           Escape(html::NamesClipped(data.all_skipped, 100)));
  }
  return section + "</section>";
}

// ---- Findings ----------------------------------------------------------------------------

struct FindingGroup {
  Verdict verdict = Verdict::kFail;
  std::string check;
  ReasonCode code = "internal-error";
  std::vector<std::string> nodes;     // the cases' nodes
  std::vector<std::string> entities;  // a cluster-wide case's entities
  std::string example;
  int cases = 0;
};

std::vector<FindingGroup> CollectFindings(const std::vector<CheckResult>& results) {
  std::vector<FindingGroup> groups;
  std::map<std::pair<std::string, std::string_view>, std::size_t> index;
  for (const auto& result : results) {
    // An error that is only absent snapshot files is said once, in the gaps block.
    if (!IsProblem(result.verdict) || OnlySnapshotGaps(result)) continue;
    std::unordered_set<std::string_view> seen;  // a case counts once per code
    for (const auto& finding : result.findings) {
      const auto key = std::make_pair(result.suite + "." + result.check, finding.code.code());
      auto [it, added] = index.try_emplace(key, groups.size());
      if (added) groups.push_back({result.verdict, key.first, finding.code, {}, {}, finding.message, 0});
      FindingGroup& group = groups[it->second];
      group.verdict = Worse(group.verdict, result.verdict);
      if (!seen.insert(finding.code.code()).second) continue;
      ++group.cases;
      if (!result.node.empty()) {
        group.nodes.push_back(result.node);
      } else if (!finding.entity.empty()) {
        group.entities.push_back(finding.entity);
      }
    }
  }
  std::stable_sort(groups.begin(), groups.end(), [](const FindingGroup& a, const FindingGroup& b) {
    return std::make_pair(AttentionRank(a.verdict), -a.cases) < std::make_pair(AttentionRank(b.verdict), -b.cases);
  });
  return groups;
}

std::string FindingRow(const FindingGroup& group) {
  const ReasonEntry& entry = group.code.entry();
  std::string where = group.nodes.empty() ? "" : ShortHostlist(group.nodes, kMaxHostlistChars);
  if (!group.entities.empty()) where += (where.empty() ? "" : "; ") + ShortHostlist(group.entities, kMaxHostlistChars);
  if (where.empty()) where = "cluster";
  return fmt::format(
      "<tr class=\"f-{}\" data-code=\"{}\"><td><span class=\"badge "
      "{}\">{}</span></td><td>{}</td><td><code>{}</code><br>"
      "<span class=\"muted\">{}</span></td><td>{}</td><td class=\"next\">{}</td><td class=\"where\"><span "
      "class=\"hostlist\">{}</span>"
      "<br><span class=\"muted\">{} case(s)</span></td><td class=\"example\">{}</td></tr>",
      VerdictName(group.verdict), Escape(entry.code), html::VerdictClass(group.verdict), VerdictName(group.verdict),
      Escape(group.check), Escape(entry.code), FaultClassName(entry.fault_class), Escape(entry.meaning),
      Escape(entry.next_step), Escape(where), group.cases, Escape(html::Clipped(group.example, 300)));
}

// The snapshot files a replay lacks, said once with the checks they leave unjudged.
std::string SnapshotGapsBlock(const std::vector<CheckResult>& results, const RunRecord& run) {
  const auto manifest_profile = run.snapshot_manifest.find("profile");
  const auto lines = SnapshotGapLines(FindSnapshotGaps(results), run.profile,
                                      manifest_profile == run.snapshot_manifest.end() ? "" : manifest_profile->second);
  if (lines.empty()) return "";
  std::string block = "<div class=\"gaps\"><h3>Not judged: the snapshot lacks these files</h3><ul>";
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) block += "<li>" + Escape(lines[i]) + "</li>";
  return block + "</ul><p>" + Escape(lines.back()) + "</p></div>";
}

std::string FindingsSection(const std::vector<CheckResult>& results, const RunRecord& run) {
  const std::vector<FindingGroup> groups = CollectFindings(results);
  std::string section = "<section id=\"findings\"><h2>Findings and next steps</h2>" + SnapshotGapsBlock(results, run);
  if (groups.empty()) return section + "<p>No non-conforming, regressed or unevaluated case.</p></section>";
  section += fmt::format(
      "<p class=\"muted\">{} distinct problem(s), grouped by check and reason code; the meaning and next step come "
      "from the reason catalogue (gpuconform explain CODE).</p><table class=\"findings\"><tr><th>verdict</th>"
      "<th>check</th><th>code</th><th>meaning</th><th>next step</th><th>where</th><th>example</th></tr>",
      groups.size());
  for (std::size_t i = 0; i < groups.size() && i < kMaxFindingGroups; ++i) section += FindingRow(groups[i]);
  section += "</table>";
  if (groups.size() > kMaxFindingGroups) {
    section += fmt::format("<p class=\"more\">… and {} more groups; the JSON and JUnit reports have them all.</p>",
                           groups.size() - kMaxFindingGroups);
  }
  return section + "</section>";
}

// ---- Version drift -----------------------------------------------------------------------

std::string VersionRow(const std::string& component, const std::map<std::string, std::string>& value_by_node) {
  std::map<std::string, std::vector<std::string>> nodes_by_value;
  for (const auto& [node, value] : value_by_node) nodes_by_value[value].push_back(node);
  const auto majority =
      std::max_element(nodes_by_value.begin(), nodes_by_value.end(),
                       [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  std::vector<std::pair<std::string, std::vector<std::string>>> odd;
  for (const auto& entry : nodes_by_value) {
    if (entry.first != majority->first) odd.push_back(entry);
  }
  std::sort(odd.begin(), odd.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string odd_html;
  for (std::size_t i = 0; i < odd.size() && i < kMaxOddVersions; ++i) {
    odd_html += fmt::format(
        "<div class=\"odd\"><code>{}</code> on {} node(s): <span class=\"hostlist\">{}</span></div>",
        Escape(html::Clipped(odd[i].first, 120)), odd[i].second.size(), Escape(ShortHostlist(odd[i].second, kMaxHostlistChars)));
  }
  if (odd.size() > kMaxOddVersions)
    odd_html += fmt::format("<div>… and {} more values</div>", odd.size() - kMaxOddVersions);
  return fmt::format(
      "<tr class=\"{}\" data-component=\"{}\"><td>{}</td><td><code>{}</code></td><td class=\"num\">{}"
      "</td><td>{}</td></tr>",
      odd.empty() ? "same" : "drift", Escape(component), Escape(component), Escape(html::Clipped(majority->first, 120)),
      majority->second.size(), odd.empty() ? "<span class=\"muted\">none</span>" : odd_html);
}

std::string VersionsSection(const std::vector<CheckResult>& results,
                            const std::unordered_set<std::string>& known_nodes) {
  std::vector<std::string> components;
  std::map<std::string, std::map<std::string, std::string>> value_by_node;  // component -> node -> value
  for (const auto& result : results) {
    if (result.suite != "Software") continue;
    for (const auto& measurement : result.measurements) {
      const html::MetricOwner owner = html::OwnerOf(result, measurement.name, known_nodes);
      if (owner.node.empty() || !measurement.unit.empty()) continue;  // versions are per node, and text
      auto [it, added] = value_by_node.try_emplace(owner.metric);
      if (added) components.push_back(owner.metric);
      it->second.emplace(owner.node, measurement.value);
    }
  }
  std::string section = "<section id=\"versions\"><h2>Software versions</h2>";
  if (components.empty()) return section + "<p>No per-node software version was reported.</p></section>";
  // Components that drift first: they are what to act on.
  std::stable_sort(components.begin(), components.end(), [&](const std::string& a, const std::string& b) {
    const auto distinct = [&](const std::string& component) {
      std::unordered_set<std::string> values;
      for (const auto& [node, value] : value_by_node.at(component)) values.insert(value);
      return values.size();
    };
    return (distinct(a) > 1) > (distinct(b) > 1);
  });
  section += "<table class=\"versions\"><tr><th>component</th><th>majority</th><th>nodes</th><th>odd nodes</th></tr>";
  for (const auto& component : components) section += VersionRow(component, value_by_node.at(component));
  return section + "</table></section>";
}

// ---- The page ----------------------------------------------------------------------------

// Inline, so the file opens anywhere; system fonts only.
constexpr std::string_view kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0;background:#f6f7f9}
main{max-width:1360px;margin:0 auto;padding:16px 24px 48px}
nav{position:sticky;top:0;background:#263238;padding:6px 24px;z-index:2}
nav a{color:#eceff1;margin-right:18px;text-decoration:none;font-size:13px}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 18px;margin:14px 0}
h1{margin:4px 0 6px;font-size:22px} h2{margin:4px 0 8px;font-size:18px}
.muted{color:#666;font-size:12px} .more{color:#555;font-style:italic}
.status{font-size:17px;margin:4px 0 10px} .exit{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;background:#607d8b;font-weight:600}
.exit-0 .exit{background:#2e9e4f} .exit-1 .exit{background:#d32f2f} .exit-3 .exit{background:#7b3fb0} .exit-4 .exit{background:#ef8a17}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}
.card{border:1px solid #dde1e6;border-left:6px solid #90a4ae;border-radius:4px;padding:6px 14px;min-width:120px;background:#fafbfc}
.card b{display:block;font-size:22px}
.card.c-pass{border-left-color:#2e9e4f} .card.c-fail{border-left-color:#d32f2f} .card.c-regression{border-left-color:#ef8a17}
.card.c-error{border-left-color:#7b3fb0} .card.c-skip{border-left-color:#b0b0b0}
.findings tr.f-fail td:first-child{border-left:4px solid #d32f2f} .findings tr.f-regression td:first-child{border-left:4px solid #ef8a17}
.findings tr.f-error td:first-child{border-left:4px solid #7b3fb0}
table{border-collapse:collapse} th{text-align:left}
.facts th{padding:2px 16px 2px 0;color:#555;font-weight:500} .facts td{padding:2px 0;word-break:break-all}
.legend span{display:inline-block;margin-right:16px;font-size:12px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px;border-radius:2px}
.legend i.dashed{height:0;border-top:3px dashed;width:16px;vertical-align:3px}
.v-pass{background:#2e9e4f} .v-fail{background:#d32f2f} .v-regression{background:#ef8a17} .v-error{background:#7b3fb0} .v-skip{background:#cfcfcf}
.scroll{overflow-x:auto}
.heatmap th.col{vertical-align:bottom;padding:0;height:190px;width:15px;max-width:15px}
.heatmap th.col span{display:block;writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-size:11px;font-weight:400;max-height:186px;overflow:hidden;text-overflow:ellipsis;padding:2px 0}
.heatmap th.col span b{color:#1f6fb4}
.heatmap td{width:13px;height:13px;padding:0;border:1px solid #fff}
.heatmap td.none{background:#f3f3f3}
.heatmap .suite-start{border-left:3px solid #fff}
.heatmap th.col.suite-start{border-left:3px solid #fff}
.heatmap .rowlabel{font-weight:400;padding:1px 10px 1px 0;white-space:nowrap;font-size:12px;max-width:360px;overflow:hidden;text-overflow:ellipsis}
.heatmap tr.folded .rowlabel,.heatmap tr.more .rowlabel,.heatmap tr.group .rowlabel{white-space:normal;min-width:240px}
.heatmap tr.folded td,.heatmap tr.more td,.heatmap tr.group td{height:30px}
.heatmap tr.folded th,.heatmap tr.cluster th{border-top:1px solid #ccc}
.hostlist{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
.badge{display:inline-block;padding:1px 7px;border-radius:3px;color:#fff;font-size:12px;white-space:nowrap}
.badge.v-skip{color:#333}
.findings td,.changes td,.versions td,.findings th,.changes th,.versions th{border-bottom:1px solid #eceff1;padding:5px 8px;vertical-align:top}
.findings,.changes{width:100%} .findings td.next{font-weight:500;max-width:300px} .findings td.where{min-width:130px;max-width:220px}
.findings td.example{font-size:12px;color:#444;max-width:380px;overflow-wrap:anywhere}
.gaps{border-left:4px solid #7b3fb0;background:#f6f0fb;padding:6px 12px;margin:8px 0}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.changes tr.regressed td.pct{color:#d32f2f;font-weight:600}
.versions tr.drift td{background:#fff4f4} .odd{color:#b71c1c}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:12px}
figure{margin:0;border:1px solid #eceff1;border-radius:4px;padding:8px}
figcaption{font-size:13px;margin-bottom:4px}
.outliers{font-size:12px;margin:4px 0 0} .outliers.bad{color:#b71c1c}
svg .label{font-size:11px;fill:#444} svg .axis{font-size:12px;fill:#333}
ol.changes{font-size:12px;margin:4px 0 0;padding-left:22px;color:#8a4b00}
)css";

std::string Navigation(bool with_trends) {
  std::string nav = "<nav>";
  for (const auto& [id, title] : {std::pair{"summary", "Summary"},
                                  {"heatmap", "Heatmap"},
                                  {"findings", "Findings"},
                                  {"changes", "Baseline"},
                                  {"busbw", "busbw"},
                                  {"distributions", "Metrics"},
                                  {"versions", "Versions"},
                                  {"trends", "Trends"}}) {
    if (std::string_view(id) == "trends" && !with_trends) continue;
    nav += fmt::format("<a href=\"#{}\">{}</a>", id, title);
  }
  return nav + "</nav>";
}

}  // namespace

std::string RenderHtmlReport(const Run& judged, const std::vector<MetricTrend>& trends) {
  const RunRecord& run = judged.record;
  const std::vector<CheckResult>& results = judged.cases;
  std::unordered_set<std::string> known_nodes(run.nodes.begin(), run.nodes.end());
  for (const auto& result : results) {
    if (!result.node.empty()) known_nodes.insert(result.node);
  }
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width,initial-scale=1\"><title>gpuconform {}: exit {} ({} nodes)</title><style>{}</style>"
      "</head><body>",
      Escape(run.profile), run.exit_status, run.nodes.size(), kStyle);
  page += Navigation(!trends.empty()) + "<main>";
  page += SummarySection(run, results);
  page += HeatmapSection(run, results);
  page += FindingsSection(results, run);
  page += html::ChangesSection(results, known_nodes);
  page += html::BusbwSection(results);
  page += html::DistributionSection(results, known_nodes);
  page += VersionsSection(results, known_nodes);
  page += html::TrendsSection(trends);
  return page + "</main></body></html>\n";
}

Result<bool> WriteHtmlReport(const std::string& path, const Run& run, const std::vector<MetricTrend>& trends) {
  return WriteFileAtomically(path, RenderHtmlReport(run, trends));
}

}  // namespace gpuconform
