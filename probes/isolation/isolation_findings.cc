#include "probes/isolation/isolation_findings.h"

#include <algorithm>
#include <optional>
#include <string>

namespace gpuconform::isolation {

namespace {

// The lookups the judging needs, over the search's state.
struct Judge {
  const SearchOutcome& outcome;

  const DoneTest& At(TestId id) const { return outcome.history[id.round - 1][id.index]; }

  bool Explains(const Named& finding, const Nodes& test) const {
    switch (finding.kind) {
      case FindingKind::kNode:
      case FindingKind::kSlowNode:
        return Contains(test, finding.nodes[0]);
      case FindingKind::kPair:
        return Contains(test, finding.nodes[0]) && Contains(test, finding.nodes[1]);
      case FindingKind::kBoundary:
        return Intersects(test, finding.side_a) && Intersects(test, finding.side_b);
      case FindingKind::kInconclusive:
        return Intersects(test, finding.nodes);
    }
    return false;
  }

  std::vector<std::string> Names(const Nodes& nodes) const {
    std::vector<std::string> out;
    out.reserve(nodes.size());
    for (const int node : nodes) out.push_back(outcome.names[node]);
    return out;
  }

  std::string Scope(const std::vector<TestId>& evidence) const {
    bool intra = false;
    bool inter = false;
    for (const TestId id : evidence) {
      const TestResult& result = At(id).result;
      if (!Bad(result.outcome)) continue;
      intra = intra || (result.intra_node && Bad(*result.intra_node));
      inter = inter || (result.inter_node && Bad(*result.inter_node));
    }
    if (intra && !inter) return "intra-node";
    if (inter && !intra) return "inter-node";
    return "";
  }

  std::vector<std::string> GroupsOf(const Nodes& nodes) const {
    std::vector<std::string> out;
    for (const int node : nodes) {
      const std::string name = outcome.group_of[node] < 0 ? "" : outcome.seed_groups[outcome.group_of[node]].name;
      if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return out;
  }

  std::string SharedParent(const Nodes& nodes) const {
    std::string parent;
    for (const int node : nodes) {
      if (outcome.group_of[node] < 0) return "";
      const std::string& mine = outcome.seed_groups[outcome.group_of[node]].parent;
      if (mine.empty() || (!parent.empty() && mine != parent)) return "";
      parent = mine;
    }
    return parent;
  }

  Finding Convert(const Named& named_finding) const {
    Finding finding;
    finding.kind = named_finding.kind;
    finding.nodes = Names(named_finding.nodes);
    finding.detail = named_finding.detail;
    for (const TestId id : named_finding.evidence) {
      const TestResult& result = At(id).result;
      finding.evidence.push_back({id.round, id.index, result.outcome, result.busbw_gb_per_s});
    }
    if (named_finding.kind != FindingKind::kInconclusive) finding.scope = Scope(named_finding.evidence);
    if (named_finding.kind == FindingKind::kBoundary) {
      finding.side_a = Names(named_finding.side_a);
      finding.side_b = Names(named_finding.side_b);
      finding.groups = GroupsOf(named_finding.side_a);
      for (const std::string& group : GroupsOf(named_finding.side_b)) finding.groups.push_back(group);
      finding.shared = SharedParent(named_finding.nodes);
    }
    return finding;
  }
};

}  // namespace

std::vector<Finding> JudgeFindings(const SearchOutcome& outcome) {
  const Judge judge{outcome};
  const auto& history = outcome.history;
  const auto& named = outcome.named;
  // A name stands only while no recorded result contradicts it: a test that passed with a named
  // node (or pair, or both sides of a boundary) in it turns the name into a question.
  std::vector<Named> kept;
  std::vector<Named> questions = outcome.questions;
  for (const Named& finding : named) {
    std::optional<TestId> contradiction;
    for (std::size_t r = 0; r < history.size() && !contradiction; ++r) {
      for (std::size_t i = 0; i < history[r].size(); ++i) {
        const DoneTest& test = history[r][i];
        // A pair also contradicts a failure of one of its nodes without the other, unless another
        // name explains it: a pair's nodes pass with every other node.
        const bool one_of_pair = finding.kind == FindingKind::kPair &&
                                 Contains(test.nodes, finding.nodes[0]) != Contains(test.nodes, finding.nodes[1]);
        const bool explained_otherwise = std::any_of(named.begin(), named.end(), [&](const Named& other) {
          return &other != &finding && judge.Explains(other, test.nodes);
        });
        if ((!Bad(test.result.outcome) && judge.Explains(finding, test.nodes)) ||
            (Bad(test.result.outcome) && one_of_pair && !explained_otherwise)) {
          contradiction = TestId{static_cast<int>(r) + 1, static_cast<int>(i)};
          break;
        }
      }
    }
    if (!contradiction) {
      kept.push_back(finding);
      continue;
    }
    Named question = finding;
    question.kind = FindingKind::kInconclusive;
    question.evidence.push_back(*contradiction);
    question.detail = std::string("looked like a ") + FindingKindName(finding.kind) + ", but test " +
                      std::to_string(contradiction->round) + "." + std::to_string(contradiction->index) +
                      (Bad(judge.At(*contradiction).result.outcome) ? " failed without it being the cause"
                                                              : " passed with it") +
                      ": results contradict each other (a flaky node?)";
    questions.push_back(std::move(question));
  }
  // Every failing test must be explained by a finding; one that is not is said, not guessed.
  std::vector<Named> all = kept;
  all.insert(all.end(), questions.begin(), questions.end());
  for (std::size_t r = 0; r < history.size(); ++r) {
    for (std::size_t i = 0; i < history[r].size(); ++i) {
      const DoneTest& test = history[r][i];
      if (!Bad(test.result.outcome)) continue;
      const bool explained = std::any_of(all.begin(), all.end(), [&](const Named& f) { return judge.Explains(f, test.nodes); });
      if (explained) continue;
      const TestId id{static_cast<int>(r) + 1, static_cast<int>(i)};
      Named question{FindingKind::kInconclusive, test.nodes, {}, {}, {id},
                     "failed, and no finding explains it: results contradict each other (a flaky node?)"};
      all.push_back(question);
      questions.push_back(std::move(question));
    }
  }
  std::vector<Finding> out;
  for (const Named& finding : kept) out.push_back(judge.Convert(finding));
  for (const Named& finding : questions) out.push_back(judge.Convert(finding));
  return out;
}

}  // namespace gpuconform::isolation
